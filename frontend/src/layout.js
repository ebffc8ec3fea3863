// Layout adapter: plain boxes and edges in, positions out. dagre does the work; nothing here knows the DOM.

import { Graph, layout } from '@dagrejs/dagre';

/**
 * @typedef {{id: string, width: number, height: number}} BoxIn
 * @typedef {{id: string, from: string, to: string}} EdgeIn
 * @typedef {{x: number, y: number, width: number, height: number}} Box   x, y: top-left corner.
 * @typedef {{nodes: Record<string, Box>, edges: Record<string, {x: number, y: number}[]>, width: number, height: number}} Layout
 */

const MARGIN = 16;

/**
 * Lay a graph out top to bottom: inputs above the tensors computed from them, so forward edges point down
 * and the backward pass climbs back up.
 * @param {BoxIn[]} boxes
 * @param {EdgeIn[]} edges
 * @returns {Layout}
 */
export function layoutGraph(boxes, edges) {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 44, edgesep: 12, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const b of boxes) g.setNode(b.id, { width: b.width, height: b.height });
  const known = new Set(boxes.map((b) => b.id));
  for (const e of edges) {
    if (known.has(e.from) && known.has(e.to)) g.setEdge(e.from, e.to, {}, e.id);
  }
  layout(g);

  /** @type {Layout} */
  const out = { nodes: {}, edges: {}, width: 0, height: 0 };
  for (const b of boxes) {
    const n = g.node(b.id);
    out.nodes[b.id] = { x: n.x - b.width / 2, y: n.y - b.height / 2, width: b.width, height: b.height };
  }
  for (const ge of g.edges()) {
    out.edges[ge.name] = (g.edge(ge).points || []).map((p) => ({ x: p.x, y: p.y }));
  }
  const graph = g.graph();
  out.width = Math.max(graph.width || 0, 1);
  out.height = Math.max(graph.height || 0, 1);
  return out;
}
