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
          ...(log ? { splits: logTicks, values: (_, ticks) => ticks.map((v) => plain(v)) } : {}),
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

/** Log-axis ticks: 1, 2 and 5 times each power of ten in [min, max] (every power of ten if that is too many). */
export function logTicks(_u, _axis, min, max) {
  const ticks = [];
  if (!(min > 0) || !(max > min)) return [min, max].filter((v) => v > 0);
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const steps = hi - lo > 6 ? [1] : [1, 2, 5];
  for (let p = lo; p <= hi; p++) {
    for (const m of steps) {
      const v = Number((m * 10 ** p).toPrecision(12));
      if (v >= min * 0.999 && v <= max * 1.001) ticks.push(v);
    }
  }
  return ticks;
}
