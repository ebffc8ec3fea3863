import { expect, it } from 'vitest';
import { layoutGraph, FAST_LAYOUT } from '../src/layout.js';
import { treeLayout } from '../src/treelayout.js';

it('lays a 5,000-deep chain out in columns, one row, without recursion', () => {
  const boxes = Array.from({ length: 5000 }, (_, i) => ({ id: String(i), width: 100, height: 40 }));
  const edges = boxes.slice(1).map((b, i) => ({ from: String(i), to: b.id }));
  const { centres, width, height } = treeLayout(boxes, edges, 12);
  expect(centres.get('0')?.x).toBe(12 + 50);
  expect(centres.get('4999')?.x).toBe(12 + 50 + 4999 * 170);
  expect(new Set([...centres.values()].map((c) => c.y))).toEqual(new Set([12 + 20]));
  expect(width).toBe(12 + 5000 * 170 - 70 + 12);
  expect(height).toBe(12 + 40 + 12);
});

it('puts a box beside the middle of the boxes made from it, each subtree in its own rows', () => {
  const boxes = ['x', 'a', 'b', 'c'].map((id) => ({ id, width: 60, height: 30 }));
  const edges = [
    { from: 'x', to: 'a' },
    { from: 'x', to: 'b' },
    { from: 'x', to: 'c' },
  ];
  const { centres } = treeLayout(boxes, edges, 0);
  const [a, b, c] = ['a', 'b', 'c'].map((id) => centres.get(id)?.y ?? NaN);
  expect([a, b, c]).toEqual([15, 15 + 52, 15 + 104]);
  expect(centres.get('x')?.y).toBe(b);
  expect(centres.get('x')?.x).toBeLessThan(centres.get('a')?.x ?? 0);
});

it('lays out 10,000 boxes in well under a second (dagre took seconds)', () => {
  let seed = 3;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const boxes = [];
  const edges = [];
  for (let i = 0; i < 10_000; i++) {
    boxes.push({ id: String(i), width: 150, height: 60 });
    if (i >= 10)
      for (const f of new Set([Math.max(0, i - 1 - Math.floor(rnd() * 30)), i - 1 - Math.floor(rnd() * 8)]))
        edges.push({ id: `${f}->${i}`, from: String(f), to: String(i) });
  }
  expect(boxes.length).toBeGreaterThan(FAST_LAYOUT);
  const started = performance.now();
  const out = layoutGraph(boxes, edges);
  expect(performance.now() - started).toBeLessThan(1000);
  expect(Object.keys(out.nodes).length).toBe(10_000);
  expect(Object.keys(out.edges).length).toBe(edges.length);
});
