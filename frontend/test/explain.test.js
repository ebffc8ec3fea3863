import { describe, expect, it } from 'vitest';
import { chainRule, explainError, localFormula } from '../src/explain.js';
import { snapshotAt } from '../src/reducer.js';
import { fixture } from './fixtures.js';

const lesson2 = fixture('accumulation').events;
const lesson1 = fixture('scalar_backward').events;

describe('chainRule', () => {
  it('writes out the scalar arithmetic of x ** 2 and x ** 3 from the trace', () => {
    const s = snapshotAt(lesson2, 4); // PowBackward0 of x ** 2 ran
    expect(chainRule(s.event, s).lines).toEqual(['∂/∂x x² = 2·x = 2·2 = 4; 4 × 1 = 4']);
    const t = snapshotAt(lesson2, 9);
    expect(chainRule(t.event, t).lines).toEqual(['∂/∂x x³ = 3·x² = 3·2² = 12; 12 × 1 = 12']);
    expect(chainRule(t.event, t).head).toMatch(/^PowBackward0: grad_output 1\. → local derivative → grad_inputs$/);
  });

  it("writes the formula for tensors in the learner's names, then with the values it used", () => {
    const s = snapshotAt(lesson1, 7); // PowBackward0 of x ** 2 on a [3] tensor
    const { head, lines, parts } = chainRule(s.event, s);
    expect(head).toContain('grad_output [3] [1., 1., 1.]');
    expect(lines).toEqual(['grad_x = grad_out · 2·x = [1., 1., 1.] · 2·[1., 2., 3.] = [2., 4., 6.]']);
    expect(parts[0]).toContainEqual({ text: '[1., 2., 3.]', full: '[1, 2, 3]' }); // hover: every digit
    const sum = snapshotAt(lesson1, 6); // SumBackward0: a reduction, its gradient expanded back
    expect(chainRule(sum.event, sum).lines).toEqual([
      'grad_pow = grad_out expanded to [3] = 1 expanded to [3] = [1., 1., 1.]',
    ]);
  });

  it('gives matrix products their rule and shapes, and falls back to shapes without a formula', () => {
    const t = (id, name, op, shape, values, inputs = []) => ({
      seq: id,
      type: 'tensor',
      line: 1,
      id,
      name,
      op,
      inputs,
      shape,
      dtype: 'float32',
      values,
      requires_grad: true,
      is_leaf: !op,
    });
    const events = [
      t(0, 'a', null, [1, 3], [[1, 2, 3]]),
      t(
        1,
        'w',
        null,
        [3, 2],
        [
          [1, 0],
          [0, 1],
          [1, 1],
        ],
      ),
      t(2, 'h', 'MmBackward0', [1, 2], [[4, 5]], [0, 1]),
      { seq: 3, type: 'backward', line: 2, root: 2, gradient: [[1, 1]], retain_graph: false },
      {
        seq: 4,
        type: 'node',
        line: 2,
        tensor: 2,
        op: 'MmBackward0',
        grad_output: [[1, 1]],
        grad_inputs: [
          [[1, 1, 2]],
          [
            [1, 1],
            [2, 2],
            [3, 3],
          ],
        ],
        formulas: ['{grad} @ {1}ᵀ', '{0}ᵀ @ {grad}'],
      },
    ];
    const s = snapshotAt(events, events.length);
    expect(chainRule(s.event, s).lines).toEqual([
      'grad_a = grad_out @ wᵀ: [1, 2] @ [3, 2]ᵀ → [1, 3] = [[1., 1., 2.]]',
      'grad_w = aᵀ @ grad_out: [1, 3]ᵀ @ [1, 2] → [3, 2] = [[1., 1.], [2., 2.], [3., 3.]]',
    ]);
    const bare = snapshotAt([...events.slice(0, 4), { ...events[4], formulas: undefined }], events.length);
    expect(chainRule(bare.event, bare).lines[0]).toMatch(/^to a: grad_output \[1, 2\] through MmBackward0/);
  });

  it('writes small numbers as PyTorch does, never rounded to 0', () => {
    const t = (id, name, op, values, inputs = []) => ({
      seq: id,
      type: 'tensor',
      line: 1,
      id,
      name,
      op,
      inputs,
      shape: [],
      dtype: 'float32',
      values,
      requires_grad: true,
      is_leaf: !op,
    });
    const events = [
      t(0, 'c', null, 6),
      t(1, 'y', 'TanhBackward0', 0.9999877, [0]),
      { seq: 2, type: 'backward', line: 2, root: 1, gradient: 1, retain_graph: false },
      {
        seq: 3,
        type: 'node',
        line: 2,
        tensor: 1,
        op: 'TanhBackward0',
        grad_output: -0.3333333,
        grad_inputs: [-8.1857e-6],
        formulas: ['{grad} · (1 − {out}²)'],
      },
    ];
    const s = snapshotAt(events, events.length);
    expect(chainRule(s.event, s).lines).toEqual([
      'grad_c = grad_out · (1 − y²) = -0.3333 · (1 − 1.0000²) = -8.1857e-06',
    ]);
  });

  it('is null for other events', () => {
    const s = snapshotAt(lesson2, 1);
    expect(chainRule(s.event, s)).toBeNull();
  });
});

