// Jumps along the timeline to the events a learner looks for: the previous/next backward() call, optimizer.step()
// and .grad change. Pure: events and a position k (the number of events applied) in, a position out.

/** What each jump stops at. An optimizer.step() writes a `step` event per parameter: it stops at the first. */
export const JUMPS = {
  backward: { label: 'backward()', is: (e) => e.type === 'backward' },
  step: { label: 'optimizer.step()', is: (e, prev) => e.type === 'step' && prev?.type !== 'step' },
  grad: { label: '.grad change', is: (e) => e.type === 'accumulate' || e.type === 'grad_reset' },
};

/**
 * The position showing the next (dir 1) or previous (dir -1) event of `kind`, or null if there is none.
 * @param {any[]} events
 * @param {number} k  current position (events[k - 1] is the current event)
 * @param {keyof typeof JUMPS} kind
 * @param {1|-1} dir
 * @returns {number|null}
 */
export function jump(events, k, kind, dir) {
  const { is } = JUMPS[kind];
  for (let i = dir > 0 ? k : k - 2; i >= 0 && i < events.length; i += dir) {
    if (is(events[i], events[i - 1])) return i + 1;
  }
  return null;
}
