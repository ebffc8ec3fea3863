import { expect, it } from 'vitest';
import { nodeClasses } from '../src/graphdraw.js';
import { ACC, accId, foldId, graphModel, seedId, seedRows } from '../src/graphmodel.js';
import { snapshotAt } from '../src/reducer.js';
import { fixture } from './fixtures.js';

const lesson2 = fixture('accumulation').events;
const lesson1 = fixture('scalar_backward').events;

it('adds an AccumulateGrad per leaf that requires grad, left of it, and a gradient seed per backward root', () => {
  const final = snapshotAt(lesson2, lesson2.length);
  const { boxes, edges } = graphModel(final, final.order);
  const ids = boxes.map((b) => b.id);
  expect(ids).toContain(accId('0'));
  expect(boxes.find((b) => b.id === accId('0'))).toMatchObject(ACC);
  expect(edges).toContainEqual({ id: `${accId('0')}->0`, from: accId('0'), to: '0' });
  // three backward calls, three roots, each with its seed to its right
  for (const root of ['1', '2', '3']) {
    expect(ids).toContain(seedId(root));
    expect(edges).toContainEqual({ id: `${root}->${seedId(root)}`, from: root, to: seedId(root) });
  }
  // forward edges keep room for the gradient they will carry
  expect(edges.find((e) => e.id === '0->1#0').label.width).toBeGreaterThan(20);
});

it('labels a scalar seed as dy/dy = 1 and a vector one as the v of a vector–Jacobian product', () => {
  expect(seedRows(1, true)).toEqual(['gradient = 1.', 'dy/dy = 1']);
  expect(seedRows([1, 0.5], false)).toEqual(['gradient = [1.0000, 0.5000]', 'v in vᵀ·J (vector–Jacobian product)']);
});

it('draws a grad_fn as ran during its backward, freed once that backward is over, and never frees a leaf', () => {
  const during = snapshotAt(lesson1, 6); // SumBackward0 and PowBackward0 ran, accumulate still to come
  expect(nodeClasses(during.tensors['2'], during)).toEqual(expect.arrayContaining(['op', 'ran', 'root']));
  expect(nodeClasses(during.tensors['2'], during)).not.toContain('freed');
  const after = snapshotAt(lesson1, lesson1.length);
  expect(nodeClasses(after.tensors['1'], after)).toEqual(expect.arrayContaining(['op', 'ran', 'freed']));
  expect(nodeClasses(after.tensors['0'], after)).not.toContain('freed');
  const retained = lesson1.map((e) => (e.type === 'backward' ? { ...e, retain_graph: true } : e));
  const kept = snapshotAt(retained, retained.length);
  expect(nodeClasses(kept.tensors['1'], kept)).not.toContain('freed');
});

it('marks the tensor the forward pass just added, and only then', () => {
  const s = snapshotAt(lesson1, 2);
  expect(nodeClasses(s.tensors['1'], s)).toContain('born');
  expect(nodeClasses(s.tensors['0'], s)).not.toContain('born');
  const later = snapshotAt(lesson1, 3);
  expect(nodeClasses(later.tensors['1'], later)).not.toContain('born');
});

it('shows the graph of a last backward freed once the program has ended', () => {
  const end = snapshotAt(lesson1.slice(0, 7), 7); // the run ends with the AccumulateGrad of its backward
  expect(nodeClasses(end.tensors['1'], end)).not.toContain('freed');
  expect(nodeClasses(end.tensors['1'], end, true)).toContain('freed');
});

it('writes an edge gradient as its first entries, or its shape when not even one fits', async () => {
  const { gradText } = await import('../src/graphmodel.js');
  expect(gradText(4)).toBe('∂ 4.');
  expect(gradText([2, 4, 6])).toBe('∂ [2., …]');
  expect(
    gradText([
      [0.1197, -0.0004],
      [0.5, 0.25],
    ]),
  ).toBe('∂ [2×2]');
});

it("joins a tensor made from a folded iteration's tensor to a box standing for the folded iterations", () => {
  const leaf = {
    seq: 0,
    type: 'tensor',
    line: 1,
    id: 0,
    name: 'x',
    op: null,
    inputs: [],
    shape: [],
    dtype: 'float32',
    values: 1,
    requires_grad: true,
    is_leaf: true,
  };
  const mul = (seq, id, from) => ({
    seq,
    type: 'tensor',
    line: 3,
    id,
    name: 'y',
    op: 'MulBackward0',
    inputs: [from],
    shape: [],
    dtype: 'float32',
    values: 1,
    requires_grad: true,
    is_leaf: false,
  });
  const folded = { seq: 2, type: 'folded', line: 2, loop: 2, first: 1, last: 8, iterations: 8, events: 8 };
  const events = [leaf, mul(1, 1, 0), folded, mul(3, 9, 8)]; // y of iteration 9 made from iteration 8's, folded
  const final = snapshotAt(events, events.length);
  const { boxes, edges } = graphModel(final, ['0', '1', '9']);
  expect(boxes.map((b) => b.id)).toContain(foldId('9', 0));
  expect(edges).toContainEqual({ id: `${foldId('9', 0)}->9`, from: foldId('9', 0), to: '9' });
  expect(boxes.filter((b) => b.id.startsWith('fold:'))).toHaveLength(1); // tensor 1's input is known
  const unfolded = snapshotAt([leaf, mul(1, 1, 0)], 2);
  expect(graphModel(unfolded, ['0', '1']).boxes.some((b) => b.id.startsWith('fold:'))).toBe(false);
});
