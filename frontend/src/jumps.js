// Jumps along the timeline to the events a learner looks for: the previous/next backward() call, loop iteration
// (one traced in full: a folded iteration has no graph to show), optimizer.step() and .grad change. Pure: events and a position k (the number of events applied) in, a position out.

/** What each jump stops at. An optimizer.step() writes a `step` event per parameter: it stops at the first. */
export const JUMPS = {
  backward: { label: 'backward()', is: (e) => e.type === 'backward' },
  // an iteration's jump lands on its first grad_fn (where the panel shows that iteration's graph), if it has one
  iteration: { label: 'iteration', is: (e) => e.type === 'iteration', settle: (e) => e.type === 'tensor' && e.op },
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
  const { is, settle } = /** @type {{is: Function, settle?: Function}} */ (JUMPS[kind]);
  // the position a match at i leads to: just after it, or after the first event `settle` accepts before the next match
  const target = (i) => {
    for (let j = i + 1; settle && j < events.length && !is(events[j], events[j - 1]); j++) {
      if (settle(events[j])) return j + 1;
    }
    return i + 1;
  };
  for (let i = dir > 0 ? k : k - 1; i >= 0 && i < events.length; i += dir) {
    if (is(events[i], events[i - 1]) && (dir > 0 ? target(i) > k : target(i) < k)) return target(i);
  }
  return null;
}
