// The chain rule at one grad_fn node, written out from the trace's own numbers, and one sentence for PyTorch's
// classic autograd errors. Nothing here computes a gradient: grad_output and grad_inputs come from the `node`
// event, and so does the formula (its `formulas`: the engine's template per input, "{grad} · 2·{0}"); scalars
// get the arithmetic (the local derivative is grad_input ÷ grad_output, i.e. what the engine's backward did).

import { formatCompact, formatShape, formatValues, fullValue, plainNumber } from './format.js';
import { alignGrads } from './reducer.js';

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const SUPER = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '-': '⁻', '.': '·' };
const sup = (n) => [...String(n)].map((c) => SUPER[c] ?? c).join('');
const sub = (n) => [...String(n)].map((c) => '₀₁₂₃₄₅₆₇₈₉'[Number(c)] ?? c).join('');
/** A number as a learner writes it: 4, 0.25, -1.5, 8.1857e-06 (PyTorch's digits; not "4." as it prints tensors). */
export const plain = (x) => (isNum(x) ? plainNumber(x) : String(x));
const near = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The local derivative ∂out/∂input as a formula with the trace's values put in, for the common scalar ops.
 * @param {string} op  grad_fn name
 * @param {number} index  which input
 * @param {string[]} names  the inputs' names
 * @param {any[]} values  the inputs' values
 * @param {any} out  the output's value
 * @param {number} local  grad_input ÷ grad_output (from the trace)
 * @returns {string}  e.g. "∂/∂x x² = 2·x = 2·2 = 4"
 */
export function localFormula(op, index, names, values, out, local) {
  const x = names[index];
  const v = values[index];
  const other = values[1 - index];
  const base = op.replace(/Backward\d*$/, '');
  if (base === 'Add') return `∂/∂${x} (${names.join(' + ')}) = 1`;
  if (base === 'Sub') return `∂/∂${x} (${names.join(' − ')}) = ${index === 0 ? 1 : -1}`;
  if (base === 'Mul' && names.length === 2 && isNum(other) && near(other, local)) {
    return `∂/∂${x} (${names.join('·')}) = ${names[1 - index]} = ${plain(other)}`;
  }
  if (base === 'Pow' && isNum(v) && isNum(out) && v !== 0 && out !== 0) {
    const n = (local * v) / out; // y = xⁿ ⇒ dy/dx = n·xⁿ⁻¹ = n·y/x
    if (Number.isInteger(Math.round(n * 1e6) / 1e6)) {
      const k = Math.round(n);
      const rest = k - 1 === 1 ? `·${x}` : k - 1 === 0 ? '' : `·${x}${sup(k - 1)}`;
      const put = k - 1 === 1 ? `·${plain(v)}` : k - 1 === 0 ? '' : `·${plain(v)}${sup(k - 1)}`;
      return `∂/∂${x} ${x}${sup(k)} = ${k}${rest} = ${k}${put} = ${plain(local)}`;
    }
  }
  if (base === 'Neg') return `∂/∂${x} (−${x}) = -1`;
  if (base === 'Div' && names.length === 2 && isNum(other) && index === 0) {
    return `∂/∂${x} (${names[0]} / ${names[1]}) = 1/${names[1]} = 1/${plain(other)} = ${plain(local)}`;
  }
  return `∂${base.toLowerCase()}/∂${x} = ${plain(local)}`;
}

/**
 * @typedef {string|{text: string, full: string}} Part  A piece of a line; a number carries its full value (hover).
 */

/**
 * What a `node` event did, one line per input edge: grad_output → local derivative → grad_input.
 * Scalars get the arithmetic ("∂/∂x x² = 2·x = 2·2 = 4; 4 × 1 = 4"); tensors the engine's formula in the learner's
 * names with the values it used ("grad_x = grad_out · 2·x = [1., 1., 1.] · 2·[1., 2., 3.] = [2., 4., 6.]"), or for
 * matrix products, reductions and broadcasts the rule with its shapes and the first entries of the result.
 * @param {any} e  a `node` event
 * @param {import('./reducer.js').Snapshot} s
 * @returns {{head: string, lines: string[], parts: Part[][]}|null}
 */
