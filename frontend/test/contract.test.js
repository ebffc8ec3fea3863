// The trace contract is defined once, in engine/trace/events.py; src/trace-schema.json is generated from it
// (python -m engine.trace.schema). Here: the reducer handles every event type the contract defines, so that a new
// event type cannot reach the page unhandled.
import { describe, expect, it } from 'vitest';
import schema from '../src/trace-schema.json';
import { snapshotAt } from '../src/reducer.js';

const definitions = Object.values(schema.$defs).filter((d) => d.properties?.type?.const);
const types = definitions.map((d) => d.properties.type.const);

/** A small event of each type, its required fields filled (a tensor 0 exists first, so references resolve). */
function example(type) {
  const base = { seq: 1, line: 2 };
  const examples = {
    tensor: {
      id: 1,
      name: 'y',
      op: 'MulBackward0',
      inputs: [0],
      shape: [2],
      dtype: 'float32',
      values: [2, 4],
      requires_grad: true,
      is_leaf: false,
      module: 'model.0',
      module_type: 'Linear',
    },
    name: { tensor: 0, name: 'w' },
    backward: { root: 0, gradient: [1, 1], retain_graph: false },
    node: { tensor: 0, op: 'MulBackward0', grad_output: [1, 1], grad_inputs: [], formulas: [] },
    accumulate: { tensor: 0, name: 'x', before: null, delta: [1, 2], after: [1, 2] },
    grad_reset: { tensor: 0, name: 'x', how: 'none' },
    step: { tensor: 0, name: 'x', before: [1, 2], after: [0.9, 1.8] },
    print: { text: 'hello\n' },
    warning: { message: 'a warning' },
    error: { error_type: 'ValueError', message: 'bad' },
    iteration: { loop: 3, index: 0 },
    folded: { loop: 3, first: 3, last: 98, iterations: 96, events: 192 },
    truncated: { limit: 10000, message: 'the graph stops after 10,000 events (event limit)' },
  };
  return { ...base, type, ...examples[type] };
}

const leaf = {
  seq: 0,
  line: 1,
  type: 'tensor',
  id: 0,
  name: 'x',
  op: null,
  inputs: [],
  shape: [2],
  dtype: 'float32',
  values: [1, 2],
  requires_grad: true,
  is_leaf: true,
};

describe('the trace contract', () => {
  it('defines the event types the engine emits', () => {
    expect(types.sort()).toEqual(
      [
        'accumulate',
        'backward',
        'error',
        'folded',
        'grad_reset',
        'iteration',
        'name',
        'node',
        'print',
        'step',
        'tensor',
        'truncated',
        'warning',
      ].sort(),
    );
  });

  it.each(types)('%s: the example carries every required field of the schema', (type) => {
    const definition = definitions.find((d) => d.properties.type.const === type);
    const event = example(type);
    for (const field of definition.required) expect(event).toHaveProperty(field);
  });

  it.each(types)('%s: the reducer handles it (the snapshot changes beyond the current event)', (type) => {
    const before = snapshotAt([leaf], 1);
    const after = snapshotAt([leaf, example(type)], 2);
    const strip = (s) => ({ ...s, k: 0, event: null, active: null });
    expect(strip(after)).not.toEqual(strip(before));
  });

  it('keeps what a folded iteration left: the ledger of a leaf it never saw, by name', () => {
    const s = snapshotAt([{ ...example('accumulate'), seq: 0, tensor: 7, name: 'w', folded: true }], 1);
    expect(s.ghosts['7']).toEqual({ id: '7', name: 'w', grad: [1, 2] });
    expect(s.ledger['7']).toHaveLength(1);
  });
});
