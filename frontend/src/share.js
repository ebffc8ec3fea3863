// Share panel: permalink, embed snippet, the graph as SVG or PNG, the trace as JSON. Files are made in the page
// (no server round trip) and handed to the browser as downloads.

import { hashWithCode } from './hash.js';
import { writeLink } from './linkstate.js';

const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'filter',
];

/** The graph SVG as a standalone file: computed styles written onto every element (no stylesheet needed). */
export function standaloneSVG(shot) {
  const { live, copy } = shot;
  const from = [...live.querySelectorAll('*')];
  const to = [...(copy.querySelector('.viewport')?.querySelectorAll('*') || [])];
  from.forEach((el, i) => {
    const target = /** @type {SVGElement} */ (to[i]);
    if (!target || !target.style) return;
    const cs = getComputedStyle(el);
    for (const p of STYLE_PROPS) target.style.setProperty(p, cs.getPropertyValue(p));
  });
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.removeAttribute('class');
  return new XMLSerializer().serializeToString(copy);
}

/** The snippet a course page pastes to embed this program (compact mode, reports its height). */
export function embedSnippet(pageUrl, code) {
  const base = pageUrl.replace(/[#?].*$/, '').replace(/[^/]*$/, '');
  const src = `${base}embed${hashWithCode('', code)}`;
  const frame = `<iframe src="${src}" title="gradtrace: autograd playground" width="100%" height="520" style="border:0" loading="lazy"></iframe>`;
  // the page reports its height; this line lets the iframe follow it
  const follow =
    "<script>addEventListener('message', (e) => { if (e.data && e.data.type === 'gradtrace:height') " +
    "for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.height = e.data.height; });</script>";
  return `${frame}\n${follow}`;
}

const escapeHTML = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Both forms a course page can paste, with the current state: the script (a code block /embed.js makes live, what
 * Markdown fences write) and the iframe (for platforms that allow only iframes), that follows its height.
 * @param {string} pageUrl
 * @param {string} code
 * @param {{seed?: number|null, hide?: string[]}} [state]
 */
export function embedForms(pageUrl, code, { seed = null, hide = [] } = {}) {
  const base = pageUrl.replace(/[#?].*$/, '').replace(/[^/]*$/, '');
  const attrs = [seed !== null ? ` data-seed="${seed}"` : '', hide.length ? ` data-hide="${hide.join(',')}"` : ''].join(
    '',
  );
  const script =
    `<script type="module" src="${base}embed.js"></script>\n` +
    `<pre${attrs}><code class="language-gradtrace">${escapeHTML(code)}</code></pre>`;
  const frame = embedSnippet(pageUrl, code).replace(
    /embed#code=/,
    `embed${writeLink('', { seed, hide })
      .replace(/^#$/, '#')
      .replace(/^#(.+)$/, '#$1&')}code=`,
  );
  return `<!-- gradtrace, script form: -->\n${script}\n\n<!-- gradtrace, iframe form (Moodle, Canvas): -->\n${frame}`;
}

/**
 * @param {HTMLElement} root
 * @param {{getCode: () => string, trace: () => any, graph: () => any,
 *   state?: () => {seed: number|null, step: number|null, hide: string[]}}} deps
 *   trace: {code, stdout, error, seed, events} of the current run; graph: graph.snapshotSVG().
 */
export function createSharePanel(root, { getCode, trace, graph, state = () => ({ seed: null, step: 0, hide: [] }) }) {
  const el = (tag, props) => Object.assign(document.createElement(tag), props);
  const status = el('output', { className: 'share-status' });
  status.setAttribute('role', 'status');
  const snippet = el('textarea', { className: 'share-snippet', readOnly: true, rows: 3, hidden: true });
  snippet.setAttribute('aria-label', 'Embed snippet');
  let url = '';

  const download = (name, blob) => {
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(blob);
    const a = el('a', { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    status.value = `Saved ${name}`;
  };
  const copy = async (text, what) => {
    try {
      await navigator.clipboard.writeText(text);
      status.value = `${what} copied`;
    } catch {
      status.value = `${what}: copy it from the box below`;
    }
  };
  const button = (text, label, action) => {
    const b = el('button', { type: 'button', className: 'share-button', textContent: text, title: label });
    b.setAttribute('aria-label', label);
    b.addEventListener('click', action);
    return b;
  };
  const svgText = () => {
    const shot = graph();
    return shot ? { text: standaloneSVG(shot), width: shot.width, height: shot.height } : null;
  };

  const buttons = [
    button('Copy link', 'Copy link to this program', () => {
      const { seed, step, hide } = state();
      const hash = writeLink(location.hash, { code: getCode(), seed, step, hide });
      const link = location.href.replace(/#.*$/, '') + hash;
      snippet.hidden = false;
      snippet.value = link;
      copy(link, 'Link');
    }),
    button('Embed', 'Embed: copy the snippet', () => {
      snippet.hidden = false;
      snippet.value = embedSnippet(location.href, getCode());
      copy(snippet.value, 'Embed snippet');
    }),
    button('Embed both', 'Embed both: copy the script and iframe forms', () => {
      snippet.hidden = false;
      snippet.value = embedForms(location.href, getCode(), state());
      copy(snippet.value, 'Embed forms');
    }),
    button('SVG', 'Export the graph as SVG', () => {
      const s = svgText();
      if (s) download('gradtrace-graph.svg', new Blob([s.text], { type: 'image/svg+xml' }));
      else status.value = 'Run the code first: there is no graph yet';
    }),
    button('PNG', 'Export the graph as PNG', () => {
      const s = svgText();
      if (!s) return void (status.value = 'Run the code first: there is no graph yet');
      const img = new Image();
      const src = URL.createObjectURL(new Blob([s.text], { type: 'image/svg+xml' }));
      img.onload = () => {
        const canvas = el('canvas', { width: Math.ceil(s.width * 2), height: Math.ceil(s.height * 2) });
        const ctx = canvas.getContext('2d');
        ctx.fillStyle = '#ffffff';
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
        URL.revokeObjectURL(src);
        canvas.toBlob((blob) => blob && download('gradtrace-graph.png', blob), 'image/png');
      };
      img.src = src;
    }),
    button('Trace JSON', 'Download Trace JSON', () => {
      const body = JSON.stringify({ code: getCode(), ...trace() }, null, 1);
      download('gradtrace-trace.json', new Blob([body], { type: 'application/json' }));
    }),
  ];
  const row = el('div', { className: 'share-buttons' });
  row.append(...buttons);
  root.append(row, snippet, status);
}
