// Drawing one frame of the graph: tensors, AccumulateGrad nodes, the gradient seed, edges and their gradients.
// Pure SVG building from a layout and a snapshot; the panel (graph.js) owns the DOM, zoom and events.

import { accId, gradText, labelSize, seedId, seedRows } from './graphmodel.js';
import { formatCompact, tensorLabel } from './format.js';
import { heatCells } from './heatmap.js';
import {
  GRAPH_CELL,
  PAD_X,
  PAD_Y,
  ROW_H,
  CHAR_W,
  fit,
  heatExtra,
  nodeHeat,
  nodeRows,
  nodeTooltip,
} from './nodeview.js';
import { svg } from './svg.js';

function arrow(id, cls, orient = 'auto') {
  return svg('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient }, [
    svg('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }),
  ]);
}

/** A smooth path through the points with horizontal tangents at each (straight where they line up vertically). */
function pathOf(points) {
  if (!points.length) return '';
  let d = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length; i++) {
    const p = points[i - 1];
    const q = points[i];
    const dx = (q.x - p.x) / 2;
    d += ` C${p.x + dx},${p.y} ${q.x - dx},${q.y} ${q.x},${q.y}`;
  }
  return d;
}

/**
 * Everything to draw for `snap` in `layout`, as SVG groups: [defs, clusters (modules), edges, nodes, labels].
 * @param {import('./layout.js').Layout} layout
 * @param {import('./reducer.js').Snapshot} snap
 * @param {string[]} ids  tensors of the window
 * @param {boolean} [ended]  `snap` is the end of a finished run (a last backward is over too)
 * @param {(id: string) => boolean} [detail]  which tensors get their rows (a big graph: those near the view; the
 *   others are drawn as their box and name until the view comes near them)
 * @param {'first'|'more'} [part]  a big graph is drawn in parts: each draws its tensors' boxes and the edges into
 *   them; the first also the modules, the gradient seed and the other boxes
 */
export function drawFrame(layout, snap, ids, ended = false, detail = () => true, part = undefined) {
  const defs = svg('defs', {}, [
    arrow('arrow', 'edge-arrow'),
    arrow('arrow-grad', 'edge-arrow grad'),
    arrow('arrow-grad-back', 'edge-arrow grad', 'auto-start-reverse'),
  ]);
  const clusters = svg('g', { class: 'clusters' });
  for (const [path, c] of Object.entries(part === 'more' ? {} : layout.clusters || {})) {
    const kind = ids.map((id) => snap.tensors[id]).find((t) => t?.module === path)?.moduleType;
    const label = kind ? `${path} · ${kind}` : path;
    const room = c.labelWidth ?? c.width;
    clusters.append(
      svg('g', { class: 'cluster', 'data-module': path, transform: `translate(${c.x},${c.y})` }, [
        svg('title', {}, [`made inside ${path}${kind ? ` (nn.${kind})` : ''}; click to collapse it to one box`]),
        svg('rect', { width: c.width, height: c.height, rx: 8 }),
        // zoomed out, the longest of these that fits the room kept for it (graph.js, semantic zoom)
        svg(
          'text',
          {
            class: 'cluster-label',
            x: 6,
            y: -5,
            'data-labels': `${label}|${path}`,
            'data-room': room,
            'data-room-h': c.labelHeight ?? 20,
          },
          [label],
        ),
      ]),
    );
  }
  const edges = svg('g', { class: 'edges' });
  const labels = svg('g', { class: 'edge-labels' });
  const nodes = svg('g', { class: 'nodes' });
  const ev = snap.event;
  const into = part ? new Set(ids) : null;
  for (const e of snap.edges) {
    if (into && !into.has(e.to) && (part === 'more' || layout.nodes[e.to])) continue; // another part's
    const points = layout.edges[e.id];
    if (!points || !points.length) continue;
    const grad = snap.edgeGrads[e.id];
    const carries = grad !== undefined;
    const fresh = carries && e.to === snap.active && ev?.type === 'node';
    edges.append(
      svg('path', {
        class: `edge${carries ? ' grad' : ''}${fresh ? ' fresh' : ''}`,
        d: pathOf(points),
        // forward: data flows to the output; backward: the gradient flows back to the input
        ...(carries ? { 'marker-start': 'url(#arrow-grad-back)' } : { 'marker-end': 'url(#arrow)' }),
        'data-edge-id': e.id,
      }),
    );
    const spot = layout.labels[e.id];
    if (carries && spot) labels.append(edgeLabel(spot, gradText(grad), fresh));
  }
  const feeds = new Set(snap.edges.map((e) => e.from)); // (one pass: a 1,000-node graph has thousands of edges)
  for (const id of ids) {
    const t = snap.tensors[id];
    const box = layout.nodes[id];
    if (!t || !box) continue;
    nodes.append(drawNode(t, box, snap, ended, detail(id)));
    const acc = layout.nodes[accId(id)];
    if (acc && feeds.has(id)) {
      edges.append(svg('path', { class: 'edge acc-edge', d: pathOf(layout.edges[`${accId(id)}->${id}`] || []) }));
      nodes.append(drawAcc(t, acc, snap));
    }
  }
  for (const [id, box] of Object.entries(part === 'more' ? {} : layout.nodes)) {
    if (id.startsWith('mod:')) nodes.append(drawModule(box, id.slice(4), moduleLabel(snap, id.slice(4))));
    if (!id.startsWith('fold:')) continue;
    const to = id.split(':')[1];
    edges.append(
      svg('path', {
        class: 'edge fold-edge',
        d: pathOf(layout.edges[`${id}->${to}`] || []),
        'marker-end': 'url(#arrow)',
      }),
    );
    nodes.append(drawFold(box, to));
  }
  const b = part === 'more' ? null : snap.backward;
  const seed = b ? layout.nodes[seedId(b.root)] : null;
  if (b && seed && snap.tensors[b.root]) {
    const points = [...(layout.edges[`${b.root}->${seedId(b.root)}`] || [])].reverse();
    if (points.length)
      edges.append(svg('path', { class: 'edge grad seed-edge', d: pathOf(points), 'marker-end': 'url(#arrow-grad)' }));
    nodes.append(drawSeed(b, seed, (snap.tensors[b.root].shape || []).length === 0, ev?.type === 'backward'));
  }
  return [defs, clusters, edges, nodes, labels];
}

