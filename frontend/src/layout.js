// Layout adapter: plain boxes and edges in, positions out. dagre does the work; nothing here knows the DOM.

import { Graph, layout } from '@dagrejs/dagre';

/**
 * @typedef {{id: string, width: number, height: number}} BoxIn
 * @typedef {{id: string, from: string, to: string, label?: {width: number, height: number}}} EdgeIn
 *   label: room to keep beside the edge for a label (the gradient it carries).
 * @typedef {{x: number, y: number, width: number, height: number}} Box   x, y: top-left corner.
 * @typedef {{x: number, y: number}} Point
 * @typedef {object} Layout
 * @property {Record<string, Box>} nodes
 * @property {Record<string, Point[]>} edges   The polyline of each edge, by edge id.
 * @property {Record<string, Box>} labels      Where each edge's label goes, by edge id.
 * @property {number} width
 * @property {number} height
 */

const MARGIN = 16;
/** Past this many boxes, dagre's fast settings (longest-path ranks, one ordering sweep, labels on the midpoint). */
export const FAST_LAYOUT = 300;

/**
 * Lay a graph out left to right: inputs left of the tensors computed from them, so forward edges point right
 * and the backward pass travels back to the left. Edge labels sit on their edge's midpoint.
 * @param {BoxIn[]} boxes
 * @param {EdgeIn[]} edges
 * @returns {Layout}
 */
export function layoutGraph(boxes, edges) {
  const fast = boxes.length > FAST_LAYOUT;
  const g = new Graph({ multigraph: true });
  g.setGraph({
    rankdir: 'LR',
    nodesep: 22,
    ranksep: fast ? 70 : 36,
    edgesep: 10,
    marginx: MARGIN,
    marginy: MARGIN,
    ...(fast ? { ranker: 'longest-path' } : {}),
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const b of boxes) g.setNode(b.id, { width: b.width, height: b.height });
  const known = new Set(boxes.map((b) => b.id));
  for (const e of edges) {
    if (!known.has(e.from) || !known.has(e.to)) continue;
    g.setEdge(e.from, e.to, e.label && !fast ? { ...e.label, labelpos: 'c' } : {}, e.id);
  }
  layout(g, fast ? { disableOptimalOrderHeuristic: true } : undefined);

  /** @type {Layout} */
  const out = { nodes: {}, edges: {}, labels: {}, width: 0, height: 0 };
  for (const b of boxes) {
    const n = g.node(b.id);
    out.nodes[b.id] = { x: n.x - b.width / 2, y: n.y - b.height / 2, width: b.width, height: b.height };
  }
  for (const ge of g.edges()) {
    const edge = g.edge(ge);
    out.edges[ge.name] = (edge.points || []).map((p) => ({ x: p.x, y: p.y }));
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
  const graph = g.graph();
  out.width = Math.max(graph.width || 0, 1);
  out.height = Math.max(graph.height || 0, 1);
  return out;
}
