// Graph panel: draws the autograd graph of a snapshot as SVG. Positions come from layout.js and are computed
// once per run (from the final snapshot), so nodes stay put while the learner steps through time.

import { layoutGraph } from './layout.js';
import { CHAR_W, PAD_X, PAD_Y, ROW_H, fit, graphWindow, nodeRows, nodeSize, nodeTooltip } from './nodeview.js';
import { formatCompact } from './format.js';
import { svg } from './svg.js';

const MIN_SCALE = 0.7; // below this, text gets too small to read: scroll instead

/**
 * @param {HTMLElement} root  The scrollable panel body (data-testid="graph").
 */
export function createGraphPanel(root) {
  /** @type {{final: any, key: string, layout: import('./layout.js').Layout}|null} */
  let cache = null;
  /** @type {{final: any, snap: any}|null} */
  let last = null;
  let scale = 1;

  const canvas = svg('svg', { class: 'graph-svg', role: 'img', 'aria-label': 'autograd graph' });
  const empty = document.createElement('p');
  empty.className = 'graph-empty';
  empty.textContent = 'Run the code to see its autograd graph.';
  const note = document.createElement('p');
  note.className = 'graph-note';
  note.hidden = true;
  root.append(note, empty, canvas);

  function layoutFor(final, view) {
    const key = `${view.start}:${view.end}`;
    if (cache && cache.final === final && cache.key === key) return cache.layout;
    const boxes = view.ids.map((id) => ({ id, ...nodeSize(final.tensors[id], final.ledger[id]) }));
    // Keep room beside each edge for the gradient it will carry (shaped like its input tensor).
    const edges = final.edges.map((e) => ({ ...e, label: labelSize(gradText(final.tensors[e.from]?.values)) }));
    const layout = layoutGraph(boxes, edges);
    cache = { final, key, layout };
    return layout;
  }

  function fitScale(layout) {
    const avail = root.clientWidth || layout.width;
    return Math.max(MIN_SCALE, Math.min(1, (avail - 2) / layout.width));
  }

  /**
   * @param {import('./reducer.js').Snapshot} final  The snapshot after all events so far (fixes the layout).
   * @param {import('./reducer.js').Snapshot} snap   The snapshot at the current step.
   */
  function render(final, snap) {
    last = { final, snap };
    const view = graphWindow(final, snap);
    const layout = layoutFor(final, view);
    scale = fitScale(layout);
    note.hidden = view.ids.length === view.total;
    note.textContent = `Showing tensors ${view.start + 1}–${view.end} of ${view.total} (and the leaves they use): the window follows the current step.`;
    canvas.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
    canvas.setAttribute('width', String(Math.round(layout.width * scale)));
    canvas.setAttribute('height', String(Math.round(layout.height * scale)));
    const shown = view.ids.filter((id) => id in snap.tensors);
    empty.hidden = shown.length > 0;
    empty.textContent = snap.order.length
      ? 'No tensor requires grad yet: nothing for autograd to record.'
      : 'Run the code to see its autograd graph.';

    const defs = svg('defs', {}, [arrow('arrow', 'edge-arrow'), arrow('arrow-grad', 'edge-arrow grad')]);
    const edges = svg('g', { class: 'edges' });
    const labels = svg('g', { class: 'edge-labels' });
    for (const e of snap.edges) {
      const points = layout.edges[e.id];
      if (!points || !points.length) continue;
      const grad = snap.edgeGrads[e.id];
      const carries = grad !== undefined;
      const intoActive = carries && e.to === snap.active && snap.event?.type === 'node';
      edges.append(
        svg('path', {
          class: `edge${carries ? ' grad' : ''}${intoActive ? ' fresh' : ''}`,
          d: pathOf(points),
          'marker-end': `url(#${carries ? 'arrow-grad' : 'arrow'})`,
          'data-edge-id': e.id,
        }),
      );
      const spot = layout.labels[e.id];
      if (carries && spot) labels.append(edgeLabel(spot, gradText(grad), intoActive));
    }

    const nodes = svg('g', { class: 'nodes' });
    for (const id of shown) {
      const t = snap.tensors[id];
      const box = layout.nodes[id];
      if (box) nodes.append(drawNode(t, box, snap));
    }
    canvas.replaceChildren(defs, edges, nodes, labels);
    scrollToActive(layout, snap);
  }

  function scrollToActive(layout, snap) {
    const box = snap.active ? layout.nodes[snap.active] : null;
    if (!box) return;
    const left = box.x * scale;
    const top = box.y * scale;
    const right = left + box.width * scale;
    const bottom = top + box.height * scale;
    if (left < root.scrollLeft || right > root.scrollLeft + root.clientWidth) {
      root.scrollLeft = Math.max(0, left - 24);
    }
    if (top < root.scrollTop || bottom > root.scrollTop + root.clientHeight) {
      root.scrollTop = Math.max(0, top - 24);
    }
  }

  if (typeof ResizeObserver === 'function') {
    let width = 0;
    new ResizeObserver(() => {
      if (last && root.clientWidth !== width) {
        width = root.clientWidth;
        render(last.final, last.snap);
      }
    }).observe(root);
  }

  function clear() {
    cache = null;
    last = null;
    canvas.replaceChildren();
    canvas.setAttribute('width', '0');
    canvas.setAttribute('height', '0');
    empty.hidden = false;
  }

  return { render, clear };
}

