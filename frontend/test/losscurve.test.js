import { expect, it, vi } from 'vitest';

vi.mock('uplot', () => ({ default: class {} }));
vi.mock('uplot/dist/uPlot.min.css', () => ({}));
const { lossSeries } = await import('../src/losscurve.js');
const { snapshotAt } = await import('../src/reducer.js');
const { fixture } = await import('./fixtures.js');

const final = (name) => {
  const events = fixture(name).events;
  return snapshotAt(events, events.length);
};

it('draws the loss of a training loop: the scalar root of the backward() line called again and again', () => {
  const [xs, ys] = lossSeries(final('gradient_accumulation'));
  expect(xs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(ys).toHaveLength(8);
  expect(ys.every((y) => typeof y === 'number')).toBe(true);
});

it('draws nothing for backward calls on different lines (lesson 2 is no training loop)', () => {
  expect(lossSeries(final('accumulation'))).toEqual([[], []]);
  expect(lossSeries(final('scalar_backward'))).toEqual([[], []]);
});
