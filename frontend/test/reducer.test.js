import { describe, expect, it } from 'vitest';
import { alignGrads, edgeId, snapshotAt, zerosLike } from '../src/reducer.js';
import { fixture } from './fixtures.js';

const lesson2 = fixture('accumulation').events;
const lesson1 = fixture('scalar_backward').events;

describe('snapshotAt', () => {
  it('is empty before the first event', () => {
    const s = snapshotAt(lesson2, 0);
    expect(s.k).toBe(0);
    expect(s.order).toEqual([]);
    expect(s.event).toBeNull();
    expect(s.stdout).toBe('');
  });

  it('clamps k to the number of events', () => {
    expect(snapshotAt(lesson2, 999).k).toBe(lesson2.length);
    expect(snapshotAt(lesson2, -3).k).toBe(0);
  });

  it('does not mutate the events and gives the same answer twice', () => {
    const copy = JSON.parse(JSON.stringify(lesson2));
    expect(snapshotAt(lesson2, 10)).toEqual(snapshotAt(lesson2, 10));
    expect(lesson2).toEqual(copy);
  });

  it('adds tensors and forward edges from inputs to outputs', () => {
    const s = snapshotAt(lesson1, 3);
    expect(s.order).toEqual(['0', '1', '2']);
    expect(s.tensors['0']).toMatchObject({ name: 'x', op: null, isLeaf: true, requiresGrad: true, values: [1, 2, 3] });
    expect(s.tensors['1']).toMatchObject({ op: 'PowBackward0', inputs: ['0'], shape: [3] });
    expect(s.edges).toEqual([
      { id: edgeId('0', '1', 0), from: '0', to: '1', index: 0 },
      { id: edgeId('1', '2', 0), from: '1', to: '2', index: 0 },
    ]);
    expect(s.active).toBe('2');
  });

  it('applies a later name to a tensor', () => {
    expect(snapshotAt(lesson1, 3).tensors['2'].name).toBeNull();
    expect(snapshotAt(lesson1, 4).tensors['2'].name).toBe('y');
  });

  it('marks the grad_fn nodes that ran and the gradient each edge carried', () => {
    const s = snapshotAt(lesson1, 6);
    expect(s.backwardCount).toBe(1);
    expect(s.backward).toEqual({ root: '2', gradient: 1, retainGraph: false, pass: 1, line: 5, done: false });
    expect(s.tensors['2'].ranIn).toBe(1);
    expect(s.tensors['1'].ranIn).toBeNull();
    expect(s.edgeGrads).toEqual({ [edgeId('1', '2', 0)]: [1, 1, 1] });
    const t = snapshotAt(lesson1, 7);
    expect(t.tensors['1'].ranIn).toBe(1);
    expect(t.edgeGrads[edgeId('0', '1', 0)]).toEqual([2, 4, 6]);
    expect(t.active).toBe('1');
  });

  it('fills a leaf .grad on accumulate', () => {
    expect(snapshotAt(lesson1, 7).tensors['0'].grad).toBeNull();
    const s = snapshotAt(lesson1, 8);
    expect(s.tensors['0'].grad).toEqual([2, 4, 6]);
    expect(s.ledger['0']).toEqual([
      { seq: 7, line: 5, kind: 'accumulate', before: null, delta: [2, 4, 6], after: [2, 4, 6], pass: 1 },
    ]);
  });

  it('keeps the lesson-2 ledger: 4, then +12 = 16, reset to None, then 12', () => {
    const grads = [];
    for (let k = 0; k <= lesson2.length; k++) {
      const x = snapshotAt(lesson2, k).tensors['0'];
      if (x) grads.push(x.grad);
    }
    // .grad over time, deduplicated: None → 4 → 16 → None → 12
    const changes = grads.filter((g, i) => i === 0 || g !== grads[i - 1]);
    expect(changes).toEqual([null, 4, 16, null, 12]);

    const s = snapshotAt(lesson2, lesson2.length);
    expect(s.ledgerOrder).toEqual(['0']);
    expect(s.ledger['0'].map((e) => [e.kind, e.before, e.delta ?? null, e.after])).toEqual([
      ['accumulate', null, 4, 4],
      ['accumulate', 4, 12, 16],
      ['reset', 16, null, null],
      ['accumulate', null, 12, 12],
    ]);
    expect(s.ledger['0'][2].how).toBe('none');
  });

  it('starts a fresh set of ran nodes and edge gradients with each backward', () => {
    const s = snapshotAt(lesson2, 9); // second backward's node ran
    expect(s.backwardCount).toBe(2);
    expect(s.tensors['1'].ranIn).toBe(1);
    expect(s.tensors['2'].ranIn).toBe(2);
    expect(Object.keys(s.edgeGrads)).toEqual([edgeId('0', '2', 0)]);
  });

  it('collects stdout from print events, with or without their newline', () => {
    expect(snapshotAt(lesson2, 6).stdout).toBe('tensor(4.)\n');
    expect(snapshotAt(lesson2, lesson2.length).stdout).toBe(fixture('accumulation').stdout);
    expect(snapshotAt(lesson1, lesson1.length).stdout).toBe('tensor([2., 4., 6.])\n');
  });

  it('records the error and warnings', () => {
    const events = fixture('error').events;
    expect(snapshotAt(events, 2).error).toBeNull();
    expect(snapshotAt(events, 3).error).toEqual({
      type: 'RuntimeError',
      message: 'element 0 of tensors does not require grad and does not have a grad_fn',
      line: 4,
    });
    const w = snapshotAt([{ seq: 0, type: 'warning', line: 2, message: 'careful' }], 1);
    expect(w.warnings).toEqual(['careful']);
  });

  it('zero_() keeps the buffer as zeros; step() changes the data', () => {
    const events = [
      {
        seq: 0,
        type: 'tensor',
        line: 1,
        id: 5,
        name: 'w',
        op: null,
        inputs: [],
        shape: [2],
        dtype: 'float32',
        values: [1, 2],
        requires_grad: true,
        is_leaf: true,
      },
      { seq: 1, type: 'accumulate', line: 2, tensor: 5, before: null, delta: [0.5, 1], after: [0.5, 1] },
      { seq: 2, type: 'step', line: 3, tensor: 5, before: [1, 2], after: [0.95, 1.9] },
      { seq: 3, type: 'grad_reset', line: 4, tensor: 5, how: 'zero' },
    ];
    const s = snapshotAt(events, 4);
    expect(s.tensors['5'].values).toEqual([0.95, 1.9]);
    expect(s.tensors['5'].grad).toEqual([0, 0]);
    expect(s.ledger['5'].map((e) => e.kind)).toEqual(['accumulate', 'step', 'reset']);
    expect(s.ledger['5'][2]).toMatchObject({ how: 'zero', before: [0.5, 1], after: [0, 0] });
  });

  it('ignores unknown event types and events about unknown tensors', () => {
    const s = snapshotAt(
      [
        { seq: 0, type: 'mystery', line: null },
        { seq: 1, type: 'node', line: 1, tensor: 9, op: 'X', grad_output: 1, grad_inputs: [1] },
      ],
      2,
    );
    expect(s.order).toEqual([]);
    expect(s.k).toBe(2);
  });
});

