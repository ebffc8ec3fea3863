// The compact page at /embed#code=…, for iframes in course pages (Moodle, Canvas: where only iframes are allowed):
// code, graph, timeline, ledger and output, with the link's hide flags (`&hide=editor,timeline`). It runs the
// code of its URL at once and tells the parent page its height, whatever the parent's origin.

import './style.css';
import { createApp } from './app.js';
import { hashWithCode } from './hash.js';
import { readLink } from './linkstate.js';

const app = createApp();
if (app.editor.getCode() && !readLink(location.hash).autorun) app.run(); // (autorun=1: createApp ran it)

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
