import { expect, it } from 'vitest';
import { jump } from '../src/jumps.js';

const ev = (type) => ({ type });
const events = [
  ev('iteration'),
  ev('backward'),
  ev('node'),
  ev('accumulate'),
  ev('step'),
  ev('step'),
  ev('grad_reset'),
  ev('backward'),
];

it('jumps to the next and previous backward(), optimizer.step() and .grad change', () => {
  expect(jump(events, 0, 'backward', 1)).toBe(2);
  expect(jump(events, 2, 'backward', 1)).toBe(8);
  expect(jump(events, 8, 'backward', 1)).toBeNull();
  expect(jump(events, 8, 'backward', -1)).toBe(2);
  expect(jump(events, 2, 'backward', -1)).toBeNull();
  expect(jump(events, 0, 'step', 1)).toBe(5); // the first of the step's events
  expect(jump(events, 5, 'step', 1)).toBeNull(); // its second parameter is the same step
  expect(jump(events, 4, 'grad', 1)).toBe(7);
  expect(jump(events, 7, 'grad', -1)).toBe(4);
});

it('jumps to the next and previous loop iteration traced in full', () => {
  const loop = [
    ev('iteration'),
    ev('tensor'),
    ev('backward'),
    ev('folded'),
    ev('backward'),
    ev('iteration'),
    ev('tensor'),
  ];
  expect(jump(loop, 0, 'iteration', 1)).toBe(1);
  expect(jump(loop, 1, 'iteration', 1)).toBe(6); // the folded iterations have no graph: the next one shown
  expect(jump(loop, 7, 'iteration', -1)).toBe(6);
  expect(jump(loop, 6, 'iteration', -1)).toBe(1);
  expect(jump(loop, 1, 'iteration', -1)).toBeNull();
  // with grad_fns: each jump lands on the iteration's first one (its graph), and back from there to the one before
  const op = { type: 'tensor', op: 'MulBackward0' };
  const ops = [ev('iteration'), ev('tensor'), op, ev('backward'), ev('iteration'), op, op, ev('backward')];
  expect(jump(ops, 0, 'iteration', 1)).toBe(3);
  expect(jump(ops, 3, 'iteration', 1)).toBe(6);
  expect(jump(ops, 6, 'iteration', 1)).toBeNull();
  expect(jump(ops, 6, 'iteration', -1)).toBe(3);
  expect(jump(ops, 5, 'iteration', -1)).toBe(3); // from the iteration event itself, back to the one before
  expect(jump(ops, 3, 'iteration', -1)).toBeNull();
});
