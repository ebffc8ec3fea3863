// Turning tensor values into short text, close to how PyTorch prints them (4. / 0.2500 / [2., 4., 6.]).

const SPECIAL = { nan: 'nan', inf: 'inf', '-inf': '-inf' };

/** Flatten nested lists into one array of leaves. */
export function flatten(values) {
  return Array.isArray(values) ? values.flatMap(flatten) : [values];
}

const isSummary = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && v.summarized;

/** The per-tensor number style: integers print as "4.", otherwise 4 decimals, scientific for extremes. */
function styleFor(nums, dtype) {
  if (dtype && /int|long|bool/.test(dtype)) return 'int';
  const finite = nums.filter((x) => typeof x === 'number' && Number.isFinite(x));
  if (finite.every((x) => Number.isInteger(x))) {
    return finite.some((x) => Math.abs(x) >= 1e8) ? 'sci' : 'whole';
  }
  const abs = finite.map(Math.abs).filter((x) => x > 0);
  if (abs.length && (Math.max(...abs) >= 1e8 || Math.min(...abs) < 1e-4)) return 'sci';
  return 'fixed';
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
