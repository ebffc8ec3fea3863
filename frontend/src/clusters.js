// Collapsing a module's cluster to one box and expanding it again (issue 12, point 3): pure rewriting of what the
// graph panel lays out, and the panel's set of collapsed modules, toggled by clicking a cluster or its box.

export const moduleId = (path) => `mod:${path}`;

/**
 * The boxes and edges to lay out with the modules in `closed` collapsed: each becomes one box (`mod:<path>`), the
 * edges that crossed its frame now end at that box (same edge ids: they still carry their gradients), and the edges
 * inside it go.
 * @param {{boxes: import('./layout.js').BoxIn[], edges: import('./layout.js').EdgeIn[]}} model
 * @param {Set<string>} closed  module paths
 * @param {(path: string) => string} label  what a collapsed module's box says
 */
export function collapseModules({ boxes, edges }, closed, label) {
  if (!closed.size) return { boxes, edges };
  const into = new Map(); // a box inside a collapsed module → that module's box
  for (const b of boxes) if (b.cluster && closed.has(b.cluster)) into.set(b.id, moduleId(b.cluster));
  for (const b of boxes) if (b.below && into.has(b.below)) into.set(b.id, into.get(b.below));
  const kept = boxes.filter((b) => !into.has(b.id));
  const tallest = new Map(); // module box → the tallest box it holds
  for (const b of boxes) {
    const m = into.get(b.id);
    if (m) tallest.set(m, Math.max(tallest.get(m) ?? 0, b.height));
  }
  for (const path of closed) {
    const id = moduleId(path);
    if (!tallest.has(id)) continue; // not drawn in this view
    // as big as the tensors it holds at least, so that zoomed out it still shows its path or class where they would
    const width = Math.max(230, Math.ceil(label(path).length * 7.3 + 24));
    kept.push({ id, width, height: Math.max(48, tallest.get(id) ?? 0) });
  }
  const at = (id) => into.get(id) ?? id;
  const rerouted = edges
    .filter((e) => at(e.from) !== at(e.to))
    .map((e) => (into.has(e.from) || into.has(e.to) ? { ...e, from: at(e.from), to: at(e.to) } : e));
  return { boxes: kept, edges: rerouted };
}

/**
 * The panel's collapsed modules: a click on a cluster (or a collapsed module's box) toggles it.
 * @param {Element} viewport  where the clusters are drawn
 * @param {() => void} changed  draw again
 */
export function createModuleToggle(viewport, changed) {
  const closed = new Set();
  viewport.addEventListener('click', (e) => {
    const g = /** @type {Element} */ (e.target).closest('[data-module]');
    const path = g?.getAttribute('data-module');
    if (!path || /** @type {Element} */ (e.target).closest('[data-node-id]')) return; // a node inside: not a toggle
    if (closed.has(path)) closed.delete(path);
    else closed.add(path);
    changed();
  });
  return { closed, key: () => [...closed].sort().join(','), reset: () => closed.clear() };
}
