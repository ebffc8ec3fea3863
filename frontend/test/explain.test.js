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
