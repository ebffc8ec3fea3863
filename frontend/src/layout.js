// Layout adapter: plain boxes and edges in, positions out. dagre does the work; nothing here knows the DOM.

import { Graph, layout } from '@dagrejs/dagre';
import { makeRoomForClusters } from './clusterroom.js';
import { treeLayout } from './treelayout.js';

/**
 * @typedef {{id: string, width: number, height: number, below?: string, cluster?: string, clusterLabel?: number}} BoxIn
 *   cluster: the module call that made it (`model.0`): boxes of one module are laid out together, in a frame.
 *   clusterLabel: the width of that module's label, drawn above its frame (room is kept for it: clusterroom.js).
 *   below: this box sits right under box `below` (AccumulateGrad under its leaf), joined by a short vertical edge.
 * @typedef {{id: string, from: string, to: string, label?: {width: number, height: number}}} EdgeIn
 *   label: room to keep beside the edge for a label (the gradient it carries).
 * @typedef {{x: number, y: number, width: number, height: number}} Box   x, y: top-left corner.
 * @typedef {{x: number, y: number}} Point
 * @typedef {object} Layout
 * @property {Record<string, Box>} nodes
 * @property {Record<string, Point[]>} edges   The polyline of each edge, by edge id.
 * @property {Record<string, Box>} labels      Where each edge's label goes, by edge id.
 * @property {Record<string, Box & {labelWidth?: number, labelHeight?: number}>} [clusters]  The frame of each
 *   module's boxes, by module path, with the room kept above it for its label.
 * @property {number} width
 * @property {number} height
 */

const MARGIN = 12;
const BELOW_GAP = 10; // between a box and the one drawn under it
/**
 * Past this many boxes, the big-graph mode: treelayout.js, in linear time (dagre takes most of a second on 1,000
 * boxes): ranks are the longest path from the leaves, each tensor hangs off its deepest input as a tidy tree, and
 * edges are drawn straight from output to input side.
 */
export const FAST_LAYOUT = 300;

/**
 * An edge leaves its input's right side and enters its output's left side at mid-height, through dagre's inner
 * points (the route around other ranks' boxes, the label's spot): drawn with horizontal tangents, it stays in the
 * gaps between ranks instead of cutting a corner across a neighbouring box.
 */
function sideToSide(a, b, points) {
  if (!a || !b || a.x + a.width > b.x) return points;
  const start = { x: a.x + a.width, y: a.y + a.height / 2 };
  const end = { x: b.x, y: b.y + b.height / 2 };
  const inner = points.slice(1, -1).filter((p) => p.x > start.x && p.x < end.x);
  return [start, ...inner, end];
}

/**
 * Lay a graph out left to right: inputs left of the tensors computed from them, so forward edges point right
 * and the backward pass travels back to the left. Edge labels sit on their edge's midpoint.
 * @param {BoxIn[]} allBoxes
 * @param {EdgeIn[]} allEdges
 * @param {{labelFont?: number}} [options]  labelFont: the size (graph units) modules' labels need room for
 * @returns {Layout}
 */
