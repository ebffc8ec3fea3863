// Search in the graph: by variable name (`x`, `loss`), op (`mul`, `PowBackward0`) or parameter / module name
// (`model.0.weight`, `model.2`). Matching nodes are marked; Enter moves the view to each in turn.

/**
 * Does tensor `t` answer the query? Its name, its grad_fn (with and without `Backward0`), its module path.
 * @param {import('./reducer.js').TensorState} t
 * @param {string} query  lower case, trimmed, not empty
 */
export function matches(t, query) {
  const op = (t.op || '').toLowerCase();
  const words = [t.name || '', op, op.replace(/backward\d*$/, ''), t.module || ''].map((w) => w.toLowerCase());
  return words.some((w) => w && w.includes(query));
}

/**
 * @param {HTMLElement} parent  where the search box goes
 * @param {{boxOf: (id: string) => {x: number, y: number, width: number, height: number}|undefined,
 *   centreOn: (x: number, y: number) => void}} opts  where a node is drawn; move the view's centre there
 */
export function createGraphSearch(parent, { boxOf, centreOn }) {
  const el = (tag, props) => Object.assign(document.createElement(tag), props);
  const box = el('input', { type: 'search', className: 'graph-search', placeholder: 'find: x, mul, model.0…' });
  box.setAttribute('aria-label', 'Search the graph by variable name, op or parameter');
  const count = el('span', { className: 'graph-found', role: 'status' });
  parent.prepend(box, count);
  let found = /** @type {string[]} */ ([]);
  let at = -1;
  let redo = () => {};

  box.addEventListener('input', () => {
    at = -1;
    redo();
  });
  box.addEventListener('keydown', (e) => {
    e.stopPropagation(); // the page's keys (arrows, Home, Space) are for the timeline, not while typing here
    if (e.key !== 'Enter' || !found.length) return;
    at = (at + (e.shiftKey ? found.length - 1 : 1)) % found.length;
    count.textContent = `${at + 1} of ${found.length}`;
    const b = boxOf(found[at]);
    if (b) centreOn(b.x + b.width / 2, b.y + b.height / 2);
  });

  /**
   * Mark the drawn nodes that answer the query (after every redraw).
   * @param {Element} viewport
   * @param {import('./reducer.js').Snapshot} snap
   */
  function mark(viewport, snap) {
    redo = () => mark(viewport, snap);
    const query = box.value.trim().toLowerCase();
    found = [];
    for (const g of viewport.querySelectorAll('[data-node-id]')) {
      const id = g.getAttribute('data-node-id') || '';
      const hit = Boolean(query) && Boolean(snap.tensors[id]) && matches(snap.tensors[id], query);
      g.classList.toggle('found', hit);
      if (hit) found.push(id);
    }
    if (at >= found.length) at = -1;
    count.textContent = !query ? '' : found.length ? `${found.length} found` : 'none found';
  }

  return { mark };
}
