// Time: the current step k of the trace, stepping and playing. The only module that owns timers.

/**
 * @typedef {object} Player
 * @property {() => number} position
 * @property {() => number} length
 * @property {() => boolean} playing
 * @property {(n: number, opts?: {follow?: boolean, live?: boolean}) => void} setLength  New event count; `follow` keeps k at
 *   the end; `live` (events still streaming in) catches up a few times a second rather than at every event.
 * @property {(k: number) => void} seek
 * @property {() => void} next
 * @property {() => void} prev
 * @property {() => void} play
 * @property {() => void} pause
 * @property {() => void} toggle
 * @property {(fn: () => void) => void} onChange  Called (at most once per animation frame) when anything changed.
 * @property {(x: number) => void} setSpeed  Playback speed: 1 = the pace of `pace()`, 2 = twice as fast.
 * @property {() => number} speed
 */

/**
 * How playback moves at 1×: a step every `intervalMs` at most, and a whole run in about `wholeRunMs` (a
 * 2,000-event loop plays in 20 s, not 24 minutes). Faster than a frame, several steps per tick.
 * @returns {{every: number, by: number}}  ms between ticks, steps per tick
 */
export function pace(n, speed, intervalMs = 700, wholeRunMs = 20_000) {
  const per = Math.min(intervalMs, wholeRunMs / Math.max(1, n)) / speed;
  const every = Math.max(16, per);
  return { every, by: Math.max(1, Math.round(every / per)) };
}

/** Runs `fn` at the next animation frame (or soon, where there are none): for work spread over frames. */
export const nextFrame = (fn) =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(fn) : setTimeout(fn, 0);

const LIVE_AT_ONCE = 200; // events of a streaming run shown as they arrive; past them, a catch-up every
const LIVE_EVERY_MS = 250;

/**
 * @param {{intervalMs?: number, wholeRunMs?: number}} [opts]
 * @returns {Player}
 */
export function createPlayer({ intervalMs = 700, wholeRunMs = 20_000 } = {}) {
  let k = 0;
  let n = 0;
  let speed = 1;
  /** @type {ReturnType<typeof setInterval>|null} */
  let timer = null;
  let frame = 0;
  /** @type {ReturnType<typeof setTimeout>|null} */
  let liveTimer = null;
  /** @type {number|null} */
  let pendingLength = null;
  /** @type {(() => void)[]} */
  const listeners = [];

  // Coalesce bursts (a streamed run delivers many events per frame) into one redraw per frame.
  const changed = () => {
    if (frame) return;
    const flush = () => {
      frame = 0;
      for (const fn of listeners) fn();
    };
    frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(flush) : setTimeout(flush, 0);
  };

  const stopTimer = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };

  const player = {
    position: () => k,
    length: () => n,
    playing: () => timer !== null,
    setLength(len, { follow = false, live = false } = {}) {
      // While a long run streams in, the page catches up a few times a second, not at every frame: each redraw
      // replays the trace so far, and the browser must leave the CPU to the run (26,000 events of a 2,000-step loop).
      if (live && len > LIVE_AT_ONCE) {
        pendingLength = len;
        if (!liveTimer)
          liveTimer = setTimeout(() => {
            liveTimer = null;
            if (pendingLength !== null) player.setLength(pendingLength, { follow: true });
          }, LIVE_EVERY_MS);
        return;
      }
      if (liveTimer) clearTimeout(liveTimer);
      liveTimer = null;
      pendingLength = null;
      const atEnd = k === n;
      n = Math.max(0, len);
      if (follow && atEnd) k = n;
      k = Math.min(k, n);
      changed();
    },
    seek(to) {
      const next = Math.max(0, Math.min(n, Math.round(to)));
      if (next !== k) {
        k = next;
        changed();
      }
    },
    next: () => player.seek(k + 1),
    prev: () => player.seek(k - 1),
    play() {
      if (timer !== null || n === 0) return;
      if (k >= n) k = 0; // replay from the start
      const { every, by } = pace(n, speed, intervalMs, wholeRunMs);
      // by the clock, not by ticks: a tick delayed by a slow redraw catches up, so the run keeps its pace
      const k0 = k;
      const t0 = Date.now();
      timer = setInterval(() => {
        if (k >= n) player.pause();
        else player.seek(Math.max(k + 1, k0 + Math.floor(((Date.now() - t0) / every) * by)));
      }, every);
      changed();
    },
    setSpeed(x) {
      speed = Math.max(0.1, Number(x) || 1);
      if (timer !== null) {
        stopTimer();
        player.play();
      }
      changed();
    },
    speed: () => speed,
    pause() {
      stopTimer();
      changed();
    },
    toggle: () => (timer === null ? player.play() : player.pause()),
    onChange(fn) {
      listeners.push(fn);
    },
  };
  return player;
}
