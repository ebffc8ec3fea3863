// Graph panel: the autograd graph of a snapshot as SVG, with zoom and pan (d3-zoom), framing (framing.js), semantic
// zoom and a minimap. Positions come from layout.js (in a Web Worker, layoutclient.js) and are computed once per
// graph, so nodes stay put while the learner steps.

import { select } from 'd3-selection';
import { zoom, zoomIdentity, zoomTransform } from 'd3-zoom';
import { collapseModules, createModuleToggle } from './clusters.js';
import { drawFrame, exportSVG, moduleLabel, nodeNames } from './graphdraw.js';
import { namedTexts, namesOf, say } from './zoomtexts.js';
import { createPartDrawer, drawParts } from './drawparts.js';
import { graphModel } from './graphmodel.js';
import { FULL_TEXT, frameView, labelFont, legibleScale, levelAt, meets, viewBounds } from './framing.js';
import { createLayoutClient } from './layoutclient.js';
import { createGraphSearch } from './graphsearch.js';
import { createMinimap } from './minimap.js';
import { windowNote, graphWindow, nodeTooltip } from './nodeview.js';
import { svg } from './svg.js';

const BIG = 300; // tensors past which only those near the view are drawn with their rows

/**
 * @param {HTMLElement} root  The panel body (data-testid="graph").
 * @param {{onHoverLine?: (line: number|null) => void}} [opts]  Hovering a node names its source line.
 */
