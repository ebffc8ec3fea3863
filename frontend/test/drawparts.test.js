import { expect, it } from 'vitest';
import { drawParts } from '../src/drawparts.js';

it('draws the boxes nearest the view first, in parts of at most `size`, each tensor once', () => {
  const ids = Array.from({ length: 1000 }, (_, i) => String(i));
  // a row of boxes 100 units apart; the view sits on box 700
  const boxes = Object.fromEntries(ids.map((id) => [id, { x: Number(id) * 100, y: 0, width: 80, height: 40 }]));
  const parts = drawParts(ids, boxes, { x0: 70000 - 200, y0: -100, x1: 70000 + 280, y1: 140 }, 150);
  expect(parts.length).toBe(7);
  expect(Math.max(...parts.map((p) => p.length))).toBe(150);
  expect(parts.flat().sort()).toEqual([...ids].sort());
  expect(parts[0][0]).toBe('700');
  expect(parts[0]).toContain('650');
  expect(parts[6]).toContain('0');
});

it('keeps a graph under one part whole, and tensors without a box last', () => {
  const boxes = { a: { x: 0, y: 0, width: 10, height: 10 }, b: { x: 50, y: 0, width: 10, height: 10 } };
  expect(drawParts(['c', 'a', 'b'], boxes, { x0: 40, y0: 0, x1: 60, y1: 10 })).toEqual([['b', 'a', 'c']]);
});
