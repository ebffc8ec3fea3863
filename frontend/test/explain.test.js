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

  it('gives shapes for tensors', () => {
    const s = snapshotAt(lesson1, 7); // PowBackward0 of x ** 2 on a [3] tensor
    const { lines } = chainRule(s.event, s);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('grad_output [3]');
    expect(lines[0]).toContain('grad_input [3] [2., 4., 6.]');
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
