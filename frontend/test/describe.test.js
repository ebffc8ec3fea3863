import { expect, it } from 'vitest';
import { describe as say } from '../src/describe.js';
import { snapshotAt } from '../src/reducer.js';
import { fixture } from './fixtures.js';

it('tells each lesson-2 step in PyTorch words', () => {
  const events = fixture('accumulation').events;
  const at = (k) => say(events[k - 1], snapshotAt(events, k)).text;
  expect(at(1)).toBe('x = tensor(2., requires_grad=True) — a leaf');
  expect(at(2)).toContain('grad_fn=<PowBackward0>');
  expect(at(3)).toContain('.backward(gradient=1.)');
  expect(at(4)).toBe('PowBackward0 of t1 ran: grad_output 1. → grad_inputs (4.)');
  expect(at(5)).toBe('AccumulateGrad: x.grad = None + 4. = 4.');
  expect(at(10)).toBe('AccumulateGrad: x.grad = 4. + 12. = 16.');
  expect(at(12)).toContain('x.grad = None');
});
