import { expect, it } from 'vitest';
import { codeFromHash, decodeCode, encodeCode, hashWithCode } from '../src/hash.js';

it('round-trips UTF-8 code through base64url', () => {
  const code = 'import torch\nprint("4 + 12 — ∂y/∂x ✓")\n';
  const b64 = encodeCode(code);
  expect(b64).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(decodeCode(b64)).toBe(code);
});

it('matches Python base64.urlsafe_b64encode, with or without padding', () => {
  // base64.urlsafe_b64encode("x ** 2 ≥ 0?".encode()) == b'eCAqKiAyIOKJpSAwPw=='
  expect(decodeCode('eCAqKiAyIOKJpSAwPw==')).toBe('x ** 2 ≥ 0?');
  expect(decodeCode('eCAqKiAyIOKJpSAwPw')).toBe('x ** 2 ≥ 0?');
});

it('reads #code= from a hash and keeps other parameters', () => {
  expect(codeFromHash('#code=' + encodeCode('y = 1'))).toBe('y = 1');
  expect(codeFromHash('')).toBeNull();
  expect(codeFromHash('#code=%%%')).toBeNull();
  const h = hashWithCode('#embed=1', 'a');
  expect(h).toContain('embed=1');
  expect(codeFromHash(h)).toBe('a');
});
