// The minimap: the whole graph in a corner (a canvas: one rectangle per node), the part in view outlined, the
// current node marked. Clicking it moves the view there. Shown only while part of the graph is out of view.

const W = 168;
const H = 104;

/** @param {{onPick: (x: number, y: number) => void}} opts  x, y: the graph point clicked (graph units). */
export function createMinimap({ onPick }) {
  const el = document.createElement('canvas');
  el.className = 'minimap';
  el.width = W * 2; // sharp on high-density screens
  el.height = H * 2;
  el.dataset.testid = 'minimap';
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', 'minimap: the whole graph, with the part in view outlined');
  el.hidden = true;
  const ctx = el.getContext('2d', { willReadFrequently: true });
  /** @type {{layout: any, current: string|null, s: number, ox: number, oy: number}|null} */
  let drawn = null;
  let image = /** @type {ImageData|null} */ (null);
  /** The theme's colours, read once (reading styles right after a redraw would force a style pass over it). */
  let palette = /** @type {Record<string, string>|null} */ (null);
  const colours = () => {
    if (!palette) {
      const styles = getComputedStyle(document.documentElement);
      const c = (v, fallback) => styles.getPropertyValue(v).trim() || fallback;
      palette = {
        op: c('--op', '#2563eb'),
        leaf: c('--leaf', '#047857'),
        other: c('--muted', '#94a3b8'),
        active: c('--active', '#7c3aed'),
      };
    }
    return palette;
  };
  if (typeof matchMedia === 'function')
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => (palette = null));

  /**
   * Draw the graph: a rectangle per node, coloured by what it is.
   * @param {(id: string) => 'op'|'leaf'|'other'} kindOf
   */
  function draw(layout, current, kindOf) {
    if (!ctx) return;
    const s = Math.min(W / layout.width, H / layout.height);
    const ox = (W - layout.width * s) / 2;
    const oy = (H - layout.height * s) / 2;
    drawn = { layout, current, s, ox, oy };
    ctx.setTransform(2, 0, 0, 2, 0, 0);
    ctx.clearRect(0, 0, W, H);
    const { op, leaf, other } = colours();
    for (const [id, b] of Object.entries(layout.nodes)) {
      const kind = kindOf(id);
      ctx.fillStyle = kind === 'op' ? op : kind === 'leaf' ? leaf : other;
      ctx.fillRect(ox + b.x * s, oy + b.y * s, Math.max(1.5, b.width * s), Math.max(1.5, b.height * s));
    }
    const c = current && layout.nodes[current];
    if (c) {
      ctx.fillStyle = colours().active;
      const pad = 2;
      ctx.fillRect(ox + c.x * s - pad, oy + c.y * s - pad, c.width * s + 2 * pad, c.height * s + 2 * pad);
    }
    image = ctx.getImageData(0, 0, el.width, el.height);
  }

  /** Outline the part in view (t: the zoom transform; w × h: the panel). Hidden when everything is in view. */
  function view(t, w, h) {
    if (!drawn || !ctx || !image) return;
    const { layout, s, ox, oy } = drawn;
    const x0 = -t.x / t.k;
    const y0 = -t.y / t.k;
    const x1 = x0 + w / t.k;
    const y1 = y0 + h / t.k;
    const all = x0 <= 1 && y0 <= 1 && x1 >= layout.width - 1 && y1 >= layout.height - 1;
    el.hidden = all;
    if (all) return;
    ctx.putImageData(image, 0, 0);
    ctx.setTransform(2, 0, 0, 2, 0, 0);
    ctx.strokeStyle = colours().active;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(ox + x0 * s, oy + y0 * s, (x1 - x0) * s, (y1 - y0) * s);
  }

  el.addEventListener('click', (e) => {
    if (!drawn) return;
    const r = el.getBoundingClientRect();
    const { s, ox, oy } = drawn;
    onPick((((e.clientX - r.left) * W) / r.width - ox) / s, (((e.clientY - r.top) * H) / r.height - oy) / s);
  });

  function clear() {
    drawn = null;
    image = null;
    el.hidden = true;
  }

  return { el, draw, view, clear };
}
