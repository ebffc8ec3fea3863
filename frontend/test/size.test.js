// STYLE.md: modules small enough to read in one sitting, and thin wiring.
import { readFileSync, readdirSync } from 'node:fs';
import { expect, it } from 'vitest';

const src = new URL('../src/', import.meta.url);
const lines = (name) => readFileSync(new URL(name, src), 'utf-8').split('\n').length;

it('keeps every module under 300 lines and main.js under 120', () => {
  for (const name of readdirSync(src).filter((n) => n.endsWith('.js'))) {
    expect(lines(name), name).toBeLessThanOrEqual(300);
  }
  expect(lines('main.js')).toBeLessThanOrEqual(120);
});

it('lets only api.js know URLs and only player.js own timers', () => {
  for (const name of readdirSync(src).filter((n) => n.endsWith('.js'))) {
    const text = readFileSync(new URL(name, src), 'utf-8');
    if (name !== 'api.js') expect(text, name).not.toMatch(/fetch\(|['"`]\/api\//);
    if (name !== 'player.js') expect(text, name).not.toMatch(/setTimeout|setInterval|requestAnimationFrame/);
    expect(text, name).not.toMatch(/\beval\(|new Function\(|\.innerHTML\s*=/);
  }
});
