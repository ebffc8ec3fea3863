import { expect, it } from 'vitest';
import { batches } from '../src/ledger.js';

it('names the backward calls whose gradients an optimizer step used', () => {
  expect(batches([])).toBe('');
  expect(batches([3])).toBe('using .grad of backward #3');
  expect(batches([1, 2, 3, 4])).toBe('using .grad summed over backward #1–#4 (4 mini-batches)');
  expect(batches([2, 5])).toBe('using .grad summed over backward #2, #5 (2 mini-batches)');
});
