// One sentence per trace event, in PyTorch's words, for the timeline ("what just happened").

import { formatValues, tensorLabel } from './format.js';

/**
 * @param {import('./reducer.js').TraceEvent & Record<string, any>} e
 * @param {import('./reducer.js').Snapshot} s  The snapshot right after `e` was applied.
 * @returns {{kind: string, text: string}}  kind: "forward" | "backward" | "grad" | "output" | "error"
 */
export function describe(e, s) {
  const t = (id) => s.tensors[String(id)];
  const label = (id) => tensorLabel(t(id));
  switch (e.type) {
    case 'tensor': {
      const x = t(e.id);
      const dtype = x ? x.dtype : undefined;
      if (!e.op) {
        const rg = e.requires_grad ? ', requires_grad=True' : '';
        return { kind: 'forward', text: `${label(e.id)} = tensor(${formatValues(e.values, dtype)}${rg}) — a leaf` };
      }
      const ins = (e.inputs || []).map(label).join(', ');
      return {
        kind: 'forward',
        text: `${label(e.id)} = ${formatValues(e.values, dtype)}  (grad_fn=<${e.op}>, from ${ins || 'no inputs'})`,
      };
    }
    case 'name':
      return { kind: 'forward', text: `tensor t${e.tensor} is now called ${e.name}` };
    case 'backward': {
      const g = formatValues(e.gradient);
      const rg = e.retain_graph ? ', retain_graph=True' : '';
      return { kind: 'backward', text: `${label(e.root)}.backward(gradient=${g}${rg}) starts the backward pass` };
    }
    case 'node': {
      const outs = (e.grad_inputs || []).map((g) => formatValues(g)).join(', ');
      return {
        kind: 'backward',
        text: `${e.op} of ${label(e.tensor)} ran: grad_output ${formatValues(e.grad_output)} → grad_inputs (${outs})`,
      };
    }
    case 'accumulate': {
      const before = e.before === null || e.before === undefined ? 'None' : formatValues(e.before);
      return {
        kind: 'grad',
        text: `AccumulateGrad: ${label(e.tensor)}.grad = ${before} + ${formatValues(e.delta)} = ${formatValues(e.after)}`,
      };
    }
    case 'grad_reset':
      return e.how === 'zero'
        ? { kind: 'grad', text: `${label(e.tensor)}.grad.zero_() — the buffer is kept, filled with zeros` }
        : { kind: 'grad', text: `${label(e.tensor)}.grad = None — the next backward starts from scratch` };
    case 'step':
      return { kind: 'grad', text: `optimizer.step() updated ${label(e.tensor)}: ${formatValues(e.after)}` };
    case 'print':
      return { kind: 'output', text: `print → ${String(e.text ?? '').trimEnd()}` };
    case 'warning':
      return { kind: 'output', text: `UserWarning: ${e.message}` };
    case 'error':
      return { kind: 'error', text: `${e.error_type}: ${e.message}` };
    default:
      return { kind: 'output', text: e.type };
  }
}
