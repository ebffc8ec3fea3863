import { expect, it } from 'vitest';
import { decodeCode } from '../src/hash.js';
import { embedSnippet } from '../src/share.js';

it('makes an embed snippet for /embed next to the playground, carrying the code, that follows its height', () => {
  const code = 'import torch\nx = torch.tensor(2.0, requires_grad=True)\n';
  const snippet = embedSnippet('https://gradtrace.example/course/#code=abc', code);
  const src = /<iframe src="([^"]+)"/.exec(snippet)[1];
  expect(src.startsWith('https://gradtrace.example/course/embed#code=')).toBe(true);
  expect(decodeCode(src.split('#code=')[1])).toBe(code);
  expect(snippet).toContain('title="gradtrace: autograd playground"');
  expect(snippet).toContain("e.data.type === 'gradtrace:height'");
});
