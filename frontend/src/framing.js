// Framing and semantic zoom, as pure functions of a layout and the panel's size: which part of the graph the view
// shows for a step, and what a node says at a zoom level. Text is never drawn under FULL_TEXT px on screen.

export const FULL_TEXT = 11; // px on screen: the smallest text the graph draws
const NODE_FONT = 12; // px in graph units: the nodes' rows, edge labels, AccumulateGrad and the seed
/** Zoom at which every row of a node is readable (12 px text drawn at ≥ 11 px). */
export const FULL = FULL_TEXT / NODE_FONT;
/** Below FULL, down to here at most, nodes collapse to one name; below that, to coloured marks. */
export const NAMES = 0.12;
const CHAR_EM = 0.62; // width of a monospace character, in em
const MARGIN = 8; // px on screen around a framed part

/** 'full' (every row), 'names' (one name per node, where it fits), 'marks' (coloured boxes only). */
export function levelAt(k) {
  return k >= FULL - 1e-9 ? 'full' : k >= NAMES ? 'names' : 'marks';
}

/**
 * The longest of `names` that fits a box of width × height (graph units) at FULL_TEXT px on screen, or ''.
 * @param {string[]} names  longest first
 */
export function pickName(names, width, height, k) {
  return names.find((n) => n && nameFits(n, width, height, k)) || '';
}

const nameFits = (name, width, height, k) => {
  const font = FULL_TEXT / k;
  return font * 1.15 <= height && [...name].length * CHAR_EM * font <= width - 8;
};

/** The smallest zoom at which a box shows its shortest name at FULL_TEXT px. */
export function nameScale(names, width, height) {
  const shortest = Math.min(...names.filter(Boolean).map((n) => [...n].length));
  return Math.max((FULL_TEXT * 1.15) / height, (shortest * CHAR_EM * FULL_TEXT) / Math.max(1, width - 8));
}

/**
 * The zoom from which the graph reads as a graph: nine nodes in ten show at least their op name.
 * @param {{names: string[], width: number, height: number}[]} nodes
 */
export function legibleScale(nodes) {
  if (!nodes.length) return NAMES;
  const ks = nodes.map((n) => nameScale(n.names, n.width, n.height)).sort((a, b) => a - b);
  return Math.min(FULL, Math.max(NAMES, ks[Math.floor(0.9 * (ks.length - 1))]));
}

/**
 * The font (graph units) modules' labels need room for (clusterroom.js): 11 px on screen at the smallest zoom the
 * panel fits this graph at (legibleScale), 12 at least.
 * @param {{names: string[], width: number, height: number}[]} nodes
 */
export function labelFont(nodes) {
  return nodes.length ? Math.max(NODE_FONT, FULL_TEXT / legibleScale(nodes)) : NODE_FONT;
}

/**
 * Where the view goes: the whole graph when that keeps its nodes legible (scale ≥ `legible`: every row, or at
 * least the op names; see legibleScale), otherwise the current node and its neighbours at a readable scale
 * (≥ FULL), centred.
 * @param {import('./layout.js').Layout} layout
 * @param {{from: string, to: string}[]} edges  the laid-out edges (to find the neighbours)
 * @param {string|null} current  the current step's node, if any
 * @param {number} w  panel width (px)
 * @param {number} h  panel height (px)
 * @param {number} [legible]  the smallest zoom at which the whole graph is still worth showing
 * @returns {{x: number, y: number, k: number, whole: boolean}}
 */
export function frameView(layout, edges, current, w, h, legible = FULL) {
  const fitK = Math.min(1, (w - 2 * MARGIN) / layout.width, (h - 2 * MARGIN) / layout.height);
  if (fitK >= legible || !Object.keys(layout.nodes).length) {
    const k = Math.max(0.02, fitK);
    return { x: (w - layout.width * k) / 2, y: (h - layout.height * k) / 2, k, whole: true };
  }
  const id = current && layout.nodes[current] ? current : rightmost(layout);
  const ids = new Set([id, `acc:${id}`, `seed:${id}`]);
  for (const e of edges) {
    if (e.from === id) ids.add(e.to);
    if (e.to === id) ids.add(e.from);
  }
  const boxes = [...ids].map((i) => layout.nodes[i]).filter(Boolean);
  let box = bounds(boxes);
  let k = Math.min(1, (w - 2 * MARGIN) / box.width, (h - 2 * MARGIN) / box.height);
  if (k < FULL) {
    k = FULL; // too many neighbours to show readable: the current node itself, centred
    box = layout.nodes[id];
  }
  const x = w / 2 - (box.x + box.width / 2) * k;
  const y = h / 2 - (box.y + box.height / 2) * k;
  return { x, y, k, whole: false };
}

/** The output end of the graph (what the learner computed last). */
function rightmost(layout) {
  let best = null;
  for (const [id, b] of Object.entries(layout.nodes)) if (!best || b.x > layout.nodes[best].x) best = id;
  return best;
}

function bounds(boxes) {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * What a view shows, in graph units, widened by `widen` views each way.
 * @param {{x: number, y: number, k: number}} t  the zoom transform
 */
export function viewBounds(t, w, h, widen = 0) {
  const vw = w / t.k;
  const vh = h / t.k;
  const x0 = -t.x / t.k;
  const y0 = -t.y / t.k;
  return { x0: x0 - widen * vw, y0: y0 - widen * vh, x1: x0 + (1 + widen) * vw, y1: y0 + (1 + widen) * vh };
}

/** Does a box meet a region of viewBounds? */
export const meets = (b, r) => b.x < r.x1 && b.x + b.width > r.x0 && b.y < r.y1 && b.y + b.height > r.y0;
