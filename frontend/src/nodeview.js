// What a graph node says (rows of text) and how big its box is: pure data, shared by layout and drawing.

import { formatCompact, formatShape, formatValues, tensorLabel } from './format.js';
import { heatSize } from './heatmap.js';

export const CHAR_W = 7.25; // px per character of the 12px monospace font used in nodes
export const ROW_H = 17;
export const PAD_X = 10;
export const PAD_Y = 7;
export const MIN_CHARS = 14;
export const MAX_CHARS = 30;
export const GRAPH_CELL = 4; // px per element of a tensor drawn as a heatmap in its node

/** A node's values as a heatmap (big tensors), or null: then they are a row of text. */
export const nodeHeat = (t) => heatSize(t.values, GRAPH_CELL);
/** Extra height the heatmap takes over the text row it replaces. */
export const heatExtra = (heat) => (heat ? heat.height + 6 - ROW_H : 0);

/**
 * @typedef {{text: string, cls: string}} Row
 */

/**
 * The rows of a tensor's box: title, kind and shape, values, and `.grad` for leaves that require grad.
 * @param {import('./reducer.js').TensorState} t
 * @param {number} [maxChars]
 * @returns {Row[]}
 */
export function nodeRows(t, maxChars = MAX_CHARS) {
  const shape = `${formatShape(t.shape)} ${t.dtype}`;
  const rows = [];
  if (t.op) {
    rows.push({ text: t.op, cls: 'title' });
    rows.push({ text: t.name ? `${t.name} · ${shape}` : shape, cls: 'sub' });
  } else {
    rows.push({ text: tensorLabel(t), cls: 'title' });
    rows.push({ text: `${t.requiresGrad ? 'leaf' : 'constant'} · ${shape}`, cls: 'sub' });
  }
  rows.push({ text: formatCompact(t.values, maxChars, t.dtype), cls: 'value' });
  if (t.isLeaf && t.requiresGrad)
    rows.push({ text: `.grad ${formatCompact(t.grad, maxChars - 6, t.dtype)}`, cls: 'grad' });
  return rows;
}

/**
 * The tensors that belong in the autograd graph: those that require grad, and any tensor an edge touches.
 * A constant nothing is computed from (a batch of data, say) stays out of the picture.
 * @param {import('./reducer.js').Snapshot} s
 * @returns {string[]}
 */
export function graphNodeIds(s) {
  const touched = new Set(s.edges.flatMap((e) => [e.from, e.to]));
  return s.order.filter((id) => s.tensors[id].requiresGrad || touched.has(id));
}

export const MAX_GRAPH_NODES = 1000; // past this, a window of the most recent nodes

/**
 * A training loop: the backward() line called most often, if it ran at least 3 times, with where each of its
 * iterations begins (the seq of the first tensor made after the previous backward of that line).
 * @param {import('./reducer.js').Snapshot} final
 * @returns {{starts: number[], numbers: number[], of: number, passSeqs: number[]}|null}  starts[i]: the first seq of the i-th iteration
 *   whose graph the trace holds; numbers[i]: which iteration that is (1-based, counting the folded ones, whose graphs
 *   were left out but whose backward() calls were kept); of: how many iterations (backward() calls of that line).
 */
export function loopIterations(final) {
  if (!loops.has(final)) loops.set(final, findLoop(final));
  return loops.get(final);
}
const loops = new WeakMap(); // per final snapshot: a streamed run asks on every frame

function findLoop(final) {
  const count = new Map();
  for (const p of final.passes) count.set(p.line, (count.get(p.line) || 0) + 1);
  const [line, n] = [...count].sort((a, b) => b[1] - a[1])[0] || [null, 0];
  if (n < 3) return null;
  const passes = final.passes.filter((p) => p.line === line);
  // an iteration begins with its first grad_fn (an optimizer's update of the last one makes only constants)
  const seqs = graphNodeIds(final)
    .filter((id) => final.tensors[id].op)
    .map((id) => final.tensors[id].seq);
  const starts = [0];
  let j = 0; // passes and tensors are both in seq order: one sweep
  for (const p of passes.slice(0, -1)) {
    while (j < seqs.length && seqs[j] <= p.seq) j++;
    if (j < seqs.length && seqs[j] > starts[starts.length - 1]) starts.push(seqs[j]);
  }
  // an iteration's number: 1 + the backward() calls of the loop's line before it began
  let before = 0;
  const numbers = starts.map((s) => {
    while (before < passes.length && passes[before].seq < s) before++;
    return before + 1;
  });
  return { starts, numbers, of: passes.length, passSeqs: passes.map((p) => p.seq) };
}

