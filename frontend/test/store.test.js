import { expect, it } from 'vitest';
import { createStore } from '../src/store.js';
import { fixture } from './fixtures.js';

it('shows the trace so far mid-run and the server’s stdout and error at the end', () => {
  const run = fixture('error');
  const store = createStore();
  store.start();
  for (const e of run.events) store.push(e);
  expect(store.outputAt(1).error).toBeNull();
  store.finish({ stdout: run.stdout, error: run.error, seed: run.seed });
  expect(store.outputAt(run.events.length).error).toEqual(run.error);
  expect(store.seed).toBe(3);
  expect(store.final().k).toBe(run.events.length);
});

it('reports a failed request as the error', () => {
  const store = createStore();
  store.start();
  const err = new Error('the server refused the run: code too long');
  err.name = 'RequestError';
  store.fail(err);
  expect(store.status).toBe('failed');
  expect(store.outputAt(0).error).toEqual({ type: 'RequestError', message: err.message, line: null });
});

it('passes warnings on to the output', () => {
  const store = createStore();
  store.start();
  store.push({ seq: 0, type: 'warning', line: 3, message: 'The .grad attribute of a Tensor that is not a leaf' });
  expect(store.outputAt(1).warnings).toEqual(['The .grad attribute of a Tensor that is not a leaf']);
  expect(store.outputAt(0).warnings).toEqual([]);
});
