// /embed.js: one <script type="module" src="https://HOST/embed.js"></script> turns a course page's code blocks
// into live widgets. It upgrades every `pre > code.language-gradtrace` (what Markdown fences write) and every
// `[data-gradtrace]` element into a <gradtrace-playground>, and defines that element. This file stays small: each
// widget loads the playground's panels (./mount.js, content-hashed) only when it starts, i.e. when it scrolls into
// view or is clicked. Attributes: data-autorun, data-hide="editor,timeline,…", data-seed, data-readonly,
// data-trace-src="lesson.json" (or an inline <script type="application/json"> trace), data-server, data-theme.

import { fetchTraceFile } from '../api.js';
import { hideList } from '../linkstate.js';
import { toTrace } from '../tracefile.js';

/** Where this script came from: the server the widgets run on (unless a widget's data-server says otherwise). */
// (import.meta.url is /embed.js, or the hashed chunk under /assets/ the bundler moved this code to)
const HOME = import.meta.url.replace(/[?#].*$/, '').replace(/\/(assets\/)?[^/]*$/, '');

/** Remove the common indentation and the blank first and last lines of a block's text. @param {string} text */
export function dedent(text) {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  const pad = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0));
  return lines.map((l) => l.slice(Number.isFinite(pad) ? pad : 0)).join('\n') + '\n';
}

const PLACEHOLDER_CSS = `:host { display: block; margin: 1em 0; border: 1px solid #cbd2dc; border-radius: 10px;
  font: 15px/1.45 system-ui, sans-serif; color: #1f2937; background: #f4f6fa; }
:host([data-theme='dark']) { color: #e5e7eb; background: #0f1318; border-color: #2c3440; }
.gt-placeholder { padding: 10px; }
pre { margin: 0 0 8px; padding: 8px; overflow: auto; background: transparent; border: 1px solid #cbd2dc;
  border-radius: 6px; font: 13px/1.45 ui-monospace, monospace; }
button { font: inherit; padding: 4px 14px; border-radius: 6px; border: 1px solid #1d4ed8; background: #1d4ed8;
  color: #fff; cursor: pointer; }
.hint { margin-left: 8px; font-size: 13px; }`;

class GradtracePlayground extends HTMLElement {
  constructor() {
    super();
    /** @type {string|null} set by the upgrade of a code block; else the element's own text */
    this.code = null;
    /** @type {any} the inline trace found at upgrade */
    this.inlineTrace = null;
    this.started = false;
    /** @type {Promise<any>|null} the playground app once mounted */
    this.app = null;
  }

  connectedCallback() {
    if (this.shadowRoot) return;
    const inline = this.querySelector('script[type="application/json"]');
    if (inline && !this.inlineTrace) this.inlineTrace = inline.textContent;
    if (this.code === null) {
      const copy = /** @type {HTMLElement} */ (this.cloneNode(true));
      copy.querySelectorAll('script').forEach((s) => s.remove());
      this.code = dedent(copy.textContent || '');
    }
    if (!this.hasAttribute('data-theme')) {
      const theme = this.parentElement?.closest('[data-theme]')?.getAttribute('data-theme');
      if (theme === 'dark' || theme === 'light') this.setAttribute('data-theme', theme);
    }
    const root = this.attachShadow({ mode: 'open' });
    const style = new CSSStyleSheet();
    style.replaceSync(PLACEHOLDER_CSS);
    root.adoptedStyleSheets = [style];
    const box = document.createElement('div');
    box.className = 'gt-placeholder';
    const pre = document.createElement('pre');
    pre.textContent = this.code;
    pre.tabIndex = 0;
    pre.setAttribute('aria-label', 'Python code');
    const run = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Run ▸' });
    run.setAttribute('data-testid', 'run');
    const hint = Object.assign(document.createElement('span'), { className: 'hint', textContent: 'gradtrace' });
    run.addEventListener('click', () => this.start(true));
    box.append(pre, run, hint);
    root.append(box);
    const seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          seen.disconnect();
          this.start(false);
        }
      },
      { rootMargin: '200px' },
    );
    seen.observe(this);
  }

  /** Load the panels and mount them (once). @param {boolean} runNow the learner pressed Run */
  start(runNow) {
    if (this.app) {
      if (runNow) this.app.then((app) => app.run());
      return this.app;
    }
    this.started = true;
    this.app = Promise.all([import('./mount.js'), this.loadTrace()]).then(([{ mountWidget }, trace]) =>
      mountWidget(/** @type {ShadowRoot} */ (this.shadowRoot), {
        code: this.code ?? '',
        seed: this.seedAttr(),
        hide: hideList(this.dataset.hide),
        readOnly: this.hasAttribute('data-readonly') || this.getAttribute('editable') === 'false',
        autorun: this.hasAttribute('data-autorun') && this.dataset.autorun !== 'false',
        server: (this.dataset.server || HOME).replace(/\/$/, ''),
        trace,
        runNow,
      }),
    );
    return this.app;
  }

  seedAttr() {
    const raw = this.dataset.seed;
    return raw && /^\d{1,15}$/.test(raw.trim()) ? Number(raw) : null;
  }

  /** The recorded trace: inline JSON, or data-trace-src (relative to the page). Null when there is none. */
  async loadTrace() {
    try {
      if (this.inlineTrace) return toTrace(JSON.parse(this.inlineTrace));
      const src = this.dataset.traceSrc;
      if (!src) return null;
      const data = await fetchTraceFile(src);
      return data ? toTrace(data) : null;
    } catch {
      return null; // a trace that can't be read is no fallback; the live run still works
    }
  }
}

/** Turn one code block (`pre > code`, or any [data-gradtrace] element) into a widget. @param {Element} block */
function upgrade(block) {
  if (block instanceof GradtracePlayground || block.closest('gradtrace-playground')) return;
  const pre = block.tagName === 'CODE' && block.parentElement?.tagName === 'PRE' ? block.parentElement : block;
  const widget = /** @type {GradtracePlayground} */ (document.createElement('gradtrace-playground'));
  for (const el of [pre, block]) {
    for (const attr of el.attributes) if (attr.name.startsWith('data-')) widget.setAttribute(attr.name, attr.value);
  }
  widget.removeAttribute('data-gradtrace');
  const next = pre.nextElementSibling;
  if (next?.matches('script[type="application/json"]')) widget.inlineTrace = next.textContent;
  const inner = block.querySelector('script[type="application/json"]');
  if (inner) {
    widget.inlineTrace = inner.textContent;
    inner.remove();
  }
  widget.code = dedent(block.textContent || '');
  pre.replaceWith(widget);
}

const BLOCKS = 'pre > code.language-gradtrace, [data-gradtrace]';

function upgradeAll(root = document) {
  root.querySelectorAll(BLOCKS).forEach(upgrade);
}

if (!customElements.get('gradtrace-playground')) {
  customElements.define('gradtrace-playground', GradtracePlayground);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => upgradeAll());
  else upgradeAll();
  // pages that add their content later (Docusaurus, client-side navigation) get their blocks upgraded too
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node instanceof Element) {
          if (node.matches(BLOCKS)) upgrade(node);
          upgradeAll(/** @type {any} */ (node));
        }
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
}
