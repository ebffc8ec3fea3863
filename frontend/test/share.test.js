import { expect, it } from 'vitest';
import { decodeCode } from '../src/hash.js';
import { embedForms, embedSnippet } from '../src/share.js';

it('makes an embed snippet for /embed next to the playground, carrying the code, that follows its height', () => {
  const code = 'import torch\nx = torch.tensor(2.0, requires_grad=True)\n';
  const snippet = embedSnippet('https://gradtrace.example/course/#code=abc', code);
  const src = /<iframe src="([^"]+)"/.exec(snippet)[1];
  expect(src.startsWith('https://gradtrace.example/course/embed#code=')).toBe(true);
  expect(decodeCode(src.split('#code=')[1])).toBe(code);
  expect(snippet).toContain('title="gradtrace: autograd playground"');
  expect(snippet).toContain("e.data.type === 'gradtrace:height'");
});

it('writes both embed forms with the state: a language-gradtrace block with the script, and the iframe', () => {
  const code = 'import torch\nprint(torch.randn(2) < 1)\n';
  const forms = embedForms('https://gt.example/#code=abc', code, { seed: 7, hide: ['timeline'] });
  expect(forms).toContain('<script type="module" src="https://gt.example/embed.js"></script>');
  expect(forms).toContain('<pre data-seed="7" data-hide="timeline"><code class="language-gradtrace">');
  expect(forms).toContain('print(torch.randn(2) &lt; 1)'); // the code as text, never as markup
  const src = /<iframe src="([^"]+)"/.exec(forms)[1];
  expect(src.startsWith('https://gt.example/embed#seed=7&hide=timeline&code=')).toBe(true);
  expect(decodeCode(src.split('code=')[1])).toBe(code);
});
