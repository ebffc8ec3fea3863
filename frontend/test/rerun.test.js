import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { snapshotAt } from '../src/reducer.js';
import { backwardAgain, zeroGrad } from '../src/rerun.js';
import { fixture } from './fixtures.js';

const lessonCode = (id) => readFileSync(new URL(`../../server/lessons/${id}.py`, import.meta.url), 'utf-8');
const final = (name) => {
  const events = fixture(name).events;
  return snapshotAt(events, events.length);
};

it('repeats the forward line and the backward of lesson 1 (its graph was freed)', () => {
  const code = lessonCode('scalar_backward');
  const out = backwardAgain(code, final('scalar_backward'));
  expect(out.startsWith(code.trimEnd())).toBe(true);
  expect(out.slice(code.trimEnd().length)).toBe(
    '\n\n# backward() again (added by the playground)\ny = (x ** 2).sum()        # collapse to scalar\ny.backward()\n',
  );
});

it('repeats a one-line backward of lesson 2 once', () => {
  const out = backwardAgain(lessonCode('accumulation'), final('accumulation'));
  expect(out.endsWith('# backward() again (added by the playground)\n(x ** 3).backward()\n')).toBe(true);
});

it('refuses what cannot be repeated on its own', () => {
  expect(backwardAgain('import torch\n', snapshotAt([], 0))).toBeNull();
  const s = final('accumulation');
  expect(backwardAgain('\n'.repeat(12) + 'for i in range(3):\n', s)).toBeNull();
});

it('zeroes .grad with zero_() per leaf, or with the optimizer when there is one', () => {
  expect(
    zeroGrad('x = 1\n', final('accumulation')).endsWith('# zero grad (added by the playground)\nx.grad.zero_()\n'),
  ).toBe(true);
  const code = lessonCode('gradient_accumulation');
  expect(zeroGrad(code, final('gradient_accumulation')).endsWith('\noptimizer.zero_grad()\n')).toBe(true);
  expect(zeroGrad('x = 1\n', snapshotAt([], 0))).toBeNull();
});
