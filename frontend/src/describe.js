// One sentence per trace event, in PyTorch's words, for the timeline ("what just happened").

import { formatCompact } from './format.js';

/** The kind of an event, for colours: forward, backward, grad, output or error. */
export function kindOf(type) {
  if (type === 'tensor' || type === 'name') return 'forward';
  if (type === 'backward' || type === 'node') return 'backward';
  if (type === 'accumulate' || type === 'grad_reset' || type === 'step') return 'grad';
  return type === 'error' ? 'error' : 'output';
}

const MAX_VALUE = 44; // characters per value in a sentence: big tensors are cut ("[0.1, 0.2, …]")

/**
 * How to call a tensor in a sentence: its variable name, or as PyTorch would print it when it has none
 * (`tensor(4., grad_fn=<PowBackward0>)`).
 * @param {import('./reducer.js').TensorState|undefined} t
 */
export function refer(t) {
  if (!t) return 'a tensor';
  if (t.name) return t.name;
  const values = formatCompact(t.values, 24, t.dtype);
  return t.op ? `tensor(${values}, grad_fn=<${t.op}>)` : `tensor(${values})`;
}

/**
 * @param {import('./reducer.js').TraceEvent & Record<string, any>} e
 * @param {import('./reducer.js').Snapshot} s  The snapshot right after `e` was applied.
 * @returns {{kind: string, text: string}}  kind: "forward" | "backward" | "grad" | "output" | "error"
 */
export function describe(e, s) {
  const v = (values, dtype) => formatCompact(values, MAX_VALUE, dtype);
  const t = (id) => s.tensors[String(id)];
  const label = (id) => refer(t(id));
  switch (e.type) {
    case 'tensor': {
      const x = t(e.id);
      const dtype = x ? x.dtype : undefined;
      const lhs = e.name ? `${e.name} = ` : '';
      if (!e.op) {
        const rg = e.requires_grad ? ', requires_grad=True' : '';
        const what = e.requires_grad ? 'a leaf' : 'a constant: no gradient will reach it';
        return { kind: 'forward', text: `${lhs}tensor(${v(e.values, dtype)}${rg}) — ${what}` };
      }
      const ins = (e.inputs || []).map((id) => t(id)?.name || 'a tensor').join(', ');
      return {
        kind: 'forward',
        text: `${lhs}tensor(${v(e.values, dtype)}, grad_fn=<${e.op}>) — computed from ${ins || 'nothing'}`,
      };
    }
    case 'name':
      return { kind: 'forward', text: `${e.name} = the ${t(e.tensor)?.op ?? 'tensor'} output above` };
    case 'backward': {
      const g = v(e.gradient);
      const rg = e.retain_graph ? ', retain_graph=True' : '';
      return { kind: 'backward', text: `${label(e.root)}.backward(gradient=${g}${rg}) starts the backward pass` };
    }
    case 'node': {
      const outs = (e.grad_inputs || []).map((g) => v(g)).join(', ');
      const of = t(e.tensor)?.name ? ` of ${t(e.tensor)?.name}` : '';
      return {
        kind: 'backward',
        text: `${e.op}${of} ran: grad_output ${v(e.grad_output)} → grad_inputs (${outs})`,
      };
    }
    case 'accumulate': {
      const before = e.before === null || e.before === undefined ? 'None' : v(e.before);
      return {
        kind: 'grad',
        text: `AccumulateGrad: ${label(e.tensor)}.grad = ${before} + ${v(e.delta)} = ${v(e.after)}`,
      };
    }
    case 'grad_reset':
      return e.how === 'zero'
        ? { kind: 'grad', text: `${label(e.tensor)}.grad.zero_() — the buffer is kept, filled with zeros` }
        : { kind: 'grad', text: `${label(e.tensor)}.grad = None — the next backward starts from scratch` };
    case 'step':
      return { kind: 'grad', text: `parameter update (an optimizer step): ${label(e.tensor)} ← ${v(e.after)}` };
    case 'print':
      return { kind: 'output', text: `print → ${String(e.text ?? '').trimEnd()}` };
    case 'warning':
      return { kind: 'output', text: `UserWarning: ${e.message}` };
    case 'truncated':
      return { kind: 'output', text: `Trace cut short: ${e.message}` };
    case 'iteration':
      return { kind: 'output', text: `loop at line ${e.loop}: iteration ${e.index}` };
    case 'folded':
      return {
        kind: 'output',
        text:
          `loop at line ${e.loop}: iterations ${e.first}–${e.last} folded (${e.iterations} iterations, ` +
          `${e.events} graph events left out; their .grad changes, steps and prints are kept)`,
      };
    case 'error':
      return { kind: 'error', text: `${e.error_type}: ${e.message}` };
    default:
      return { kind: 'output', text: e.type };
  }
}
