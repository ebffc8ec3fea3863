// Large tensors as small heatmaps: one cell per element (blue negative, orange positive), the shape beside it
// and every value in the tooltip. SVG, so it prints and exports like the rest.

import { flatten, formatShape, formatValues } from './format.js';
import { svg } from './svg.js';

export const HEATMAP_MIN = 12; // fewer elements read fine as text

/** Rows × columns of a value as drawn: 2-d as is, 1-d as one row, higher ranks flattened to their last dim. */
export function grid(values) {
  if (!Array.isArray(values)) return null;
  if (!Array.isArray(values[0])) return [values];
  const rows = [];
  const walk = (v) => (Array.isArray(v[0]) ? v.forEach(walk) : rows.push(v));
  walk(values);
  return rows;
}

/** Whether `values` is big enough (and plain enough) to draw as a heatmap. */
export function wantsHeatmap(values) {
  return Array.isArray(values) && flatten(values).filter((x) => typeof x === 'number').length >= HEATMAP_MIN;
}

/** Cell size for a grid: `cell`, halved for big grids. */
const cellFor = (rows, cols, cell) => (rows > 24 || cols > 40 ? Math.max(2, Math.floor(cell / 2)) : cell);

/** The size a heatmap of `values` takes (null if it isn't drawn as one). */
export function heatSize(values, cell = 7) {
  if (!wantsHeatmap(values)) return null;
  const rows = grid(values) || [];
  const cols = Math.max(1, ...rows.map((r) => r.length));
  const c = cellFor(rows.length, cols, cell);
  return { width: cols * c, height: rows.length * c, cell: c };
}

/**
 * The cells of a heatmap as SVG rects (blue negative, orange positive, opacity by magnitude).
 * @param {any} values  nested lists
 * @param {number} [cell]
 */
export function heatCells(values, cell = 7) {
  const rows = grid(values) || [];
  const nums = flatten(values).filter((x) => typeof x === 'number' && Number.isFinite(x));
  const top = Math.max(1e-12, ...nums.map(Math.abs));
  const cols = Math.max(1, ...rows.map((r) => r.length));
  const c = cellFor(rows.length, cols, cell);
  const cells = [];
  rows.forEach((r, i) =>
    r.forEach((x, j) => {
      const v = typeof x === 'number' && Number.isFinite(x) ? x / top : 0;
      const cls = v < 0 ? 'neg' : 'pos';
      const opacity = (0.12 + 0.88 * Math.abs(v)).toFixed(2);
      cells.push(
        svg('rect', { x: j * c, y: i * c, width: c, height: c, class: `cell ${cls}`, 'fill-opacity': opacity }),
      );
    }),
  );
  return { cells, width: cols * c, height: rows.length * c };
}

/**
 * A heatmap with its shape beside it and every value in the tooltip (for the ledger).
 * @param {any} values  nested lists
 * @param {number[]} shape
 * @param {{cell?: number, label?: string}} [opts]
 */
export function heatmap(values, shape, { cell = 7, label = '' } = {}) {
  const { cells, width: w, height: h } = heatCells(values, cell);
  const title = `${label ? `${label} ` : ''}${formatShape(shape)}\n${formatValues(values)}`;
  const box = svg('svg', { class: 'heatmap', width: w + 2, height: h + 2, viewBox: `-1 -1 ${w + 2} ${h + 2}` }, [
    svg('title', {}, [title]),
    ...cells,
  ]);
  const wrap = document.createElement('span');
  wrap.className = 'heatmap-wrap';
  wrap.title = title;
  const s = document.createElement('span');
  s.className = 'heatmap-shape';
  s.textContent = formatShape(shape);
  wrap.append(box, s);
  return wrap;
}