export function chainRule(e, s) {
  if (!e || e.type !== 'node') return null;
  const t = s.tensors[String(e.tensor)];
  if (!t) return null;
  const ins = t.inputs.map((id) => s.tensors[id]);
  // an unnamed intermediate is called after the op that made it (mul, pow …), as its graph node is
  const short = (x) => (x ? x.name || (x.op ? x.op.replace(/Backward\d*$/, '').toLowerCase() : `t${x.id}`) : '?');
  const names = ins.map(short).map((n, i, all) => (all.indexOf(n) !== all.lastIndexOf(n) ? `${n}${sub(i + 1)}` : n));
  const grads = alignGrads(t.inputs, e.grad_inputs || []);
  const formulas = e.formulas || [];
  const go = e.grad_output;
  const head = `${e.op}: grad_output ${describeValue(go, t.shape)} → local derivative → grad_inputs`;
  const parts = grads.map((g, i) => {
    if (g === null || g === undefined) return [`${names[i]}: no gradient flows (requires_grad=False)`];
    const scalar = isNum(go) && isNum(g) && go !== 0 && t.shape.length === 0 && (ins[i]?.shape || []).length === 0;
    if (scalar) {
      const local = g / go;
      const formula = localFormula(
        e.op,
        i,
        names,
        ins.map((x) => x?.values),
        t.values,
        local,
      );
      const generic = formula.startsWith(`∂${e.op.replace(/Backward\d*$/, '').toLowerCase()}/`);
      if (!(generic && formulas[i])) {
        return [`${formula}; `, num(local), ' × ', num(go), ' = ', num(g)];
      }
    }
    if (formulas[i]) return templateLine(formulas[i], { i, names, ins, t, go, g, out: short(t) });
    const shape = ins[i]?.shape ?? [];
    return [
      `to ${names[i]}: grad_output ${formatShape(t.shape)} through ${e.op} (∂ ${formatShape(t.shape)} / ∂ ${formatShape(shape)}) = grad_input ${formatShape(shape)} `,
      value(g, 36),
    ];
  });
  return { head, lines: parts.map(joinParts), parts };
}

/** A line's text without its tooltips. */
export const joinParts = (parts) => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');

const num = (x) => ({ text: plain(x), full: String(x) });
// a 0-d value as a learner writes it (4, 0.5), a tensor's as PyTorch prints it ([2., 4., 6.])
const value = (v, max, dtype) => (isNum(v) ? num(v) : { text: formatCompact(v, max, dtype), full: fullValue(v) });
const PLACE = /\{(grad|out|\d+)(\.shape)?\}/g;
const VALUE_CHARS = 30; // longest value written into a formula; longer ones make it a line of shapes

/**
 * One input's line from the engine's template: names, then values (elementwise, when they are short) or shapes.
 * @returns {Part[]}
 */
function templateLine(template, { i, names, ins, t, go, g, out }) {
  const operand = (key) =>
    key === 'grad'
      ? { name: 'grad_out', v: go, shape: t.shape }
      : key === 'out'
        ? { name: out, v: t.values, shape: t.shape }
        : { name: names[Number(key)] ?? '?', v: ins[Number(key)]?.values, shape: ins[Number(key)]?.shape };
  const named = template.replace(PLACE, (_, key, shape) =>
    shape ? formatShape(operand(key).shape) : operand(key).name,
  );
  const lhs = `grad_${names[i]} = ${named}`;
  const target = ins[i]?.shape ?? [];
  const structural = /@|ᵀ/.test(template);
  const used = [...template.matchAll(PLACE)].filter((m) => !m[2]).map((m) => operand(m[1]));
  const short = used.every((o) => o.v !== undefined && formatValues(o.v).length <= VALUE_CHARS);
  /** @type {Part[]} */
  const parts = [lhs];
  if (!structural && short) {
    parts.push(' = ');
    let at = 0;
    for (const m of template.matchAll(PLACE)) {
      parts.push(template.slice(at, m.index));
      const o = operand(m[1]);
      parts.push(m[2] ? formatShape(o.shape) : value(o.v, VALUE_CHARS));
      at = m.index + m[0].length;
    }
    parts.push(template.slice(at), ' = ', value(g, 44));
    return parts;
  }
  const shaped = template.replace(PLACE, (_, key) => formatShape(operand(key).shape));
  parts.push(`: ${shaped} → ${formatShape(target)} = `, value(g, 44));
  return parts;
}

function describeValue(v, shape) {
  const text = formatValues(v);
  const cut = text.length > 36 ? `${text.slice(0, 35)}…` : text;
  return shape && shape.length ? `${formatShape(shape)} ${cut}` : cut;
}

/** One sentence for PyTorch's classic autograd errors (matched on its own message). */
/** @type {[RegExp, string][]} */
const EXPLAIN = [
  [
    /backward through the graph a second time/,
    'The first backward() freed the saved values this graph needed; recompute the forward pass, or pass retain_graph=True to the first backward() to keep them.',
  ],
  [
    /does not require grad and does not have a grad_fn/,
    'No tensor this was computed from has requires_grad=True, so autograd recorded no graph to go back through.',
  ],
  [
    /grad can be implicitly created only for (real )?scalar outputs/,
    'backward() without gradient= only works on a single number; pass gradient= a tensor of the output’s shape (the v in the vector–Jacobian product) or reduce with .sum() first.',
  ],
  [
    /leaf Variable that requires grad is being used in an in-place operation/,
    'Changing a leaf in place would hide the change from autograd; do it inside torch.no_grad() (as optimizers do).',
  ],
  [
    /modified by an inplace operation/,
    'backward() needs a value saved during the forward pass, but an in-place operation changed it afterwards; use an out-of-place operation instead.',
  ],
];

/** @param {{type: string, message: string}|null} error @returns {string|null} */
export function explainError(error) {
  if (!error) return null;
  const hit = EXPLAIN.find(([re]) => re.test(error.message));
  return hit ? hit[1] : null;
}
