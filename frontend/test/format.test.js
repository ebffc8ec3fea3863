import { describe, expect, it } from 'vitest';
import { formatCompact, formatShape, formatTensor, formatValues } from '../src/format.js';

describe('formatValues', () => {
  it('writes whole floats like PyTorch', () => {
    expect(formatValues(4)).toBe('4.');
    expect(formatValues([2, 4, 6])).toBe('[2., 4., 6.]');
    expect(formatTensor([2, 4, 6])).toBe('tensor([2., 4., 6.])');
    expect(formatTensor(16)).toBe('tensor(16.)');
  });
  it('uses 4 decimals for fractions and scientific notation for extremes', () => {
    expect(formatValues([0.25, 1])).toBe('[0.2500, 1.0000]');
    expect(formatValues(0.00001)).toBe('1.0000e-05');
  });
  it('writes None, integers, nan and inf', () => {
    expect(formatValues(null)).toBe('None');
    expect(formatValues([1, 2], 'int64')).toBe('[1, 2]');
    expect(formatValues(['nan', 'inf', '-inf', 1])).toBe('[nan, inf, -inf, 1.]');
  });
  it('summarizes large tensors', () => {
    const v = { summarized: true, shape: [100, 20], min: -1.5, max: 2, mean: 0.25, first: [0.1] };
    expect(formatValues(v)).toBe('[100×20] min -1.5000 max 2.0000 mean 0.2500');
  });
});

describe('formatCompact', () => {
  it('keeps short values and cuts long ones', () => {
    expect(formatCompact([2, 4, 6], 20)).toBe('[2., 4., 6.]');
    const long = formatCompact(
      [
        [1, 2, 3, 4, 5],
        [6, 7, 8, 9, 10],
      ],
      20,
    );
    expect(long.length).toBeLessThanOrEqual(20);
    expect(long).toMatch(/^\[1\., 2\., .*…\]$/);
  });
});

it('formatShape', () => {
  expect(formatShape([])).toBe('[]');
  expect(formatShape([16, 10])).toBe('[16, 10]');
});