describe('localFormula', () => {
  it('knows products, sums and quotients', () => {
    expect(localFormula('MulBackward0', 0, ['x', 'w'], [2, 3], 6, 3)).toBe('∂/∂x (x·w) = w = 3');
    expect(localFormula('AddBackward0', 1, ['a', 'b'], [1, 2], 3, 1)).toBe('∂/∂b (a + b) = 1');
    expect(localFormula('DivBackward0', 0, ['a', 'b'], [1, 4], 0.25, 0.25)).toBe('∂/∂a (a / b) = 1/b = 1/4 = 0.25');
    expect(localFormula('ExpBackward0', 0, ['x'], [0], 1, 1)).toBe('∂exp/∂x = 1');
  });
});

describe('explainError', () => {
  it('explains the second backward and the missing requires_grad in one sentence', () => {
    const second = { type: 'RuntimeError', message: 'Trying to backward through the graph a second time (or …)' };
    expect(explainError(second)).toMatch(/retain_graph=True/);
    expect(explainError(fixture('error').error)).toMatch(/requires_grad=True/);
    expect(explainError({ type: 'NameError', message: "name 'q' is not defined" })).toBeNull();
  });
});

describe('chainRule names', () => {
  it('calls unnamed intermediates after their op, and tells twins apart', () => {
    const t = (id, op, values, inputs = []) => ({
      seq: id,
      type: 'tensor',
      line: 1,
      id,
      name: id === 0 ? 'x' : null,
      op,
      inputs,
      shape: [],
      dtype: 'float32',
      values,
      requires_grad: true,
      is_leaf: !op,
    });
    const events = [
      t(0, null, 2),
      t(1, 'MulBackward0', 6, [0]),
      t(2, 'PowBackward0', 4, [0]),
      t(3, 'AddBackward0', 10, [1, 2]),
      { seq: 4, type: 'backward', line: 2, root: 3, gradient: 1, retain_graph: false },
      { seq: 5, type: 'node', line: 2, tensor: 3, op: 'AddBackward0', grad_output: 1, grad_inputs: [1, 1] },
    ];
    const s = snapshotAt(events, events.length);
    expect(chainRule(s.event, s).lines).toEqual([
      '∂/∂mul (mul + pow) = 1; 1 × 1 = 1',
      '∂/∂pow (mul + pow) = 1; 1 × 1 = 1',
    ]);
    const twins = snapshotAt([...events.slice(0, 2), t(2, 'MulBackward0', 6, [0]), ...events.slice(3)], events.length);
    expect(chainRule(twins.event, twins).lines[0]).toBe('∂/∂mul₁ (mul₁ + mul₂) = 1; 1 × 1 = 1');
  });
});
