import { expect, it } from 'vitest';
import { jump } from '../src/jumps.js';

const ev = (type) => ({ type });
const events = [
  ev('tensor'),
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
