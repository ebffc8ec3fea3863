// Loss curve panel: the value of each scalar backward() root (the loss) over the backward calls, drawn with
// uPlot. It appears once a run has called backward() on a scalar at least twice (a training loop).

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { plain } from './explain.js';

/** Per series (its x array): the seq of each backward event, so a click can move the timeline there. */
const seqs = new WeakMap();

/**
 * The loss per iteration, from the trace: [backward call numbers, values] of the scalar roots of the backward()
 * line called most often (a training loop calls the same `loss.backward()` again and again). Empty unless
 * some line called backward() at least twice.
 * @param {import('./reducer.js').Snapshot} final
 * @returns {[number[], number[]]}
 */
export function lossSeries(final) {
  const xs = [];
  const ys = [];
  seqs.set(xs, []);
  const count = new Map();
  for (const p of final.passes) count.set(p.line, (count.get(p.line) || 0) + 1);
  const [line, n] = [...count].sort((a, b) => b[1] - a[1])[0] || [null, 0];
  if (n < 2) return [xs, ys];
  final.passes.forEach((p, i) => {
    // The root's values: from its tensor event, or (a folded iteration's loss) from the backward event itself.
    const t = final.tensors[p.root] ?? { shape: [], values: p.values };
    if (p.line === line && (t.shape || []).length === 0 && typeof t.values === 'number') {
      xs.push(i + 1);
      ys.push(t.values);
      seqs.get(xs).push(p.seq);
    }
  });
  return [xs, ys];
}

/** The seq of the backward() event behind point i of a series from lossSeries. */
export const passSeq = (xs, i) => seqs.get(xs)?.[i] ?? null;

/**
 * @param {HTMLElement} section  The panel (hidden while there is no curve to draw).
 * @param {HTMLElement} root  Where the chart goes.
 * @param {HTMLElement} caption  The loss at the current step (or under the pointer).
 * @param {{onSeek?: (k: number) => void}} [opts]  Clicking a point moves the timeline to its backward().
 */
export function createLossPanel(section, root, caption, { onSeek = () => {} } = {}) {
  let data = /** @type {[number[], number[]]} */ ([[], []]);
  let current = '';
  /** @type {uPlot|null} */
  let plot = null;
  let drawnFor = /** @type {any} */ (null);

  /** The log axis's labels, also written to the chart's data-ticks (they are drawn on a canvas). */
  const labelTicks = (ticks) => {
    const labels = ticks.map(tickLabel);
    root.dataset.ticks = labels.filter(Boolean).join(' ');
    return labels;
  };

  /** A loss that falls over orders of magnitude reads better on a log scale. */
  function options(width, [, ys]) {
    const low = Math.min(...ys);
    const log = low > 0 && Math.max(...ys) / low > 100;
    return {
      width,
      height: 160,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false }, y: log ? { distr: 3 } : {} },
      axes: [
        {
          label: 'backward() call',
          stroke: '#6b7280',
          grid: { stroke: 'rgba(128,128,128,0.15)' },
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
        },
        {
          label: log ? 'loss (log scale)' : 'loss',
          stroke: '#6b7280',
          grid: { stroke: 'rgba(128,128,128,0.15)' },
          size: 72,
          // log scale: a tick at 1, 2 and 5 of each power of ten, written as PyTorch writes numbers
          // (logTicks already keeps them apart: uPlot's own filter, which would blank most of them, is not used)
          ...(log ? { splits: logTicks, filter: (_, ticks) => ticks, values: (_, ticks) => labelTicks(ticks) } : {}),
        },
      ],
      hooks: {
        setCursor: [
          (u) => {
            const i = u.cursor.idx;
            caption.textContent =
              i === null || i === undefined
                ? current
                : `backward #${data[0][i]}: loss ${plain(data[1][i])} (click: go there)`;
            if (i !== null && i !== undefined) caption.title = String(data[1][i]);
          },
        ],
      },
      series: [{}, { label: 'loss', stroke: '#ea580c', width: 2, points: { show: true, size: 5 } }],
    };
  }

  /**
   * @param {import('./reducer.js').Snapshot} final
   * @param {import('./reducer.js').Snapshot} snap
   */
  function render(final, snap) {
    data = lossSeries(final);
    const show = data[0].length >= 2;
    section.hidden = !show;
    if (!show) {
      plot?.destroy();
      plot = null;
      drawnFor = null;
      return;
    }
    const width = Math.max(200, root.clientWidth || 300);
    if (plot && drawnFor !== final) {
      plot.destroy(); // the scale (linear or log) may change with the data
      plot = null;
    }
    if (!plot) {
      plot = new uPlot(options(width, data), data, root);
      const u = plot;
      u.over.addEventListener('click', () => {
        const i = u.cursor.idx;
        const seq = i === null || i === undefined ? null : passSeq(data[0], i);
        if (seq !== null) onSeek(seq + 1);
      });
    }
    if (plot.width !== width) plot.setSize({ width, height: 160 });
    drawnFor = final;
    const i = data[0].lastIndexOf(snap.backwardCount);
    current =
      i >= 0
        ? `backward #${data[0][i]}: loss ${plain(data[1][i])} (of ${data[0].length} calls)`
        : `${data[0].length} backward() calls; step through the run to follow the loss`;
    caption.textContent = current;
    caption.title = i >= 0 ? String(data[1][i]) : '';
  }

  function clear() {
    plot?.destroy();
    plot = null;
    drawnFor = null;
    section.hidden = true;
  }

  return { render, clear };
}

/** At most this many ticks on the log axis: more would write their labels over each other in 160 px. */
export const MAX_LOG_TICKS = 8;

/**
 * Log-axis ticks: 1, 2 and 5 times each power of ten in [min, max]; when that is more than MAX_LOG_TICKS, the
 * powers of ten only, every one or every 2nd, 3rd, … (a multiple of the stride, so 1 is a tick when in range).
 */
export function logTicks(_u, _axis, min, max) {
  if (!(min > 0) || !(max > min)) return [min, max].filter((v) => v > 0);
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const within = (v) => v >= min * 0.999 && v <= max * 1.001;
  const ticks = [];
  for (let p = lo; p <= hi; p++) {
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** p).toPrecision(12));
      if (within(v)) ticks.push(v);
    }
  }
  if (ticks.length <= MAX_LOG_TICKS) return ticks;
  const powers = [];
  for (let p = lo; p <= hi; p++) if (within(Number((10 ** p).toPrecision(12)))) powers.push(p);
  const stride = Math.ceil(powers.length / (MAX_LOG_TICKS - 2));
  return powers.filter((p) => p % stride === 0).map((p) => Number((10 ** p).toPrecision(12)));
}

/** A log tick's label: short (`1e-12`, `0.001`, `50`), never PyTorch's 4 decimals (`1.0000e-12` is too wide). */
export function tickLabel(v) {
  if (v === null || v === undefined) return ''; // uPlot passes null for a tick it leaves out
  const p = Math.log10(v);
  if (Number.isInteger(Number(p.toFixed(9))) && (v < 1e-3 || v >= 1e5)) return `1e${Math.round(p)}`;
  return String(Number(v.toPrecision(6)));
}
