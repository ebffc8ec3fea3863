import { expect, it } from 'vitest';
import { labelRoom } from '../src/clusterroom.js';
import { collapseModules } from '../src/clusters.js';
import { moduleLabel } from '../src/graphdraw.js';
import { graphModel } from '../src/graphmodel.js';
import { layoutGraph } from '../src/layout.js';
import { graphWindow } from '../src/nodeview.js';
import { snapshotAt } from '../src/reducer.js';
import { fixture } from './fixtures.js';

const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every module label or frame that covers another module's, a box outside it or an edge's label. */
function overlaps(model, out, font = 12) {
  const clusterOf = new Map();
  const own = new Map(model.boxes.map((b) => [b.id, b.cluster]));
  for (const b of model.boxes) {
    const path = b.cluster ?? (b.below ? own.get(b.below) : undefined);
    if (path) clusterOf.set(b.id, path);
  }
  const width = Object.fromEntries(model.boxes.filter((b) => b.cluster).map((b) => [b.cluster, b.clusterLabel]));
  const found = [];
  for (const [path, frame] of Object.entries(out.clusters || {})) {
    const room = labelRoom(width[path], font);
    const label = { x: frame.x, y: frame.y - room.height, ...room };
    for (const [id, box] of Object.entries(out.nodes)) {
      if (clusterOf.get(id) === path) continue;
      if (meets(label, box)) found.push(`${path}'s label covers ${id}`);
      if (meets(frame, box)) found.push(`${path}'s frame covers ${id}`);
    }
    for (const [id, spot] of Object.entries(out.labels))
      if (meets(label, spot)) found.push(`${path}'s label covers edge label ${id}`);
    for (const [other, f] of Object.entries(out.clusters)) {
      if (other === path) continue;
      const r = labelRoom(width[other], font);
      const l = { x: f.x, y: f.y - r.height, ...r };
      if (meets(label, f) || meets(label, l)) found.push(`${path}'s label covers ${other}`);
      if (meets(frame, f)) found.push(`${path}'s frame covers ${other}'s`);
    }
    if (label.y < 0) found.push(`${path}'s label is above the picture`);
  }
  return found;
}

const events = fixture('mlp').events;
const final = snapshotAt(events, events.length);
const { ids } = graphWindow(final, final);

it('keeps the MLP modules labels off every other module and box', () => {
  const model = graphModel(final, ids);
  expect(model.boxes.find((b) => b.cluster === 'model.3')?.clusterLabel).toBeGreaterThan(90); // "model.3 · ReLU"
  const out = layoutGraph(model.boxes, model.edges);
  expect(Object.keys(out.clusters || {}).sort()).toEqual(['model.0', 'model.1', 'model.2', 'model.3', 'model.4']);
  expect(overlaps(model, out)).toEqual([]);
});

it('keeps room for labels zoomed out (a bigger font), and says how much', () => {
  const model = graphModel(final, ids);
  const out = layoutGraph(model.boxes, model.edges, { labelFont: 55 });
  expect(overlaps(model, out, 55)).toEqual([]);
  const frame = out.clusters?.['model.0'];
  expect(frame?.labelHeight).toBe(labelRoom(0, 55).height);
  expect(frame?.labelWidth).toBeGreaterThan(400); // "model.0 · Linear" at 55 units
});

it('keeps them apart with any one module collapsed, as the panel lays it out', () => {
  for (const path of ['model.0', 'model.1', 'model.2', 'model.3', 'model.4']) {
    const model = collapseModules(graphModel(final, ids), new Set([path]), (p) => moduleLabel(final, p));
    const out = layoutGraph(model.boxes, model.edges, { labelFont: 30 });
    expect(overlaps(model, out, 30), `with ${path} collapsed`).toEqual([]);
    // the edges still start and end on their boxes after the bands moved them
    for (const e of model.edges) {
      const points = out.edges[e.id];
      const [from, to] = [out.nodes[e.from], out.nodes[e.to]];
      if (!points?.length || !from || !to) continue;
      const first = points[0];
      const last = points[points.length - 1];
      expect(first.y, e.id).toBeGreaterThanOrEqual(from.y - 0.5);
      expect(first.y, e.id).toBeLessThanOrEqual(from.y + from.height + 0.5);
      expect(last.y, e.id).toBeGreaterThanOrEqual(to.y - 0.5);
      expect(last.y, e.id).toBeLessThanOrEqual(to.y + to.height + 0.5);
    }
  }
});
