// Hand-written traces mirroring the event contract (docs/TRACE.md) for the three kinds of runs the tests need.
import { readFileSync } from 'node:fs';

/** @param {string} name @returns {{stdout: string, error: any, seed: number, events: any[]}} */
export function fixture(name) {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf-8'));
}