/**
 * What a collapsed node says when zoomed out (semantic zoom), longest first: the panel picks the first that fits
 * its box at 11 px on screen, else none (a coloured mark).
 */
export function nodeNames(t) {
  const short = t.op ? t.op.replace(/Backward\d*$/, '').toLowerCase() : null;
  if (t.op) return [t.name ? `${t.name} = ${short}` : t.op, t.op, short];
  // model.0.weight → 0.weight → weight
  const parts = tensorLabel(t).split('.');
  return parts.map((_, i) => parts.slice(i).join('.'));
}

/** The one line a collapsed node shows, centred in its box; its text and size are set by the panel on zoom. */
function nameText(box) {
  return svg('text', { class: 'name', x: box.width / 2, y: box.height / 2, 'text-anchor': 'middle' }, []);
}

function edgeLabel(spot, text, fresh) {
  const width = Math.max(spot.width, labelSize(text).width);
  const x = spot.x + spot.width / 2 - width / 2;
  return svg('g', { class: `edge-label${fresh ? ' fresh' : ''}`, transform: `translate(${x},${spot.y})` }, [
    svg('rect', { width, height: spot.height, rx: 4 }),
    svg('text', { x: 5, y: 13 }, [text]),
  ]);
}

/** The classes of a tensor's box: what it is (leaf / op / const) and what it is doing now. */
export function nodeClasses(t, snap, ended = false) {
  const classes = ['node', t.op ? 'op' : t.requiresGrad ? 'leaf' : 'const'];
  if (snap.active === t.id) classes.push('active');
  if (snap.active === t.id && snap.event?.type === 'tensor') classes.push('born'); // the forward pass adds it now
  // A grad_fn that ran in an earlier backward is spent; a leaf lives on and accumulates.
  if (t.ranIn === snap.backwardCount) classes.push('ran');
  else if (t.ranIn !== null && t.op) classes.push('done');
  // freed once its backward is over: a later event came, or the program ended
  const passOver = t.freedIn !== null && (t.freedIn < snap.backwardCount || snap.backward?.done || ended);
  if (t.op && passOver) classes.push('freed');
  if (snap.backward && snap.backward.root === t.id && t.ranIn === snap.backwardCount) classes.push('root');
  const ev = snap.event;
  if (ev && String(ev.tensor) === t.id && (ev.type === 'accumulate' || ev.type === 'grad_reset')) {
    classes.push('grad-changed');
  }
  return classes;
}