/**
 * Which graph nodes to draw for step k. A training loop builds a new graph every iteration: show the current
 * iteration's (and the leaves it uses: the parameters). Otherwise all of them, or for very big graphs the `max`
 * most recent nodes at step k plus the leaves feeding them.
 * @param {import('./reducer.js').Snapshot} final
 * @param {import('./reducer.js').Snapshot} snap
 * @param {number} [max]
 * @returns {{ids: string[], start: number, end: number, total: number, key: string, iteration?: number, of?: number,
 *   folded?: number}}  iteration: the number of the loop iteration shown (1-based) of `of`; folded: the iteration the
 *   step is in when its graph was folded out of the trace.
 */
export function graphWindow(final, snap, max = MAX_GRAPH_NODES) {
  const all = graphNodeIds(final);
  const withFeeders = (picked) => {
    const feeding = new Set(
      final.edges.filter((e) => picked.has(e.to) && final.tensors[e.from].isLeaf).map((e) => e.from),
    );
    return all.filter((id) => picked.has(id) || feeding.has(id));
  };
  const loop = loopIterations(final);
  if (loop) {
    const { starts, numbers, of, passSeqs } = loop;
    const at = snap.event ? snap.event.seq : 0;
    let i = 0;
    while (i + 1 < starts.length && starts[i + 1] <= at) i++;
    const end = i + 1 < starts.length ? starts[i + 1] : Infinity;
    // past a backward() of the loop after the shown iteration's own, the step is in a folded iteration (it has no
    // graph: the view shows the last one traced before it)
    const begun = passSeqs.filter((s) => s <= at).length;
    const current = begun > numbers[i] ? { folded: begun } : {};
    const picked = new Set(all.filter((id) => final.tensors[id].seq >= starts[i] && final.tensors[id].seq < end));
    const ids = withFeeders(picked);
    return { ids, start: 0, end: ids.length, total: all.length, key: `it${i}`, iteration: numbers[i], of, ...current };
  }
  if (all.length <= max) return { ids: all, start: 0, end: all.length, total: all.length, key: 'all' };
  const existing = all.filter((id) => id in snap.tensors).length;
  const jump = Math.max(1, Math.floor(max / 2)); // the window moves in jumps, so the layout stays put in between
  const end = Math.min(all.length, Math.max(max, Math.ceil(existing / jump) * jump));
  const start = end - max;
  const ids = withFeeders(new Set(all.slice(start, end)));
  return { ids, start, end, total: all.length, key: `${start}:${end}` };
}

/**
 * What the note over the graph says about the window shown: a loop's iteration (counted from 1 here and from 0 in
 * the folding note, as range() counts: the index says which), or the part of a big graph.
 * @param {ReturnType<typeof graphWindow>} view
 * @param {boolean} folds  the run has folded loop iterations
 */
export function windowNote(view, folds) {
  const index = ` (index ${view.iteration - 1})`;
  if (view.folded)
    return `Iteration ${view.folded} of ${view.of}: folded, its graph is not in the trace; showing iteration ${view.iteration}'s${index}.`;
  if (view.iteration)
    return `Iteration ${view.iteration} of ${view.of}: each pass through the loop builds a new graph; this is the current one${folds ? index : ''}.`;
  return `Showing tensors ${view.start + 1}–${view.end} of ${view.total} (and the leaves they use): the window follows the current step.`;
}

/** Longest row in characters, clamped to [MIN_CHARS, MAX_CHARS]. */
export function rowChars(rows) {
  const longest = Math.max(0, ...rows.map((r) => r.text.length));
  return Math.max(MIN_CHARS, Math.min(MAX_CHARS, longest));
}

/**
 * Box size for a tensor, wide enough for its rows now and for every `.grad` its ledger will show, so the
 * layout stays put while the learner steps through time.
 * @param {import('./reducer.js').TensorState} t
 * @param {import('./reducer.js').LedgerEntry[]} [history]
 */
export function nodeSize(t, history = []) {
  const rows = nodeRows(t);
  let chars = rowChars(rows);
  for (const h of history) {
    chars = Math.max(chars, Math.min(MAX_CHARS, `.grad ${formatCompact(h.after, MAX_CHARS - 6, t.dtype)}`.length));
  }
  const heat = nodeHeat(t);
  const width = Math.max(Math.ceil(chars * CHAR_W + 2 * PAD_X), heat ? heat.width + 2 * PAD_X : 0);
  return { width, height: rows.length * ROW_H + 2 * PAD_Y + heatExtra(heat) };
}

/** Cut `text` to fit `chars` characters. */
export function fit(text, chars) {
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}

/** The full story of a node, for its tooltip. */
export function nodeTooltip(t) {
  const lines = [
    `${tensorLabel(t)}${t.op ? ` (grad_fn=<${t.op}>)` : t.requiresGrad ? ' (leaf, requires_grad=True)' : ''}`,
    `shape ${formatShape(t.shape)}, ${t.dtype}${t.line ? `, line ${t.line}` : ''}`,
    `values ${formatValues(t.values, t.dtype)}`,
  ];
  if (t.isLeaf && t.requiresGrad) lines.push(`.grad ${formatValues(t.grad, t.dtype)}`);
  return lines.join('\n');
}
