// Turning tensor values into short text, close to how PyTorch prints them (4. / 0.2500 / [2., 4., 6.]).

const SPECIAL = { nan: 'nan', inf: 'inf', '-inf': '-inf' };

/** Flatten nested lists into one array of leaves. */
export function flatten(values) {
  return Array.isArray(values) ? values.flatMap(flatten) : [values];
}

const isSummary = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && v.summarized;

/** The per-tensor number style, as PyTorch picks it: integers print as "4.", else 4 decimals, or scientific. */
function styleFor(nums, dtype) {
  if (dtype && /int|long|bool/.test(dtype)) return 'int';
  const finite = nums.filter((x) => typeof x === 'number' && Number.isFinite(x));
  if (finite.every((x) => Number.isInteger(x))) {
    return finite.some((x) => Math.abs(x) >= 1e8) ? 'sci' : 'whole';
  }
  const abs = finite.map(Math.abs).filter((x) => x > 0);
  if (!abs.length) return 'fixed';
  let lo = Infinity;
  let hi = 0;
  for (const x of abs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  // PyTorch's rule (torch/_tensor_str.py): scientific when the nonzero magnitudes span over 1000×, or reach
  // 1e8, or go under 1e-4; otherwise 4 decimals
  return hi / lo > 1000 || hi >= 1e8 || lo < 1e-4 ? 'sci' : 'fixed';
}

function num(x, style) {
  if (typeof x === 'string') return SPECIAL[x] ?? x;
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  if (typeof x !== 'number') return String(x);
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  switch (style) {
    case 'int':
      return String(x);
    case 'whole':
      return `${x}.`;
    case 'sci':
      return x.toExponential(4).replace(/e([+-])(\d)$/, 'e$10$2');
    default:
      return x.toFixed(4);
  }
}

function nested(values, style) {
  if (Array.isArray(values)) return `[${values.map((v) => nested(v, style)).join(', ')}]`;
  return num(values, style);
}

/**
 * Full text of a value: "4.", "[2., 4., 6.]", "None", or a summary for large tensors.
 * @param {any} values
 * @param {string} [dtype]
 */
export function formatValues(values, dtype) {
  if (values === null || values === undefined) return 'None';
  if (isSummary(values)) {
    const style = styleFor([values.min, values.max, values.mean], dtype);
    const shape = (values.shape || []).join('×');
    return `[${shape}] min ${num(values.min, style)} max ${num(values.max, style)} mean ${num(values.mean, style)}`;
  }
  return nested(values, styleFor(flatten(values), dtype));
}

/**
 * A value cut to at most `max` characters (first elements, then "…"), for graph nodes.
 * @param {any} values
 * @param {number} max
 * @param {string} [dtype]
 */
export function formatCompact(values, max, dtype) {
  const full = formatValues(values, dtype);
  if (full.length <= max) return full;
  if (isSummary(values) || !Array.isArray(values)) return `${full.slice(0, max - 1)}…`;
  const flat = flatten(values);
  const style = styleFor(flat, dtype);
  let text = '[';
  for (const x of flat) {
    const next = `${text}${text === '[' ? '' : ', '}${num(x, style)}`;
    if (next.length + 3 > max) break;
    text = next;
  }
  return `${text}, …]`;
}

/** "tensor(4.)" / "tensor([2., 4., 6.])", as print(x) shows it (without PyTorch's line wrapping). */
export function formatTensor(values, dtype) {
  return values === null || values === undefined ? 'None' : `tensor(${formatValues(values, dtype)})`;
}

/** Shape as PyTorch writes it: [] for a scalar, [3, 2] otherwise. */
export function formatShape(shape) {
  return `[${(shape || []).join(', ')}]`;
}

/** A tensor's display name: its variable name, or t<id>. */
export function tensorLabel(t) {
  return t ? t.name || `t${t.id}` : '?';
}

/** A number as a learner writes it, with PyTorch's digits: 4, 0.25, 0.3333, -8.1857e-06 (never rounded to 0). */
export function plainNumber(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return num(x, 'fixed');
  if (Number.isInteger(x) && Math.abs(x) < 1e8) return String(x);
  const a = Math.abs(x);
  if (a < 1e-4 || a >= 1e8) return num(x, 'sci');
  const fixed = x.toFixed(4);
  if (Number(fixed) !== x) return fixed; // rounded: PyTorch's 4 decimals, so 0.99999 reads 1.0000, not 1
  return fixed.replace(/\.?0+$/, '');
}

/** Every digit of a value, for a tooltip: 0.3333333432674408, [2, 4, 6]. */
export function fullValue(values) {
  if (values === null || values === undefined) return 'None';
  if (isSummary(values)) return formatValues(values);
  const text = JSON.stringify(values);
  return text.length > 4000 ? `${text.slice(0, 3999)}…` : text.replace(/,/g, ', ');
}
