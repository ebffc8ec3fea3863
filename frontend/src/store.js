// State of the current run: its events as they arrive, how it ended, and memoized snapshots. No DOM.

import { snapshotAt } from './reducer.js';

/**
 * @typedef {{type: string, message: string, line: number|null}} RunError
 * @typedef {'idle'|'running'|'done'|'failed'} RunStatus
 */

export function createStore() {
  /** @type {any[]} */
  let events = [];
  /** @type {{stdout: string, error: RunError|null, seed: number|null}|null} */
  let end = null;
  /** @type {RunError|null} A failure of the request itself (network, refusal), not of the program. */
  let failure = null;
  /** @type {RunStatus} */
  let status = 'idle';
  let finalCache = { n: -1, snap: snapshotAt([], 0) };
  let atCache = { n: -1, k: -1, snap: finalCache.snap };

  const store = {
    get events() {
      return events;
    },
    get status() {
      return status;
    },
    get seed() {
      return end?.seed ?? null;
    },
    /** A new run begins: forget the last one. */
    start() {
      events = [];
      end = null;
      failure = null;
      status = 'running';
    },
    /** @param {any} e */
    push(e) {
      events.push(e);
    },
    /** @param {{stdout: string, error: RunError|null, seed: number|null}} result */
    finish(result) {
      end = result;
      status = 'done';
    },
    /** @param {Error} err */
    fail(err) {
      failure = {
        type: err.name === 'RequestError' ? 'RequestError' : 'NetworkError',
        message: err.message,
        line: null,
      };
      status = 'failed';
    },
    /** The snapshot after every event received so far (it fixes the graph layout and the whole ledger). */
    final() {
      if (finalCache.n !== events.length) finalCache = { n: events.length, snap: snapshotAt(events, events.length) };
      return finalCache.snap;
    },
    /** @param {number} k */
    at(k) {
      if (k >= events.length) return store.final();
      if (atCache.n !== events.length || atCache.k !== k)
        atCache = { n: events.length, k, snap: snapshotAt(events, k) };
      return atCache.snap;
    },
    /**
     * What the output panel shows at step k: the trace's stdout and error so far, and at the end of a finished
     * run the server's own stdout and error (they are the authority, e.g. for prints the trace didn't carry).
     * @param {number} k
     * @returns {{stdout: string, error: RunError|null, warnings: string[], truncated: string|null, folds: import('./reducer.js').Snapshot["folds"]}}
     */
    outputAt(k) {
      const snap = store.at(k);
      const { warnings, truncated, folds } = snap;
      if (failure) return { stdout: snap.stdout, error: failure, warnings, truncated, folds };
      if (end && k >= events.length) {
        return { stdout: end.stdout || snap.stdout, error: end.error ?? snap.error, warnings, truncated, folds };
      }
      return { stdout: snap.stdout, error: snap.error, warnings, truncated, folds };
    },
  };
  return store;
}