function drawNode(t, box, snap, ended, full = true) {
  const classes = nodeClasses(t, snap, ended);
  if (!full) classes.push('lite');
  const chars = Math.floor((box.width - 2 * PAD_X) / CHAR_W);
  const heat = full ? nodeHeat(t) : null;
  const texts = full ? nodeRows(t) : [];
  const at = texts.findIndex((r) => r.cls === 'value');
  const top = (i) => PAD_Y + ROW_H * i + (heat && i > at ? heatExtra(heat) : 0);
  const rows = texts.map((r, i) =>
    heat && i === at
      ? svg(
          'g',
          { class: 'row heat', transform: `translate(${PAD_X},${top(i) + 3})` },
          heatCells(t.values, GRAPH_CELL).cells,
        )
      : svg('text', { x: PAD_X, y: top(i) + 12.5, class: `row ${r.cls}` }, [fit(r.text, chars)]),
  );
  const gradRow = full && t.isLeaf && t.requiresGrad ? rows.length - 1 : -1;
  const children = [
    ...(full ? [svg('title', {}, [nodeTooltip(t)])] : []), // (a node drawn lite gets its tooltip on hover)
    svg('rect', { class: 'box', width: box.width, height: box.height, rx: t.op ? 10 : 4 }),
  ];
  if (gradRow >= 0) {
    const y = top(gradRow) - 1;
    children.push(svg('rect', { class: 'grad-band', x: 1, y, width: box.width - 2, height: ROW_H + 2 }));
  }
  if (classes.includes('freed')) {
    children.push(svg('text', { class: 'freed-badge', x: box.width - 4, y: -4 }, ['graph freed']));
  }
  const attrs = { class: classes.join(' '), 'data-node-id': t.id, transform: `translate(${box.x},${box.y})` };
  if (t.line) attrs['data-line'] = t.line;
  if (snap.active === t.id) attrs['data-current'] = 'true';
  attrs['data-names'] = nodeNames(t).join('|');
  return svg('g', attrs, [...children, ...rows, nameText(box)]);
}

/** AccumulateGrad of a leaf: lights up when it writes `.grad` (and says what it added). */
function drawAcc(t, box, snap) {
  const ev = snap.event;
  const now = ev?.type === 'accumulate' && String(ev.tensor) === t.id;
  const text = now ? `+ ${formatCompact(ev.delta, 11)}` : 'AccumulateGrad';
  const attrs = {
    class: `acc${now ? ' writing' : ''}`,
    'data-acc-for': t.id,
    transform: `translate(${box.x},${box.y})`,
  };
  attrs['data-names'] = 'AccumulateGrad|acc';
  return svg('g', attrs, [
    svg('title', {}, [`AccumulateGrad: adds the gradient reaching ${t.name || `t${t.id}`} to its .grad`]),
    svg('rect', { width: box.width, height: box.height, rx: 13 }),
    svg('text', { x: box.width / 2, y: 17, 'text-anchor': 'middle', class: 'row' }, [now ? text : 'AccumulateGrad']),
    nameText(box),
  ]);
}

/** What a module says: its path and class (`model.0 · Linear`). */
export function moduleLabel(snap, path) {
  const kind = Object.values(snap.tensors).find((t) => t.module === path)?.moduleType;
  return kind ? `${path} · ${kind}` : path;
}

/** A collapsed module: one box for the nodes its call made (click: expand). */
function drawModule(box, path, label) {
  const attrs = { class: 'cluster collapsed', 'data-module': path, transform: `translate(${box.x},${box.y})` };
  attrs['data-names'] = `${label}|${path}|${label.split(' · ')[1] || path}|▸`;
  return svg('g', attrs, [
    svg('title', {}, [`${label}, collapsed: click to show the nodes its call made`]),
    svg('rect', { class: 'box', width: box.width, height: box.height, rx: 8 }),
    svg('text', { x: 12, y: 29, class: 'row cluster-label' }, [`${label} ▸`]),
    nameText(box),
  ]);
}

/** The drawn graph at its own size (no zoom), every row shown, for export as SVG or PNG. */
export function exportSVG(canvas, viewport, { width, height }) {
  const copy = /** @type {SVGSVGElement} */ (canvas.cloneNode(true));
  copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
  copy.setAttribute('width', String(Math.ceil(width)));
  copy.setAttribute('height', String(Math.ceil(height)));
  copy.querySelector('.viewport')?.removeAttribute('transform');
  copy.classList.remove('z-names');
  copy.classList.add('z-full');
  return { live: viewport, copy, width, height };
}

/** The loop's folded iterations, where a tensor shown was made from one of them. */
function drawFold(box, to) {
  const attrs = { class: 'fold', 'data-fold-for': to, transform: `translate(${box.x},${box.y})` };
  attrs['data-names'] = '⋯ folded|⋯';
  return svg('g', attrs, [
    svg('title', {}, ['Made from a folded loop iteration: the iterations between were counted, not traced']),
    svg('rect', { width: box.width, height: box.height, rx: 6 }),
    svg('text', { x: 10, y: 19, class: 'row' }, ['⋯ folded iterations']),
    nameText(box),
  ]);
}

/** The gradient entering at the root: 1 for a scalar, the vector v of vᵀ·J otherwise. */
function drawSeed(b, box, scalar, now) {
  const [value, what] = seedRows(b.gradient, scalar);
  const attrs = { class: `seed${scalar ? '' : ' vjp'}${now ? ' active' : ''}`, 'data-seed-for': b.root };
  attrs.transform = `translate(${box.x},${box.y})`;
  attrs['data-names'] = `${value}|gradient|∂`;
  return svg('g', attrs, [
    svg('rect', { width: box.width, height: box.height, rx: 6 }),
    svg('text', { x: 10, y: 17, class: 'row value' }, [value]),
    svg('text', { x: 10, y: 33, class: 'row what' }, [what]),
    nameText(box),
  ]);
}
