import { expect, it } from 'vitest';
import { drawsRandom, hideList, readLink, writeLink } from '../src/linkstate.js';

it('reads code, seed, step, hide and autorun from a link, and ignores what is not theirs', () => {
  const hash = writeLink('', { code: 'print(1)\n', seed: 42, step: 3, hide: ['editor', 'timeline'], autorun: true });
  expect(hash).toBe(`#seed=42&step=3&hide=editor%2Ctimeline&autorun=1&code=${hash.split('code=')[1]}`);
  expect(readLink(hash)).toEqual({
    code: 'print(1)\n',
    seed: 42,
    step: 3,
    hide: ['editor', 'timeline'],
    autorun: true,
  });
  expect(readLink('#seed=-1&step=x&hide=editor,bogus')).toEqual({
    code: null,
    seed: null,
    step: null,
    hide: ['editor'],
    autorun: false,
  });
  expect(hideList(' Graph , ledger,')).toEqual(['graph', 'ledger']);
});

it('removes keys set to null and keeps the others', () => {
  expect(writeLink('#seed=1&x=2', { seed: null, step: 5 })).toBe('#x=2&step=5');
});

it('knows which code draws random numbers', () => {
  expect(drawsRandom('w = torch.randn(3)')).toBe(true);
  expect(drawsRandom('m = nn.Linear(2, 1)')).toBe(true);
  expect(drawsRandom('x = torch.tensor(2.0)\n(x ** 2).backward()')).toBe(false);
});