export function layoutGraph(allBoxes, allEdges, options = {}) {
  // boxes drawn under another one are laid out as part of it (their host grows by their height)
  const under = new Map(allBoxes.filter((b) => b.below).map((b) => [b.below, b]));
  const boxes = allBoxes
    .filter((b) => !b.below)
    .map((b) => {
      const u = under.get(b.id);
      return u ? { ...b, width: Math.max(b.width, u.width), height: b.height + BELOW_GAP + u.height, own: b } : b;
    });
  const stacked = new Set([...under.values()].map((u) => u.id));
  const edges = allEdges.filter((e) => !stacked.has(e.from) && !stacked.has(e.to));
  const fast = boxes.length > FAST_LAYOUT;
  const known = new Set(boxes.map((b) => b.id));
  const clustered = !fast && boxes.some((b) => b.cluster);
  const g = new Graph({ multigraph: true, compound: clustered });
  const tree = fast ? treeLayout(boxes, edges, MARGIN) : null;
  if (!tree) {
    g.setGraph({ rankdir: 'LR', nodesep: 22, ranksep: 22, edgesep: 10, marginx: MARGIN, marginy: MARGIN });
    g.setDefaultEdgeLabel(() => ({}));
    for (const b of boxes) {
      g.setNode(b.id, { width: b.width, height: b.height });
      if (clustered && b.cluster) {
        if (!g.hasNode(`mod:${b.cluster}`)) g.setNode(`mod:${b.cluster}`, {});
        g.setParent(b.id, `mod:${b.cluster}`);
      }
    }
    for (const e of edges) {
      if (known.has(e.from) && known.has(e.to))
        g.setEdge(e.from, e.to, e.label ? { ...e.label, labelpos: 'c' } : {}, e.id);
    }
    layout(g);
  }
  const centre = (id) => (tree ? tree.centres.get(id) : g.node(id));
  const stackedEdge = new Map(allEdges.filter((e) => stacked.has(e.from)).map((e) => [`${e.from}|${e.to}`, e.id]));

  /** @type {Layout} */
  const out = { nodes: {}, edges: {}, labels: {}, width: 0, height: 0 };
  for (const b of boxes) {
    const n = centre(b.id);
    const own = 'own' in b ? b.own : b;
    const top = n.y - b.height / 2;
    out.nodes[b.id] = { x: n.x - own.width / 2, y: top, width: own.width, height: own.height };
    const u = under.get(b.id);
    if (u) {
      const y = top + own.height + BELOW_GAP;
      out.nodes[u.id] = { x: n.x - u.width / 2, y, width: u.width, height: u.height };
      const id = stackedEdge.get(`${u.id}|${b.id}`);
      if (id)
        out.edges[id] = [
          { x: n.x, y },
          { x: n.x, y: top + own.height },
        ];
    }
  }
  for (const ge of tree ? [] : g.edges()) {
    const edge = g.edge(ge);
    out.edges[ge.name] = (edge.points || []).map((p) => ({ x: p.x, y: p.y }));
    out.edges[ge.name] = sideToSide(out.nodes[ge.v], out.nodes[ge.w], out.edges[ge.name]);
    if (edge.width && edge.x !== undefined) {
      out.labels[ge.name] = {
        x: edge.x - edge.width / 2,
        y: edge.y - edge.height / 2,
        width: edge.width,
        height: edge.height,
      };
    } else if (edge.points?.length) {
      const mid = edge.points[Math.floor(edge.points.length / 2)];
      out.labels[ge.name] = { x: mid.x - 30, y: mid.y - 9, width: 60, height: 18 };
    }
  }
  if (fast) {
    for (const e of edges) {
      const a = out.nodes[e.from];
      const b = out.nodes[e.to];
      if (out.edges[e.id] || !a || !b) continue;
      out.edges[e.id] = [
        { x: a.x + a.width, y: a.y + a.height / 2 },
        { x: b.x, y: b.y + b.height / 2 },
      ];
      const mid = { x: (a.x + a.width + b.x) / 2, y: (a.y + b.y + (a.height + b.height) / 2) / 2 };
      out.labels[e.id] = { x: mid.x - 30, y: mid.y - 9, width: 60, height: 18 };
    }
  }
  if (clustered) {
    out.clusters = {};
    for (const b of boxes) {
      const c = b.cluster && g.node(`mod:${b.cluster}`);
      if (c && !out.clusters[b.cluster]) {
        out.clusters[b.cluster] = { x: c.x - c.width / 2, y: c.y - c.height / 2, width: c.width, height: c.height };
      }
    }
  }
  const graph = tree ?? g.graph();
  out.width = Math.max(graph.width || 0, 1);
  out.height = Math.max(graph.height || 0, 1);
  if (clustered) {
    const hostOf = new Map([...under.values()].map((u) => [u.id, u.below]));
    const clusterOf = new Map();
    const labelWidth = {};
    const own = new Map(allBoxes.map((b) => [b.id, b.cluster]));
    for (const b of allBoxes) {
      const path = b.cluster ?? (b.below ? own.get(b.below) : undefined);
      if (path) clusterOf.set(b.id, path);
      if (b.cluster && b.clusterLabel) labelWidth[b.cluster] = b.clusterLabel;
    }
    const ends = new Map(allEdges.map((e) => [e.id, e]));
    makeRoomForClusters(out, clusterOf, hostOf, labelWidth, ends, options.labelFont);
  }
  return out;
}
