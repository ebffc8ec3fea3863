// What the graph panel lays out: the tensors of the window, plus the nodes autograd adds around them — an
// AccumulateGrad per leaf that requires grad (it writes the leaf's .grad) and, per backward root, the gradient
// that enters the graph there (the v of the vector–Jacobian product). Pure data: no DOM.

import { formatCompact } from './format.js';
import { CHAR_W, nodeSize } from './nodeview.js';

export const accId = (id) => `acc:${id}`;
export const seedId = (id) => `seed:${id}`;
export const ACC = { width: 118, height: 26 };
/** A box standing for a loop's folded iterations where a tensor was made from one of them (a long chain's ends). */
export const foldId = (id, index) => `fold:${id}:${index}`;
export const FOLD = { width: 168, height: 30 };
const LABEL_CHARS = 8; // a tensor's gradient on an edge: its first entries (the step panel has all)
const LABEL_CHAR_W = CHAR_W; // labels use the nodes' 12px font (≥ 11 px on screen wherever text is drawn)

/** "∂ 4." — the gradient an edge carries in the backward pass. */
export function gradText(values) {
  const text = formatCompact(values ?? 0, LABEL_CHARS);
  // not even one entry fits: the gradient's shape (its values are in the step panel)
  return text.startsWith('[,') ? `∂ ${shapeOf(values)}` : `∂ ${text}`;
}

/** [16×8] of nested lists. */
function shapeOf(values) {
  const dims = [];
  for (let v = values; Array.isArray(v); v = v[0]) dims.push(v.length);
  return `[${dims.join('×')}]`;
}

export function labelSize(text) {
  return { width: Math.ceil(text.length * LABEL_CHAR_W + 10), height: 18 };
}

/** The rows of a gradient seed: `gradient=` and its value; a non-scalar one is the v of vᵀJ. */
export function seedRows(gradient, scalarRoot) {
  const value = formatCompact(gradient ?? 1, 26);
  return scalarRoot
    ? [`gradient = ${value}`, 'dy/dy = 1']
    : [`gradient = ${value}`, 'v in vᵀ·J (vector–Jacobian product)'];
}

/**
 * @param {import('./reducer.js').Snapshot} final
 * @param {string[]} ids  The tensors to draw (see graphWindow).
 * @returns {{boxes: import('./layout.js').BoxIn[], edges: import('./layout.js').EdgeIn[]}}
 */
export function graphModel(final, ids) {
  const shown = new Set(ids);
  const modules = new Set(ids.map((id) => final.tensors[id].module).filter(Boolean));
  // a tensor's module: the call that made it, or for a parameter the module its name says (model.0.weight)
  const moduleOf = (t) => {
    if (t.module) return t.module;
    const owner = t.isLeaf && t.name ? t.name.slice(0, t.name.lastIndexOf('.')) : '';
    return modules.has(owner) ? owner : undefined;
  };
  // a module's label (`model.0 · Linear`, drawn at x = 6 above its frame): room is kept for it
  const kinds = new Map(
    ids
      .map((id) => final.tensors[id])
      .filter((t) => t.module)
      .map((t) => [t.module, t.moduleType]),
  );
  const labelWidth = (path) => {
    const kind = kinds.get(path);
    return Math.ceil(6 + (kind ? `${path} · ${kind}` : path).length * CHAR_W + 12);
  };
  /** @type {import('./layout.js').BoxIn[]} */
  const boxes = ids.map((id) => {
    const cluster = moduleOf(final.tensors[id]);
    return {
      id,
      ...nodeSize(final.tensors[id], final.ledger[id]),
      cluster,
      clusterLabel: cluster && labelWidth(cluster),
    };
  });
  // room for the gradient each edge will carry: a scalar's is short, a tensor's is cut to LABEL_CHARS
  const room = (t) => labelSize(t && (t.shape || []).length ? `∂ ${'0'.repeat(LABEL_CHARS)}` : gradText(t?.values));
  /** @type {import('./layout.js').EdgeIn[]} */
  const edges = final.edges
    .filter((e) => shown.has(e.from) && shown.has(e.to))
    .map((e) => ({ ...e, label: room(final.tensors[e.from]) }));
  const feeds = new Set(final.edges.map((e) => e.from));
  for (const id of ids) {
    const t = final.tensors[id];
    if (t.isLeaf && t.requiresGrad && (feeds.has(id) || final.ledger[id])) {
      boxes.push({ id: accId(id), ...ACC, below: id });
      edges.push({ id: `${accId(id)}->${id}`, from: accId(id), to: id });
    }
  }
  // made from a tensor of a folded iteration (its tensor event left out): a box for the folded iterations joins it
  for (const id of final.folds.length ? ids : []) {
    final.tensors[id].inputs.forEach((from, index) => {
      if (final.tensors[from]) return;
      boxes.push({ id: foldId(id, index), ...FOLD });
      edges.push({ id: `${foldId(id, index)}->${id}`, from: foldId(id, index), to: id });
    });
  }
  const roots = new Map();
  for (const p of final.passes) if (shown.has(p.root)) roots.set(p.root, p.gradient);
  for (const [root, gradient] of roots) {
    const rows = seedRows(gradient, (final.tensors[root].shape || []).length === 0);
    const chars = Math.max(...rows.map((r) => r.length));
    boxes.push({ id: seedId(root), width: Math.ceil(chars * CHAR_W + 20), height: 42 });
    edges.push({ id: `${root}->${seedId(root)}`, from: root, to: seedId(root) });
  }
  return { boxes, edges };
}
