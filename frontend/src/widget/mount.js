// The heavy half of a widget, loaded when it starts: the playground's panels and wiring (app.js) in the widget's
// shadow root, its recorded trace (if any), and what it does first: run (data-autorun) or show the recording.

import { setApiRoot } from '../api.js';
import { createApp } from '../app.js';
import { writeLink, applyHide } from '../linkstate.js';
import { WIDGET_CSS } from './styles.js';
import { buildPanels } from './markup.js';

/**
 * @param {ShadowRoot} root
 * @param {{code: string, seed: number|null, hide: string[], readOnly: boolean, autorun: boolean, server: string,
 *   trace: import('../tracefile.js').Trace|null, runNow: boolean}} opts
 */
export function mountWidget(root, opts) {
  setApiRoot(opts.server);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(WIDGET_CSS);
  root.adoptedStyleSheets = [sheet];
  const brandHref = `${opts.server}/${writeLink('', { seed: opts.seed, code: opts.code })}`;
  root.replaceChildren();
  buildPanels(root, { brandHref });
  applyHide(root, opts.hide);
  const app = createApp({
    root,
    page: false,
    code: opts.code,
    seed: opts.seed,
    readOnly: opts.readOnly,
    fallback: opts.trace,
  });
  if (opts.autorun || opts.runNow) app.run();
  else if (opts.trace) app.replay(opts.trace, 'A recorded run: press Run to run it live.');
  return app;
}
