import { expect, it } from 'vitest';
import { widgetCSS } from '../src/widget/styles.js';

const PAGE = `:root { --bg: #fff; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #000; }
}
html,
body { margin: 0; }
body.embed .graph { height: 300px; }`;

it('rewrites the page stylesheet for a shadow root, themed by data-theme or the system', () => {
  for (const text of [PAGE, PAGE.replace(/\s*([{}:,])\s*/g, '$1')]) {
    const css = widgetCSS(text); // as written, and minified as the build makes it
    expect(css).not.toMatch(/:root|\bbody\b|\bhtml\b/);
    expect(css).toMatch(/:host\(:not\(\[data-theme='light'\]\)\)\s*\{\s*--bg:\s*#000;?\s*\}/);
    expect(css).toMatch(/:host\(\[data-theme='dark'\]\)\s*\{\s*--bg:\s*#000;?\s*\}/);
    expect(css).toMatch(/:host \.graph/);
  }
});
