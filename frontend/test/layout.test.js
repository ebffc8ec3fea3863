import { expect, it } from 'vitest';
import { layoutGraph } from '../src/layout.js';
import { graphNodeIds, graphWindow, nodeSize } from '../src/nodeview.js';
import { snapshotAt } from '../src/reducer.js';
import { fixture } from './fixtures.js';

it('lays inputs left of their outputs, with non-overlapping boxes', () => {
  const events = fixture('accumulation').events;
  const s = snapshotAt(events, events.length);
  const boxes = s.order.map((id) => ({ id, ...nodeSize(s.tensors[id], s.ledger[id]) }));
  const out = layoutGraph(boxes, s.edges);
  expect(Object.keys(out.nodes).sort()).toEqual(['0', '1', '2', '3']);
  for (const e of s.edges) {
    expect(out.nodes[e.from].x).toBeLessThan(out.nodes[e.to].x);
    expect(out.edges[e.id].length).toBeGreaterThanOrEqual(2);
  }
  const kids = ['1', '2', '3'].map((id) => out.nodes[id]).sort((a, b) => a.y - b.y);
  for (let i = 1; i < kids.length; i++) expect(kids[i].y).toBeGreaterThanOrEqual(kids[i - 1].y + kids[i - 1].height);
  expect(out.width).toBeGreaterThan(0);
  expect(out.height).toBeGreaterThan(0);
});

it('keeps both edges of x * x (a multigraph)', () => {
  const out = layoutGraph(
    [
      { id: 'a', width: 50, height: 30 },
      { id: 'b', width: 50, height: 30 },
    ],
    [
      { id: 'a->b#0', from: 'a', to: 'b' },
      { id: 'a->b#1', from: 'a', to: 'b' },
    ],
  );
  expect(Object.keys(out.edges).sort()).toEqual(['a->b#0', 'a->b#1']);
});

it('keeps room for edge labels beside their edges', () => {
  const out = layoutGraph(
    [
      { id: 'a', width: 80, height: 40 },
      { id: 'b', width: 80, height: 40 },
    ],
    [{ id: 'a->b#0', from: 'a', to: 'b', label: { width: 60, height: 18 } }],
  );
  const label = out.labels['a->b#0'];
  expect(label.width).toBe(60);
  expect(label.x + label.width).toBeLessThanOrEqual(out.width);
  expect(label.x).toBeGreaterThan(out.nodes.a.x + out.nodes.a.width - 1); // between a and b, on the edge
  expect(label.x + label.width).toBeLessThan(out.nodes.b.x + 1);
});

it('leaves isolated constants out of the graph', () => {
  const s = snapshotAt(
    [
      {
        seq: 0,
        type: 'tensor',
        line: 1,
        id: 0,
        name: 'w',
        op: null,
        inputs: [],
        shape: [],
        dtype: 'float32',
        values: 1,
        requires_grad: true,
        is_leaf: true,
      },
      {
        seq: 1,
        type: 'tensor',
        line: 2,
        id: 1,
        name: 'data',
        op: null,
        inputs: [],
        shape: [],
        dtype: 'float32',
        values: 3,
        requires_grad: false,
        is_leaf: true,
      },
      {
        seq: 2,
        type: 'tensor',
        line: 3,
        id: 2,
        name: 'c',
        op: null,
        inputs: [],
        shape: [],
        dtype: 'float32',
        values: 2,
        requires_grad: false,
        is_leaf: true,
      },
      {
        seq: 3,
        type: 'tensor',
        line: 4,
        id: 3,
        name: 'y',
        op: 'MulBackward0',
        inputs: [0, 2],
        shape: [],
        dtype: 'float32',
        values: 2,
        requires_grad: true,
        is_leaf: false,
      },
    ],
    4,
  );
  expect(graphNodeIds(s)).toEqual(['0', '2', '3']);
});

it('draws a window of a big graph that follows the step and keeps the parameters', () => {
  // A training loop: a parameter w, then per iteration a constant batch c_i and y_i = w * c_i.
  const events = [
    {
      seq: 0,
      type: 'tensor',
      line: 1,
      id: 0,
      name: 'w',
      op: null,
      inputs: [],
      shape: [],
      dtype: 'float32',
      values: 1,
      requires_grad: true,
      is_leaf: true,
    },
  ];
  for (let i = 0; i < 200; i++) {
    events.push({
      seq: events.length,
      type: 'tensor',
      line: 2,
      id: 1 + 2 * i,
      name: null,
      op: 'MulBackward0',
      inputs: [0],
      shape: [],
      dtype: 'float32',
      values: i,
      requires_grad: true,
      is_leaf: false,
    });
  }
  const final = snapshotAt(events, events.length);
  const small = graphWindow(final, final, 500);
  expect(small.ids.length).toBe(201);
  const atEnd = graphWindow(final, final, 50);
  expect(atEnd.ids[0]).toBe('0'); // the parameter stays
  expect(atEnd.ids.length).toBe(51);
  expect(atEnd.ids.at(-1)).toBe(String(1 + 2 * 199));
  const early = graphWindow(final, snapshotAt(events, 10), 50);
  expect(early.start).toBe(0);
  expect(early.ids).toContain('1');
  expect(graphWindow(final, snapshotAt(events, 11), 50)).toEqual(early); // the window jumps, it doesn't creep
});

