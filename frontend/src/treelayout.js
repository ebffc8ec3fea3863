// The layout of big graphs (past layout.js's FAST_LAYOUT boxes), in linear time and without dagre: ranks are the
// longest path from the leaves (columns, left to right), and each box hangs off its deepest input, so the boxes
// form a forest laid out as a tidy tree: a box sits beside the middle of the boxes made from it, each subtree in
// its own band of rows, so no two boxes meet. The other edges are drawn straight. Pure data: no DOM.

const RANK_SEP = 70; // between columns
const NODE_SEP = 22; // between boxes of one column

/**
 * @param {{id: string, width: number, height: number}[]} boxes
 * @param {{from: string, to: string}[]} edges
 * @param {number} margin
 * @returns {{centres: Map<string, {x: number, y: number}>, width: number, height: number}}
 */
export function treeLayout(boxes, edges, margin) {
  const ins = new Map(boxes.map((b) => [b.id, /** @type {string[]} */ ([])]));
  const outs = new Map(boxes.map((b) => [b.id, /** @type {string[]} */ ([])]));
  for (const e of edges) {
    if (!ins.has(e.from) || !ins.has(e.to) || e.from === e.to) continue;
    ins.get(e.to)?.push(e.from);
    outs.get(e.from)?.push(e.to);
  }
  // ranks: the longest path from a leaf (Kahn's order; a box in a cycle, which autograd never makes, stays at 0)
  const rank = new Map(boxes.map((b) => [b.id, 0]));
  const waiting = new Map(boxes.map((b) => [b.id, ins.get(b.id)?.length ?? 0]));
  const queue = boxes.filter((b) => waiting.get(b.id) === 0).map((b) => b.id);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i];
    for (const to of outs.get(id) ?? []) {
      rank.set(to, Math.max(rank.get(to) ?? 0, (rank.get(id) ?? 0) + 1));
      waiting.set(to, (waiting.get(to) ?? 0) - 1);
      if (waiting.get(to) === 0) queue.push(to);
    }
  }
  // the forest: each box's parent is its deepest input (one rank left of it)
  const kids = new Map(boxes.map((b) => [b.id, /** @type {string[]} */ ([])]));
  const roots = [];
  for (const b of boxes) {
    let parent = null;
    for (const from of ins.get(b.id) ?? [])
      if ((rank.get(from) ?? 0) === (rank.get(b.id) ?? 0) - 1 && (parent === null || from > parent)) parent = from;
    if (parent === null) roots.push(b.id);
    else kids.get(parent)?.push(b.id);
  }
  // columns
  const size = new Map(boxes.map((b) => [b.id, b]));
  const widest = [];
  for (const b of boxes) widest[rank.get(b.id) ?? 0] = Math.max(widest[rank.get(b.id) ?? 0] ?? 0, b.width);
  const colX = [];
  let x = margin;
  for (let r = 0; r < widest.length; r++) {
    colX[r] = x + (widest[r] ?? 0) / 2;
    x += (widest[r] ?? 0) + RANK_SEP;
  }
  // rows: depth first (without recursion: a 5,000-deep chain), each subtree in the band after the previous one's
  const centres = new Map();
  let cursor = margin;
  for (const root of roots) {
    /** @type {{id: string, start: number, next: number}[]} */
    const stack = [{ id: root, start: cursor, next: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const children = kids.get(top.id) ?? [];
      if (top.next < children.length) {
        stack.push({ id: children[top.next++], start: cursor, next: 0 });
        continue;
      }
      stack.pop();
      const h = size.get(top.id)?.height ?? 0;
      let y = top.start + h / 2;
      if (children.length) {
        const first = centres.get(children[0]).y;
        const last = centres.get(children[children.length - 1]).y;
        y = Math.max(y, (first + last) / 2);
      }
      centres.set(top.id, { x: colX[rank.get(top.id) ?? 0], y });
      cursor = Math.max(cursor, y + h / 2 + NODE_SEP);
    }
  }
  return { centres, width: Math.max(1, x - RANK_SEP + margin), height: Math.max(1, cursor - NODE_SEP + margin) };
}
