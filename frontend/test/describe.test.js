import { expect, it } from 'vitest';
import { describe as say } from '../src/describe.js';
import { snapshotAt } from '../src/reducer.js';
import { fixture } from './fixtures.js';

it('tells each lesson-2 step in PyTorch words', () => {
  const events = fixture('accumulation').events;
  const at = (k) => say(events[k - 1], snapshotAt(events, k)).text;
  expect(at(1)).toBe('x = tensor(2., requires_grad=True) — a leaf');
  expect(at(2)).toBe('tensor(4., grad_fn=<PowBackward0>) — computed from x');
  expect(at(3)).toBe('tensor(4., grad_fn=<PowBackward0>).backward(gradient=1.) starts the backward pass');
  expect(at(4)).toBe('PowBackward0 ran: grad_output 1. → grad_inputs (4.)');
  expect(at(5)).toBe('AccumulateGrad: x.grad = None + 4. = 4.');
  expect(at(10)).toBe('AccumulateGrad: x.grad = 4. + 12. = 16.');
  expect(at(12)).toContain('x.grad = None');
});

it('names tensors by their variable when they have one', () => {
  const events = fixture('scalar_backward').events;
  const at = (k) => say(events[k - 1], snapshotAt(events, k)).text;
  expect(at(4)).toBe('y = the SumBackward0 output above');
  expect(at(5)).toBe('y.backward(gradient=1.) starts the backward pass');
  expect(at(6)).toBe('SumBackward0 of y ran: grad_output 1. → grad_inputs ([1., 1., 1.])');
});