export function createGraphPanel(root, { onHoverLine = () => {} } = {}) {
  /** @type {{final: any, key: string, model: any, layout: import('./layout.js').Layout, edges: any[]}|null} */
  let cache = null;
  /** @type {{final: any, snap: any, ended: boolean}|null} */
  let last = null;
  let framedFor = /** @type {any} */ (null); // the layout the current automatic frame was made for
  let auto = true; // the view follows the timeline until the learner pans or zooms (Fit or a new Run: again)
  let focus = /** @type {string|null} */ (null); // the node the view was last framed on
  let hoverLine = /** @type {number|null} */ (null);
  /** @type {import('./zoomtexts.js').Named[]} */
  let named = [];
  let level = '';
  let legible = 1; // the zoom from which this graph's nodes show at least their names (framing.js)
  let lite = /** @type {Set<string>|null} */ (null); // a big graph's tensors drawn without their rows

  const canvas = svg('svg', { class: 'graph-svg', role: 'img', 'aria-label': 'autograd graph' });
  const viewport = svg('g', { class: 'viewport' });
  canvas.append(viewport);
  const el = (tag, props) => Object.assign(document.createElement(tag), props);
  const empty = el('p', { className: 'graph-empty', textContent: 'Run the code to see its autograd graph.' });
  const note = el('p', { className: 'graph-note', hidden: true });
  const tools = el('div', { className: 'graph-tools' });
  const minimap = createMinimap({ onPick: (x, y) => centreOn(x, y) });
  const busy = el('p', { className: 'graph-busy', hidden: true, textContent: 'Laying out the graph…' });
  root.append(note, empty, canvas, minimap.el, busy, tools);
  const modules = createModuleToggle(viewport, () => last && render(last.final, last.snap, last));
  const search = createGraphSearch(tools, { boxOf: (id) => cache?.layout.nodes[id], centreOn });
  const parts = createPartDrawer(viewport, (nodes) => {
    const [news, k] = [namedTexts(nodes), zoomTransform(canvas).k];
    for (const n of news) say(n, levelAt(k), k);
    named.push(...news);
    if (hoverLine !== null) highlightLine(hoverLine);
    if (last) search.mark(viewport, last.snap); // the part's nodes too
  });

  // The panel's size, read before the DOM changes (reading it after a redraw would force a synchronous layout of
  // every new element) and kept up to date by the ResizeObserver.
  const size = { w: 0, h: 0 };
  const measure = () => {
    size.w = root.clientWidth;
    size.h = root.clientHeight;
  };
  let namedAt = 0; // the zoom the collapsed names were last picked for
  const zoomer = zoom()
    .scaleExtent([0.02, 4])
    .on('zoom', (ev) => {
      viewport.setAttribute('transform', ev.transform.toString());
      if (ev.sourceEvent) auto = false; // the learner's own pan or zoom: kept until Fit or the next Run
      afterZoom();
    })
    .on('end', () => {
      // a big graph draws rows only near the view: the view moved on to nodes drawn without them
      if (last && cache && lite && levelAt(zoomTransform(canvas).k) === 'full' && liteInView()) {
        render(last.final, last.snap, last);
      }
    });
  // d3-zoom would measure the SVG on every transform (a synchronous layout right after a redraw): give it the size
  zoomer.extent(() => [
    [0, 0],
    [size.w || 1, size.h || 1],
  ]);
  const sel = select(canvas);
  sel.call(zoomer).on('dblclick.zoom', null);
  const setTransform = (t) => sel.call(zoomer.transform, t);
  const tool = (label, text, action) => {
    const b = el('button', { type: 'button', className: 'icon tool', textContent: text, title: label });
    b.setAttribute('aria-label', label);
    b.addEventListener('click', action);
    tools.append(b);
  };
  tool('Zoom in', '+', () => {
    auto = false;
    sel.call(zoomer.scaleBy, 1.25);
  });
  tool('Zoom out', '−', () => {
    auto = false;
    sel.call(zoomer.scaleBy, 0.8);
  });
  tool('Fit graph', '⤢', () => {
    if (!cache) return;
    auto = true;
    measure();
    const v = frameView(cache.layout, cache.edges, null, size.w, size.h, 0); // all of it
    framedFor = cache.layout;
    setTransform(zoomIdentity.translate(v.x, v.y).scale(v.k));
  });

  /** Semantic zoom: text is never drawn under 11 px; zoomed out, nodes show one name, then only their colour. */
  function afterZoom() {
    const t = zoomTransform(canvas);
    const now = levelAt(t.k);
    canvas.classList.toggle('z-full', now === 'full');
    canvas.classList.toggle('z-names', now !== 'full');
    canvas.classList.toggle('z-marks', now === 'marks'); // modules' labels over their marks (zoomtexts.js)
    viewport.style.setProperty('--name-size', `${(FULL_TEXT / t.k).toFixed(3)}px`);
    // names are picked again when the level changes or the zoom moved by 8% (a wheel sends many small steps)
    if (now !== level || (now !== 'full' && Math.abs(Math.log(t.k / namedAt)) > 0.08)) {
      for (const n of named) say(n, now, t.k);
      namedAt = t.k;
    }
    level = now;
    if (cache) minimap.view(t, size.w, size.h);
  }

  function centreOn(x, y) {
    const t = zoomTransform(canvas);
    auto = false;
    setTransform(zoomIdentity.translate(size.w / 2 - x * t.k, size.h / 2 - y * t.k).scale(t.k));
  }

  const layouts = createLayoutClient();

  /** The layout of this window of the graph, or null while the worker computes it (then render runs again). */
  function layoutFor(final, view) {
    const key = `${view.key}|${modules.key()}`; // which modules are collapsed is part of what is laid out
    const model =
      cache && cache.final === final && cache.key === key
        ? cache.model
        : collapseModules(graphModel(final, view.ids), modules.closed, (path) => moduleLabel(final, path));
    const { boxes, edges } = model;
    // room for the modules' labels at the smallest zoom the graph is fitted at
    model.labelFont ??= labelFont(boxes.filter((b) => b.cluster).length ? namesOf(final, boxes) : []);
    const again = () => last && render(last.final, last.snap, last);
    const layout = layouts.get(key, final, boxes, edges, again, { labelFont: model.labelFont });
    if (!layout) return null;
    cache = { final, key, model, layout, edges };
    return cache;
  }

  /** The part of the graph the view will show for this step (graph units), widened by half a view each way. */
  function viewRect(c, snap) {
    const current = snap.active && c.layout.nodes[snap.active] ? snap.active : focus;
    const w = size.w || c.layout.width;
    const h = size.h || c.layout.height;
    const t = auto ? frameView(c.layout, c.edges, current, w, h, legible) : zoomTransform(canvas);
    return viewBounds(t, w, h, 0.5);
  }

  /** Big graphs: which tensors are near the view (drawn with their rows). */
  function nearView(c, snap) {
    const r = viewRect(c, snap);
    return (id) => {
      const b = c.layout.nodes[id];
      return Boolean(b && meets(b, r));
    };
  }

  function liteInView() {
    const r = viewBounds(zoomTransform(canvas), size.w, size.h);
    return [...(lite || [])].some((id) => cache?.layout.nodes[id] && meets(cache.layout.nodes[id], r));
  }

  /** Frame the graph for this step (framing.js), unless the learner moved the view themselves. */
  function frame(c, snap) {
    const w = size.w || c.layout.width;
    const h = size.h || c.layout.height;
    const current = snap.active && c.layout.nodes[snap.active] ? snap.active : focus;
    if (!auto) {
      if (current) keepInView(c.layout, current, w, h);
      return;
    }
    const view = frameView(c.layout, c.edges, current, w, h, legible);
    if (view.whole && framedFor === c.layout) return; // already fitted: nothing moves
    framedFor = c.layout;
    focus = current;
    setTransform(zoomIdentity.translate(view.x, view.y).scale(view.k));
  }

  /** The learner's view: pan (never zoom) only if the current node left it. */
  function keepInView(layout, id, w, h) {
    const box = layout.nodes[id];
    if (!box) return;
    const t = zoomTransform(canvas);
    const x0 = t.x + box.x * t.k;
    const y0 = t.y + box.y * t.k;
    const inside = x0 >= 0 && y0 >= 0 && x0 + box.width * t.k <= w && y0 + box.height * t.k <= h;
    if (!inside)
      setTransform(
        zoomIdentity
          .translate(w / 2 - (box.x + box.width / 2) * t.k, h / 2 - (box.y + box.height / 2) * t.k)
          .scale(t.k),
      );
  }

  /**
   * @param {import('./reducer.js').Snapshot} final  The snapshot after all events so far (fixes the layout).
   * @param {import('./reducer.js').Snapshot} snap   The snapshot at the current step.
   * @param {{ended?: boolean}} [opts]  ended: `snap` is the end of a finished run.
   */
  function render(final, snap, { ended = false } = {}) {
    last = { final, snap, ended };
    if (!size.w) measure();
    const view = graphWindow(final, snap);
    const c = layoutFor(final, view);
    busy.hidden = Boolean(c) || view.ids.length === 0;
    if (!c) return;
    const { layout } = c;
    note.hidden = view.ids.length === view.total && !view.iteration;
    note.textContent = windowNote(view, final.folds.length > 0);
    canvas.setAttribute('data-width', String(Math.round(layout.width)));
    canvas.setAttribute('data-height', String(Math.round(layout.height)));
    const shown = view.ids.filter((id) => id in snap.tensors);
    empty.hidden = shown.length > 0;
    empty.textContent = snap.order.length
      ? 'No tensor requires grad yet: nothing for autograd to record.'
      : 'Run the code to see its autograd graph.';
    legible = legibleScale(
      view.ids
        .filter((id) => final.tensors[id] && layout.nodes[id])
        .map((id) => ({ names: nodeNames(final.tensors[id]), ...layout.nodes[id] })),
    );
    const near = view.ids.length > BIG ? nearView(c, snap) : null; // big: drawn in parts, nearest first
    lite = near ? new Set(view.ids.filter((id) => !near(id))) : null;
    performance.mark('gradtrace:draw-start');
    const [first, ...more] = near ? drawParts(view.ids, layout.nodes, viewRect(c, snap)) : [view.ids];
    viewport.replaceChildren(...drawFrame(layout, snap, first, ended, near || undefined, near ? 'first' : undefined));
    parts.draw(more, (ids) => drawFrame(layout, snap, ids, ended, near || undefined, 'more'));
    named = namedTexts(viewport);
    level = '';
    performance.measure('gradtrace:draw', 'gradtrace:draw-start');
    if (hoverLine !== null) highlightLine(hoverLine);
    search.mark(viewport, snap);
    minimap.draw(layout, snap.active, (id) => (final.tensors[id] ? (final.tensors[id].op ? 'op' : 'leaf') : 'other'));
    frame(c, snap);
    afterZoom();
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
    const t = g && last?.snap.tensors[g.getAttribute('data-node-id') || ''];
    if (g && t && !g.querySelector(':scope > title')) g.prepend(svg('title', {}, [nodeTooltip(t)]));
    const line = g?.getAttribute('data-line');
    onHoverLine(line ? Number(line) : null);
  });
  viewport.addEventListener('mouseleave', () => onHoverLine(null));

  if (typeof ResizeObserver === 'function') {
    let width = 0;
    new ResizeObserver(() => {
      measure();
      if (last && cache && size.w !== width) {
        width = size.w;
        framedFor = null;
        frame(cache, last.snap);
      }
    }).observe(root);
  }

  function clear() {
    parts.stop();
    cache = null;
    last = null;
    framedFor = null;
    focus = null;
    auto = true;
    named = [];
    viewport.replaceChildren();
    minimap.clear();
    modules.reset();
    empty.hidden = false;
  }

  /** The graph as it is drawn now, with its own size (no zoom), for export. */
  const snapshotSVG = () => (cache ? exportSVG(canvas, viewport, cache.layout) : null);

  return { render, clear, highlightLine, snapshotSVG, isAuto: () => auto };
}