function arrow(id, cls) {
  return svg(
    'marker',
    { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
    [svg('path', { d: 'M0,0 L10,5 L0,10 z', class: cls })],
  );
}

function pathOf(points) {
  const [first, ...rest] = points;
  return `M${first.x},${first.y}${rest.map((p) => ` L${p.x},${p.y}`).join('')}`;
}

const LABEL_CHARS = 18;
const LABEL_CHAR_W = CHAR_W * 0.92; // labels use an 11px font

/** "∂ 4." — the gradient an edge carries in the backward pass. */
function gradText(values) {
  return `∂ ${formatCompact(values ?? 0, LABEL_CHARS)}`;
}

function labelSize(text) {
  return { width: Math.ceil(text.length * LABEL_CHAR_W + 10), height: 18 };
}

function edgeLabel(spot, text, fresh) {
  const width = Math.max(spot.width, labelSize(text).width);
  return svg('g', { class: `edge-label${fresh ? ' fresh' : ''}`, transform: `translate(${spot.x},${spot.y})` }, [
    svg('rect', { width, height: spot.height, rx: 4 }),
    svg('text', { x: 5, y: 13 }, [text]),
  ]);
}

/** One tensor's box: classes say what it is (leaf / op / const) and what it is doing now (active, ran, done). */
function drawNode(t, box, snap) {
  const classes = ['node', t.op ? 'op' : t.requiresGrad ? 'leaf' : 'const'];
  if (snap.active === t.id) classes.push('active');
  // A grad_fn that ran in an earlier backward is spent (its graph was freed); a leaf lives on and accumulates.
  if (t.ranIn === snap.backwardCount) classes.push('ran');
  else if (t.ranIn !== null && t.op) classes.push('done');
  if (snap.backward && snap.backward.root === t.id && t.ranIn === snap.backwardCount) classes.push('root');
  const ev = snap.event;
  if (ev && String(ev.tensor) === t.id && (ev.type === 'accumulate' || ev.type === 'grad_reset')) {
    classes.push('grad-changed');
  }
  const chars = Math.floor((box.width - 2 * PAD_X) / CHAR_W);
  const rows = nodeRows(t).map((r, i) =>
    svg('text', { x: PAD_X, y: PAD_Y + ROW_H * i + 12.5, class: `row ${r.cls}` }, [fit(r.text, chars)]),
  );
  const gradRow = t.isLeaf && t.requiresGrad ? rows.length - 1 : -1;
  const children = [
    svg('title', {}, [nodeTooltip(t)]),
    svg('rect', { class: 'box', width: box.width, height: box.height, rx: t.op ? 10 : 4 }),
  ];
  if (gradRow >= 0) {
    children.push(
      svg('rect', {
        class: 'grad-band',
        x: 1,
        y: PAD_Y + ROW_H * gradRow - 1,
        width: box.width - 2,
        height: ROW_H + 2,
      }),
    );
  }
  return svg('g', { class: classes.join(' '), 'data-node-id': t.id, transform: `translate(${box.x},${box.y})` }, [
    ...children,
    ...rows,
  ]);
}
