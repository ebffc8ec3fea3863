// The compact page at /embed#code=…, for iframes in course pages: graph, timeline, ledger and output (the editor
// only with `&editor=1`). It runs the code of its URL at once and tells the parent page its height.

import { createApp } from './app.js';
import { hashWithCode } from './hash.js';

const params = new URLSearchParams(location.hash.replace(/^#/, ''));
const editorPanel = /** @type {HTMLElement} */ (document.querySelector('.editor-panel'));
editorPanel.hidden = params.get('editor') !== '1';

const app = createApp();
if (app.editor.getCode()) app.run();

// "gradtrace" opens this program in the full playground
const brand = /** @type {HTMLAnchorElement} */ (document.querySelector('.brand-link'));
const toPlayground = () => (brand.href = `./${hashWithCode('', app.editor.getCode())}`);
toPlayground();
brand.addEventListener('focus', toPlayground);
brand.addEventListener('pointerenter', toPlayground);

/** The parent page sizes the iframe to this: {type: 'gradtrace:height', height}. */
let sent = 0;
const report = () => {
  const height = Math.ceil(document.documentElement.scrollHeight);
  if (height !== sent && window.parent !== window) {
    sent = height;
    window.parent.postMessage({ type: 'gradtrace:height', height }, '*');
  }
};
new ResizeObserver(report).observe(document.body);
report();
