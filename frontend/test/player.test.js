import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createPlayer, pace } from '../src/player.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('steps within [0, length] and follows a growing trace when at its end', () => {
  const p = createPlayer();
  p.setLength(3, { follow: true });
  expect(p.position()).toBe(3);
  p.prev();
  p.setLength(5, { follow: true }); // not at the end: stays put
  expect(p.position()).toBe(2);
  p.seek(99);
  expect(p.position()).toBe(5);
  p.seek(-1);
  expect(p.position()).toBe(0);
  p.next();
  expect(p.position()).toBe(1);
  p.setLength(0);
  expect(p.position()).toBe(0);
});

it('plays one step per interval, from the start when at the end, and stops at the end', () => {
  const p = createPlayer({ intervalMs: 100 });
  p.setLength(3, { follow: true });
  p.play();
  expect(p.position()).toBe(0);
  expect(p.playing()).toBe(true);
  vi.advanceTimersByTime(300);
  expect(p.position()).toBe(3);
  vi.advanceTimersByTime(100);
  expect(p.playing()).toBe(false);
});

it('tells listeners once per burst of changes', () => {
  const p = createPlayer();
  const seen = vi.fn();
  p.onChange(seen);
  p.setLength(10);
  p.seek(4);
  p.next();
  vi.runOnlyPendingTimers();
  expect(seen).toHaveBeenCalledTimes(1);
});

it('plays a whole run in about 20 s at 1×, however long, and never slower than a step per interval', () => {
  expect(pace(10, 1)).toEqual({ every: 700, by: 1 }); // a lesson: 0.7 s a step
  expect(pace(1000, 1)).toEqual({ every: 20, by: 1 });
  const long = pace(10_000, 1); // 2 ms a step: several steps per 16 ms tick
  expect(long.every).toBe(16);
  expect(long.by).toBe(8);
  expect((10_000 / long.by) * long.every).toBeCloseTo(20_000, -3);
  expect(pace(1000, 2).every).toBe(16); // 2×: 10 ms a step, so a step or two per frame-sized tick
  const p = createPlayer();
  p.setLength(5000);
  p.play();
  vi.advanceTimersByTime(20_000);
  expect(p.position()).toBe(5000);
  expect(p.playing()).toBe(true); // it stops on the tick after the end
  vi.advanceTimersByTime(16);
  expect(p.playing()).toBe(false);
});

it('keeps its pace by the clock when a redraw delays the ticks', () => {
  const p = createPlayer();
  p.setLength(5000);
  p.play();
  vi.setSystemTime(Date.now() + 10_000); // 10 s pass in one slow frame
  vi.advanceTimersByTime(16);
  expect(p.position()).toBeGreaterThanOrEqual(2400); // half the run, not one tick's worth
  expect(p.position()).toBeLessThanOrEqual(2600);
});
