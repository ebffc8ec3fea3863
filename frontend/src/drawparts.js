// A big graph is drawn in parts (issue 12, point 7: no main-thread task over 50 ms): the boxes nearest the view first,
// then the rest, a part per animation frame, so that no one frame creates and styles thousands of SVG elements.
// drawParts is pure data: which tensors go in which part.

import { nextFrame } from './player.js';

/** Tensors per part: creating and styling one part's elements stays well under 50 ms. */
export const PART = 150;

/**
 * The tensors in the order they are drawn, cut in parts: nearest the centre of `view` first (the current step's node
 * and what the learner sees), the farthest last. Tensors with no box keep the end.
 * @param {string[]} ids
 * @param {Record<string, import('./layout.js').Box>} boxes
 * @param {{x0: number, y0: number, x1: number, y1: number}} view  graph units
 * @param {number} [size]
 * @returns {string[][]}
 */
export function drawParts(ids, boxes, view, size = PART) {
  const cx = (view.x0 + view.x1) / 2;
  const cy = (view.y0 + view.y1) / 2;
  const far = (id) => {
    const b = boxes[id];
    return b ? Math.hypot(b.x + b.width / 2 - cx, b.y + b.height / 2 - cy) : Infinity;
  };
  const order = ids.map((id) => ({ id, d: far(id) })).sort((a, b) => a.d - b.d);
  const parts = [];
  for (let i = 0; i < order.length; i += size) parts.push(order.slice(i, i + size).map((o) => o.id));
  return parts;
}

/**
 * Draws the other parts of a big graph, one per animation frame (player.js's nextFrame), each into the groups the first part made (graphdraw.js: defs, clusters, edges, nodes, labels); drawing
 * again or `stop` drops what is left.
 * @param {Element} viewport
 * @param {(nodes: Element) => void} drawn  after each part: its group of boxes (names, marks)
 */
export function createPartDrawer(viewport, drawn) {
  let token = 0;
  /**
   * @param {string[][]} parts
   * @param {(ids: string[]) => Element[]} draw
   */
  function draw(parts, draw) {
    const mine = ++token;
    const step = () => {
      if (mine !== token || !parts.length) return;
      const groups = draw(/** @type {string[]} */ (parts.shift()));
      const nodes = groups[3];
      drawn(nodes);
      for (const i of [2, 3, 4]) viewport.children[i]?.append(...groups[i].childNodes);
      nextFrame(step);
    };
    if (parts.length) nextFrame(step);
  }
  return { draw, stop: () => token++ };
}
