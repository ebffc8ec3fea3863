// Loss curve panel: the value of each scalar backward() root (the loss) over the backward calls, drawn with
// uPlot. It appears once a run has called backward() on a scalar at least twice (a training loop).

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { plain } from './explain.js';

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
    }
  });
  return [xs, ys];
}

/**
 * @param {HTMLElement} section  The panel (hidden while there is no curve to draw).
 * @param {HTMLElement} root  Where the chart goes.
 * @param {HTMLElement} caption  The loss at the current step.
 */
export function createLossPanel(section, root, caption) {
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
          size: 64,
        },
      ],
      series: [{}, { label: 'loss', stroke: '#ea580c', width: 2, points: { show: true, size: 5 } }],
    };
  }

  /**
   * @param {import('./reducer.js').Snapshot} final
   * @param {import('./reducer.js').Snapshot} snap
   */
  function render(final, snap) {
    const data = lossSeries(final);
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
    if (!plot) plot = new uPlot(options(width, data), data, root);
    if (plot.width !== width) plot.setSize({ width, height: 160 });
    drawnFor = final;
    const i = data[0].lastIndexOf(snap.backwardCount);
    caption.textContent =
      i >= 0
        ? `backward #${data[0][i]}: loss ${plain(data[1][i])} (of ${data[0].length} calls)`
        : `${data[0].length} backward() calls; step through the run to follow the loss`;
  }

  function clear() {
    plot?.destroy();
    plot = null;
    drawnFor = null;
    section.hidden = true;
  }

  return { render, clear };
}