describe('alignGrads', () => {
  it('pairs gradients with tracked inputs when a constant operand has a grad_fn edge but no input id', () => {
    expect(alignGrads(['x'], [4])).toEqual([4]);
    expect(alignGrads(['x'], [null, 4])).toEqual([4]); // c * x, no gradient for c
    expect(alignGrads(['x'], [2, 4])).toEqual([null]); // ambiguous: label nothing
    expect(alignGrads(['x', 'w'], [1, null])).toEqual([1, null]);
  });
});

describe('zerosLike', () => {
  it('keeps the shape', () => {
    expect(zerosLike(3)).toBe(0);
    expect(
      zerosLike([
        [1, 2],
        [3, 4],
      ]),
    ).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});

describe('backward passes, freed graphs and mini-batches', () => {
  it('lists every backward call and marks the pass done once an event outside it arrives', () => {
    const during = snapshotAt(lesson2, 5); // the accumulate of the first backward
    expect(during.backward).toMatchObject({ root: '1', pass: 1, line: 5, done: false });
    const after = snapshotAt(lesson2, 6); // print: the pass is over
    expect(after.backward.done).toBe(true);
    const s = snapshotAt(lesson2, lesson2.length);
    expect(s.passes.map((p) => [p.root, p.line, p.retainGraph])).toEqual([
      ['1', 5, false],
      ['2', 8, false],
      ['3', 13, false],
    ]);
  });

  it('frees the saved values of a grad_fn once it ran in a backward without retain_graph', () => {
    expect(snapshotAt(lesson2, 3).tensors['1'].freedIn).toBeNull();
    expect(snapshotAt(lesson2, 4).tensors['1'].freedIn).toBe(1);
    expect(snapshotAt(lesson2, 4).tensors['0'].freedIn).toBeNull(); // a leaf is never freed
    const retained = lesson2.map((e) => (e.type === 'backward' ? { ...e, retain_graph: true } : e));
    expect(snapshotAt(retained, 4).tensors['1'].freedIn).toBeNull();
  });

  it('tags each accumulation with its backward call', () => {
    const s = snapshotAt(lesson2, lesson2.length);
    expect(s.ledger['0'].map((e) => e.pass ?? null)).toEqual([1, 2, null, 3]);
  });

  it('shows which mini-batches sat in .grad when the optimizer stepped', () => {
    const events = fixture('gradient_accumulation').events;
    const s = snapshotAt(events, events.length);
    const steps = s.ledger['0'].filter((e) => e.kind === 'step');
    expect(steps.map((e) => e.passes)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(s.window['0']).toEqual([]); // zero_grad after the last step
  });
});

describe('a trace cut short', () => {
  it('says why (the event limit) and where', () => {
    const events = [
      ...lesson1.slice(0, 3),
      { seq: 3, type: 'truncated', line: 5, message: 'the trace stops after 3 events' },
    ];
    expect(snapshotAt(events, 3).truncated).toBeNull();
    expect(snapshotAt(events, 4).truncated).toBe('the trace stops after 3 events');
  });
});
