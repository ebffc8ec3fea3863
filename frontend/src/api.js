// The only module that knows the server's URLs (HTTP contract in docs/HTTP.md).

import { createParser } from 'eventsource-parser';

/** API root: '' (same origin) unless the page sets <meta name="gradtrace-api" content="https://…">. */
function apiRoot() {
  const meta = typeof document !== 'undefined' ? document.querySelector('meta[name="gradtrace-api"]') : null;
  return (meta?.getAttribute('content') || '').replace(/\/$/, '');
}

/** The API root set by the embed script (its own origin), else the page's meta tag, else same origin. */
let configuredRoot = /** @type {string|null} */ (null);
/** @param {string} root e.g. 'https://gradtrace.example' (no trailing slash needed) */
export function setApiRoot(root) {
  configuredRoot = root.replace(/\/$/, '');
}

const url = (path) => `${configuredRoot ?? apiRoot()}${path}`;

/**
 * @typedef {{type: string, message: string, line: number|null}} RunError
 * @typedef {{stdout: string, error: RunError|null, seed: number|null}} RunEnd
 */

/** A request the server refused or that never reached it; shown in the error panel like a program error. */
export class RequestError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RequestError';
  }
}

/** The server could not be reached at all (down, offline, blocked): a sentence a learner can act on. */
export class ServerUnreachable extends RequestError {
  constructor() {
    super(
      `The gradtrace server (${configuredRoot || apiRoot() || location.origin}) can't be reached: it may be down, or you are offline.`,
    );
    this.name = 'ServerUnreachable';
  }
}

/** fetch, with a network failure (never an HTTP status) turned into ServerUnreachable. */
async function reach(input, init) {
  try {
    return await fetch(input, init);
  } catch (err) {
    if (init?.signal?.aborted) throw err;
    throw new ServerUnreachable();
  }
}

/** The streaming route isn't there (older server): fall back to the batch route. */
class StreamUnavailable extends Error {}

async function refusal(res) {
  let detail = `${res.status} ${res.statusText}`.trim();
  try {
    const body = await res.json();
    const d = body?.detail ?? body?.error ?? body;
    if (typeof d === 'string') detail = d;
    else if (Array.isArray(d)) detail = d.map((x) => x?.msg ?? JSON.stringify(x)).join('; ');
    else if (d && typeof d === 'object' && d.message) detail = String(d.message);
  } catch {
    /* not JSON: keep the status line */
  }
  return new RequestError(`the server refused the run: ${detail}`);
}

const post = (path, code, seed, signal, accept) =>
  reach(url(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: accept },
    body: JSON.stringify(seed === null || seed === undefined ? { code } : { code, seed }),
    signal,
  });

/** @param {any} body @returns {RunEnd} */
const runEnd = (body) => ({ stdout: body?.stdout ?? '', error: body?.error ?? null, seed: body?.seed ?? null });

/**
 * POST /api/run: the whole trace in one response.
 * @param {string} code
 * @param {{onEvent: (e: any) => void, signal?: AbortSignal, seed?: number|null}} opts
 * @returns {Promise<RunEnd>}
 */
export async function runBatch(code, { onEvent, signal, seed }) {
  const res = await post('/api/run', code, seed, signal, 'application/json');
  if (!res.ok) throw await refusal(res);
  const body = await res.json();
  for (const e of body.events || []) onEvent(e);
  return runEnd(body);
}

/**
 * POST /api/run/stream: one SSE `trace` message per event (or a small batch: an array), then `done`.
 * @param {string} code
 * @param {{onEvent: (e: any) => void, signal?: AbortSignal, seed?: number|null}} opts
 * @returns {Promise<RunEnd>}
 */
export async function runStream(code, { onEvent, signal, seed }) {
  const res = await post('/api/run/stream', code, seed, signal, 'text/event-stream');
  if ([404, 405, 501].includes(res.status)) throw new StreamUnavailable();
  if (!res.ok) throw await refusal(res);
  if (!(res.headers.get('content-type') || '').includes('text/event-stream') || !res.body) {
    throw new StreamUnavailable();
  }
  /** @type {RunEnd|null} */
  let done = null;
  const parser = createParser({
    onEvent(msg) {
      if (msg.event === 'done') done = runEnd(JSON.parse(msg.data));
      else if (msg.event === 'trace' || msg.event === undefined) {
        const data = JSON.parse(msg.data);
        for (const e of Array.isArray(data) ? data : [data]) onEvent(e);
      }
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    parser.feed(value);
    if (done) {
      await reader.cancel(); // the run is over, whatever the connection does next
      break;
    }
  }
  if (!done) throw new RequestError('the connection closed before the run finished');
  return done;
}

/**
 * Run code, streaming its trace if the server can, else in one batch.
 * @param {string} code
 * @param {{onEvent: (e: any) => void, signal?: AbortSignal, seed?: number|null}} opts
 * @returns {Promise<RunEnd>}
 */
export async function runCode(code, opts) {
  try {
    return await runStream(code, opts);
  } catch (err) {
    if (err instanceof StreamUnavailable) return runBatch(code, opts);
    throw err;
  }
}

/** GET /api/examples → [{id, title, code}] */
export async function fetchExamples() {
  const res = await reach(url('/api/examples'), { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new RequestError(`could not load the examples (${res.status})`);
  return res.json();
}

/** A recorded trace file (a widget's data-trace-src, resolved against the page), parsed JSON; null if missing. */
export async function fetchTraceFile(href) {
  const res = await fetch(new URL(href, document.baseURI));
  return res.ok ? res.json() : null;
}
