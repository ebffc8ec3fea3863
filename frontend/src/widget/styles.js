// The playground's stylesheet, rewritten for a widget's shadow root: page-wide selectors (`:root`, `html, body`,
// `body.embed`) become `:host`, and the theme follows the page: `data-theme="dark"|"light"` on the widget (copied
// from the page's <html> or an ancestor, as Docusaurus and MkDocs Material set it) or else prefers-color-scheme.

import css from '../style.css?inline';
import uplotCSS from 'uplot/dist/uPlot.min.css?inline';

// (the build minifies the CSS: spaces are optional)
const DARK = /@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}\s*\}/;

/** @param {string} text the playground's CSS @returns {string} the widget's */
export function widgetCSS(text) {
  const dark = DARK.exec(text)?.[1] ?? '';
  const themed = text.replace(
    DARK,
    `@media (prefers-color-scheme: dark) {\n  :host(:not([data-theme='light'])) {${dark}}\n}\n:host([data-theme='dark']) {${dark}}`,
  );
  return (
    themed
      .replace(/:root\b/g, ':host')
      .replace(/html,\s*body\s*\{/g, ':host {')
      .replace(/body\.embed\s+/g, ':host ') + WIDGET
  );
}

/** What only the widget needs: it is a block in a page's column, its panels one under the other. */
const WIDGET = `
:host { display: block; margin: 1em 0; border: 1px solid var(--line); border-radius: var(--radius); overflow: hidden;
}
:host([data-theme='light']) { color-scheme: light; }
:host([data-theme='dark']) { color-scheme: dark; }
:host .layout { display: flex; flex-direction: column; gap: 8px; padding: 8px; max-width: none; }
:host .graph { height: 300px; }
:host .editor .cm-editor { height: auto; min-height: 3.5em; max-height: 360px; }
:host .editor .cm-scroller { overflow: auto; }
:host [hidden] { display: none !important; }
.gt-placeholder { padding: 10px; }
.gt-placeholder pre { margin: 0 0 8px; padding: 8px; overflow: auto; background: var(--panel);
  border: 1px solid var(--line); border-radius: 6px; }
.notice { margin: 0 0 6px; color: var(--note-ink); background: var(--note-bg); border: 1px solid var(--note-line);
  border-radius: 6px; padding: 4px 8px; font-size: 13px; }
`;

export const WIDGET_CSS = widgetCSS(css) + uplotCSS;
