// The only module that knows the server's URLs (HTTP contract in docs/HTTP.md).

import { createParser } from 'eventsource-parser';

/** API root: '' (same origin) unless the page sets <meta name="gradtrace-api" content="https://…">. */
function apiRoot() {
  const meta = typeof document !== 'undefined' ? document.querySelector('meta[name="gradtrace-api"]') : null;
  return (meta?.getAttribute('content') || '').replace(/\/$/, '');
}

const url = (path) => `${apiRoot()}${path}`;

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

const post = (path, code, signal, accept) =>
  fetch(url(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: accept },
    body: JSON.stringify({ code }),
    signal,
  });

/** @param {any} body @returns {RunEnd} */
const runEnd = (body) => ({ stdout: body?.stdout ?? '', error: body?.error ?? null, seed: body?.seed ?? null });

/**
 * POST /api/run: the whole trace in one response.
 * @param {string} code
 * @param {{onEvent: (e: any) => void, signal?: AbortSignal}} opts
 * @returns {Promise<RunEnd>}
 */
export async function runBatch(code, { onEvent, signal }) {
  const res = await post('/api/run', code, signal, 'application/json');
  if (!res.ok) throw await refusal(res);
  const body = await res.json();
  for (const e of body.events || []) onEvent(e);
  return runEnd(body);
}

/**
 * POST /api/run/stream: one SSE `trace` message per event (or a small batch: an array), then `done`.
 * @param {string} code
 * @param {{onEvent: (e: any) => void, signal?: AbortSignal}} opts
 * @returns {Promise<RunEnd>}
 */
export async function runStream(code, { onEvent, signal }) {
  const res = await post('/api/run/stream', code, signal, 'text/event-stream');
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
 * @param {{onEvent: (e: any) => void, signal?: AbortSignal}} opts
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
  const res = await fetch(url('/api/examples'), { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new RequestError(`could not load the examples (${res.status})`);
  return res.json();
}
