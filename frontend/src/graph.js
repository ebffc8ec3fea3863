// Graph panel: the autograd graph of a snapshot as SVG, with zoom and pan (d3-zoom). Positions come from
// layout.js and are computed once per run (from the final snapshot), so nodes stay put while the learner steps.

import { select } from 'd3-selection';
import { zoom, zoomIdentity, zoomTransform } from 'd3-zoom';
import { drawFrame } from './graphdraw.js';
import { graphModel } from './graphmodel.js';
import { layoutGraph } from './layout.js';
import { graphWindow } from './nodeview.js';
import { svg } from './svg.js';

// The first view shows the whole graph if that keeps text readable (scale ≥ WHOLE_FIT); otherwise it zooms to
// READABLE and follows the current step (the learner pans or presses "Fit graph").
const WHOLE_FIT = 0.55;
const READABLE = 0.75;

/**
 * @param {HTMLElement} root  The panel body (data-testid="graph").
 * @param {{onHoverLine?: (line: number|null) => void}} [opts]  Hovering a node names its source line.
 */
export function createGraphPanel(root, { onHoverLine = () => {} } = {}) {
  /** @type {{final: any, key: string, layout: import('./layout.js').Layout}|null} */
  let cache = null;
  /** @type {{final: any, snap: any}|null} */
  let last = null;
  let fitted = /** @type {any} */ (null);
  let hoverLine = /** @type {number|null} */ (null);

  const canvas = svg('svg', { class: 'graph-svg', role: 'img', 'aria-label': 'autograd graph' });
  const viewport = svg('g', { class: 'viewport' });
  canvas.append(viewport);
  const el = (tag, props) => Object.assign(document.createElement(tag), props);
  const empty = el('p', { className: 'graph-empty', textContent: 'Run the code to see its autograd graph.' });
  const note = el('p', { className: 'graph-note', hidden: true });
  const tools = el('div', { className: 'graph-tools' });
  root.append(note, empty, canvas, tools);

  const zoomer = zoom()
    .scaleExtent([0.05, 4])
    .on('zoom', (ev) => viewport.setAttribute('transform', ev.transform.toString()));
  const sel = select(canvas);
  sel.call(zoomer).on('dblclick.zoom', null);
  const setTransform = (t) => sel.call(zoomer.transform, t);
  const tool = (label, text, action) => {
    const b = el('button', { type: 'button', className: 'icon tool', textContent: text, title: label });
    b.setAttribute('aria-label', label);
    b.addEventListener('click', action);
    tools.append(b);
  };
  tool('Zoom in', '+', () => sel.call(zoomer.scaleBy, 1.25));
  tool('Zoom out', '−', () => sel.call(zoomer.scaleBy, 0.8));
  tool('Fit graph', '⤢', () => cache && fit(cache.layout, true));

  function layoutFor(final, view) {
    const key = view.key;
    if (cache && cache.final === final && cache.key === key) return cache.layout;
    performance.mark('gradtrace:layout-start');
    const { boxes, edges } = graphModel(final, view.ids);
    cache = { final, key, layout: layoutGraph(boxes, edges) };
    performance.measure('gradtrace:layout', 'gradtrace:layout-start'); // read by benchmarks/graph_render.py
    return cache.layout;
  }

  /** Scale to the panel (see WHOLE_FIT), centred when it fits. */
  function fit(layout, whole = false) {
    const w = root.clientWidth || layout.width;
    const h = root.clientHeight || layout.height;
    const k = Math.min(1, w / layout.width, h / layout.height);
    const scale = whole ? Math.max(0.05, k) : k >= WHOLE_FIT ? k : READABLE;
    const x = Math.max(0, (w - layout.width * scale) / 2);
    const y = Math.max(0, (h - layout.height * scale) / 2);
    fitted = layout;
    setTransform(zoomIdentity.translate(x, y).scale(scale));
  }

  /** Pan (never zoom) so the current node is in view. */
  function follow(layout, id) {
    const box = id ? layout.nodes[id] : null;
    if (!box) return;
    const t = zoomTransform(canvas);
    const w = root.clientWidth;
    const h = root.clientHeight;
    const x0 = t.x + box.x * t.k;
    const y0 = t.y + box.y * t.k;
    const inside = x0 >= 0 && y0 >= 0 && x0 + box.width * t.k <= w && y0 + box.height * t.k <= h;
    if (inside) return;
    const x = w / 2 - (box.x + box.width / 2) * t.k;
    const y = h / 2 - (box.y + box.height / 2) * t.k;
    setTransform(zoomIdentity.translate(x, y).scale(t.k));
  }

  /**
   * @param {import('./reducer.js').Snapshot} final  The snapshot after all events so far (fixes the layout).
   * @param {import('./reducer.js').Snapshot} snap   The snapshot at the current step.
   * @param {{ended?: boolean}} [opts]  ended: `snap` is the end of a finished run.
   */
  function render(final, snap, { ended = false } = {}) {
    last = { final, snap };
    const view = graphWindow(final, snap);
    const layout = layoutFor(final, view);
    note.hidden = view.ids.length === view.total && !view.iteration;
    note.textContent = view.iteration
      ? `Iteration ${view.iteration} of ${view.of}: each pass through the loop builds a new graph; this is the current one.`
      : `Showing tensors ${view.start + 1}–${view.end} of ${view.total} (and the leaves they use): the window follows the current step.`;
    canvas.setAttribute('data-width', String(Math.round(layout.width)));
    canvas.setAttribute('data-height', String(Math.round(layout.height)));
    const shown = view.ids.filter((id) => id in snap.tensors);
    empty.hidden = shown.length > 0;
    empty.textContent = snap.order.length
      ? 'No tensor requires grad yet: nothing for autograd to record.'
      : 'Run the code to see its autograd graph.';
    performance.mark('gradtrace:draw-start');
    viewport.replaceChildren(...drawFrame(layout, snap, view.ids, ended));
    performance.measure('gradtrace:draw', 'gradtrace:draw-start');
    if (hoverLine !== null) highlightLine(hoverLine);
    if (fitted !== layout) fit(layout);
    else follow(layout, snap.active);
  }

  /** Highlight the nodes made by source line `line` (null: none). */
  function highlightLine(line) {
    hoverLine = line;
    for (const g of viewport.querySelectorAll('[data-node-id]')) {
      g.classList.toggle('hl', line !== null && g.getAttribute('data-line') === String(line));
    }
  }

  viewport.addEventListener('mouseover', (e) => {
    const g = /** @type {Element} */ (e.target).closest('[data-node-id]');
    const line = g?.getAttribute('data-line');
    onHoverLine(line ? Number(line) : null);
  });
  viewport.addEventListener('mouseleave', () => onHoverLine(null));

  if (typeof ResizeObserver === 'function') {
    let width = 0;
    new ResizeObserver(() => {
      if (last && cache && root.clientWidth !== width) {
        width = root.clientWidth;
        fit(cache.layout);
      }
    }).observe(root);
  }

  function clear() {
    cache = null;
    last = null;
    fitted = null;
    viewport.replaceChildren();
    empty.hidden = false;
  }

  /** The graph as it is drawn now, with its own size (no zoom), for export. */
  function snapshotSVG() {
    if (!cache) return null;
    const copy = /** @type {SVGSVGElement} */ (canvas.cloneNode(true));
    const { width, height } = cache.layout;
    copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
    copy.setAttribute('width', String(Math.ceil(width)));
    copy.setAttribute('height', String(Math.ceil(height)));
    copy.querySelector('.viewport')?.removeAttribute('transform');
    return { live: viewport, copy, width, height };
  }

  return { render, clear, highlightLine, snapshotSVG };
}
