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

it('knows the backward() event behind each point (a click moves the timeline there) and ticks a log axis at 1, 2, 5', async () => {
  const { passSeq, logTicks, tickLabel, MAX_LOG_TICKS } = await import('../src/losscurve.js');
  const f = final('gradient_accumulation');
  const [xs] = lossSeries(f);
  expect(passSeq(xs, 0)).toBe(f.passes[0].seq);
  expect(passSeq(xs, 7)).toBe(f.passes[7].seq);
  expect(logTicks(null, 1, 0.03, 12)).toEqual([0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10]);
  // 1e-12 … 1e1: 14 powers of ten, too many to label in 160 px: every 3rd, with 1 among them
  expect(logTicks(null, 1, 1e-12, 10)).toEqual([1e-12, 1e-9, 1e-6, 0.001, 1]);
  expect(logTicks(null, 1, 9e-13, 40).map(tickLabel)).toEqual(['1e-12', '1e-9', '1e-6', '0.001', '1']);
  expect(logTicks(null, 1, 1e-3, 1e3).length).toBeLessThanOrEqual(MAX_LOG_TICKS);
  expect([5e-7, 0.02, 100, 1e6].map(tickLabel)).toEqual(['5e-7', '0.02', '100', '1e6']);
});