it('shows a training loop one iteration at a time: the graph that iteration built and the parameters', () => {
  const events = fixture('gradient_accumulation').events;
  const final = snapshotAt(events, events.length);
  const last = graphWindow(final, final);
  expect(last).toMatchObject({ iteration: 8, of: 8 });
  const ops = last.ids.filter((id) => final.tensors[id].op);
  expect(ops).toHaveLength(4);
  expect(last.ids.filter((id) => final.tensors[id].isLeaf)).toHaveLength(2);
  const first = graphWindow(final, snapshotAt(events, 12));
  expect(first).toMatchObject({ iteration: 1, key: 'it0' });
  expect(first.ids.filter((id) => !last.ids.includes(id))).toHaveLength(4); // another iteration's ops
  // the backward of iteration 1 (its node and accumulate events) still shows iteration 1's graph
  const bw = events.findIndex((e) => e.type === 'backward');
  expect(graphWindow(final, snapshotAt(events, bw + 3)).iteration).toBe(1);
});

it("numbers a training loop's iterations counting the folded ones (their graphs left out, their backward() kept)", () => {
  // w, then 6 iterations of `loss = w * 2; loss.backward()` (line 4); iterations 3-5 folded: backward events only
  const events = [
    {
      seq: 0,
      type: 'tensor',
      line: 1,
      id: 0,
      name: 'w',
      op: null,
      inputs: [],
      shape: [],
      dtype: 'float32',
      values: 1,
      requires_grad: true,
      is_leaf: true,
    },
  ];
  const push = (e) => events.push({ seq: events.length, line: 4, ...e });
  const full = (i) => {
    push({
      type: 'tensor',
      id: 10 + i,
      name: 'loss',
      op: 'MulBackward0',
      inputs: [0],
      shape: [],
      dtype: 'float32',
      values: 2,
      requires_grad: true,
      is_leaf: false,
    });
    push({ type: 'backward', root: 10 + i, gradient: 1, retain_graph: false });
  };
  full(1);
  full(2);
  push({ type: 'folded', loop: 3, first: 2, last: 4, iterations: 3, events: 6 });
  for (let i = 3; i <= 5; i++) push({ type: 'backward', root: 10 + i, gradient: 1, retain_graph: false, values: 2 });
  full(6);
  const final = snapshotAt(events, events.length);
  expect(graphWindow(final, final)).toMatchObject({ iteration: 6, of: 6, key: 'it2' });
  expect(graphWindow(final, snapshotAt(events, 2))).toMatchObject({ iteration: 1, of: 6 });
  expect(graphWindow(final, snapshotAt(events, 4))).toMatchObject({ iteration: 2, of: 6 });
  // a folded iteration's backward(): the graph of iteration 2, the last traced before it, said to be iteration 4's
  const folded = events.findIndex((e) => e.type === 'backward' && e.root === 14) + 1;
  expect(graphWindow(final, snapshotAt(events, folded))).toMatchObject({ iteration: 2, folded: 4, of: 6 });
  expect(graphWindow(final, final).folded).toBeUndefined();
  const firstFolded = events.findIndex((e) => e.type === 'backward' && e.root === 13) + 1; // iteration 3's
  for (let k = 1; k < firstFolded; k++) {
    // a traced iteration, its backward() included
    expect(graphWindow(final, snapshotAt(events, k)).folded, `step ${k}`).toBeUndefined();
  }
  expect(graphWindow(final, snapshotAt(events, firstFolded)).folded).toBe(3);
});

it('lays big graphs out too: a tidy tree in linear time, every edge still left to right, no overlaps', () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const boxes = [];
  const edges = [];
  for (let i = 0; i < 400; i++) {
    boxes.push({ id: String(i), width: 120, height: 60 });
    if (i < 5) continue;
    const from = [Math.max(0, Math.floor(i - 1 - rnd() * Math.min(20, i))), i - 1];
    from.forEach((f, k) => edges.push({ id: `${f}->${i}#${k}`, from: String(f), to: String(i) }));
  }
  const out = layoutGraph(boxes, edges);
  for (const e of edges) {
    expect(out.nodes[e.from].x + out.nodes[e.from].width, e.id).toBeLessThan(out.nodes[e.to].x);
    expect(out.edges[e.id].length).toBeGreaterThanOrEqual(2);
  }
  const list = Object.values(out.nodes);
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = [list[i], list[j]];
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart).toBe(true);
    }
  }
});

it('frames the boxes of one module call together (a cluster per module)', async () => {
  const { layoutGraph: lay } = await import('../src/layout.js');
  const boxes = [
    { id: 'w', width: 80, height: 40, cluster: 'model.0' },
    { id: 'x', width: 80, height: 40 },
    { id: 'mm', width: 80, height: 40, cluster: 'model.0' },
    { id: 'loss', width: 80, height: 40 },
  ];
  const edges = [
    { id: 'w->mm', from: 'w', to: 'mm' },
    { id: 'x->mm', from: 'x', to: 'mm' },
    { id: 'mm->loss', from: 'mm', to: 'loss' },
  ];
  const out = lay(boxes, edges);
  const c = out.clusters['model.0'];
  for (const id of ['w', 'mm']) {
    const b = out.nodes[id];
    expect(b.x >= c.x && b.y >= c.y && b.x + b.width <= c.x + c.width && b.y + b.height <= c.y + c.height).toBe(true);
  }
  const l = out.nodes.loss;
  expect(l.x >= c.x + c.width || l.y >= c.y + c.height || l.y + l.height <= c.y).toBe(true); // outside the frame
});
