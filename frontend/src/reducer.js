// The pure heart of the playground: trace events in, the state after the first k events out.
// No DOM, no timers, no URLs: the same events and k always give the same snapshot (tested in test/reducer.test.js).

/**
 * @typedef {number|string|null|Array<any>|{summarized: true, shape: number[], min: any, max: any, mean: any, first: any[]}} Values
 *   A tensor's values as `tolist()` writes them: a number (or "nan"/"inf"/"-inf") for a 0-d tensor, nested lists
 *   otherwise, or a summary object for large tensors.
 *
 * @typedef {object} TraceEvent
 * @property {number} seq
 * @property {string} type
 * @property {number|null} line
 *
 * @typedef {object} TensorState  One tensor (= one graph node: a leaf, or the output of a grad_fn).
 * @property {string} id
 * @property {string|null} name       Variable name, if the program gave it one.
 * @property {string|null} op         grad_fn name (e.g. "PowBackward0"); null for leaves.
 * @property {string[]} inputs
 * @property {number[]} shape
 * @property {string} dtype
 * @property {Values} values
 * @property {boolean} requiresGrad
 * @property {boolean} isLeaf
 * @property {number|null} line       Source line that created it.
 * @property {number} seq             The seq of the event that created it.
 * @property {Values} grad            `.grad` (leaves only; null means None).
 * @property {number|null} ranIn      Index of the backward pass in which its grad_fn last ran (null: never).
 * @property {number|null} freedIn    The backward pass (without retain_graph) that freed its saved values.
 * @property {string} [module]        The module call that made it (its path, e.g. "model.0"), if any.
 * @property {string} [moduleType]    That module's class (e.g. "Linear").
 *
 * @typedef {object} LedgerEntry  One change of a leaf's `.grad` (or, kind "step", of its data by an optimizer).
 * @property {number} seq
 * @property {number|null} line
 * @property {"accumulate"|"reset"|"step"} kind
 * @property {Values} before
 * @property {Values} [delta]
 * @property {Values} after
 * @property {"none"|"zero"} [how]
 * @property {number} [pass]        accumulate: which backward call (1, 2, …) added `delta`.
 * @property {number[]} [passes]    step: the backward calls whose gradients sat in `.grad` when the optimizer
 *   stepped (a gradient-accumulation loop shows several mini-batches here).
 *
 * @typedef {object} Snapshot
 * @property {number} k                The number of events applied.
 * @property {Record<string, TensorState>} tensors
 * @property {string[]} order          Tensor ids in creation order.
 * @property {{id: string, from: string, to: string, index: number}[]} edges  Forward edges, input → output.
 * @property {Record<string, Values>} edgeGrads  Gradient carried by each edge (id) in the current backward pass.
 * @property {number} backwardCount    Backward passes begun so far.
 * @property {{root: string, gradient: Values, retainGraph: boolean, pass: number, line: number|null, done: boolean}|null} backward
 *   The current/last backward pass; `done` once an event outside it (not node/accumulate) arrived.
 * @property {{root: string, gradient: Values, values: Values, retainGraph: boolean, line: number|null, seq: number}[]} passes
 *   Every backward call so far, in order (pass n is passes[n - 1]); `values`: the root's values when the backward
 *   event carries them (a folded iteration's loss, whose tensor event was left out).
 * @property {Record<string, number[]>} window  Per leaf: the passes accumulated into `.grad` since its last reset.
 * @property {Record<string, LedgerEntry[]>} ledger  `.grad` history per leaf id.
 * @property {string[]} ledgerOrder    Leaf ids in the order their ledger started.
 * @property {string} stdout
 * @property {string[]} warnings
 * @property {string|null} truncated  Why the trace stops early (the event limit), if it does.
 * @property {Record<string, {id: string, name: string|null, grad: Values}>} ghosts  Leaves whose tensor events were
 *   folded or cut (a loop's folded iteration), known by their ledger events only: their name and `.grad`.
 * @property {{seq: number, loop: number, index: number}[]} iterations  Loop iterations traced in full, in order.
 * @property {{seq: number, loop: number, first: number, last: number, iterations: number, events: number}[]} folds
 *   Folded runs of loop iterations (their graphs left out).
 * @property {{type: string, message: string, line: number|null}|null} error
 * @property {TraceEvent|null} event   The last applied event (the "current step").
 * @property {string|null} active      The tensor id the current event is about, if any.
 */

/** @returns {Snapshot} */
export function emptySnapshot() {
  return {
    k: 0,
    tensors: {},
    order: [],
    edges: [],
    edgeGrads: {},
    backwardCount: 0,
    backward: null,
    passes: [],
    window: {},
    ledger: {},
    ledgerOrder: [],
    stdout: '',
    warnings: [],
    truncated: null,
    ghosts: {},
    iterations: [],
    folds: [],
    error: null,
    event: null,
    active: null,
  };
}

/** Edge id for the index-th input of tensor `to` (an input may appear twice, as in `x * x`). */
export function edgeId(from, to, index) {
  return `${from}->${to}#${index}`;
}

/** Tensor ids are compared as strings (the server may send numbers). */
const key = (id) => (id === null || id === undefined ? null : String(id));

/** Zeros with the shape of `values` (for `.grad.zero_()`). */
export function zerosLike(values) {
  if (Array.isArray(values)) return values.map(zerosLike);
  if (values && typeof values === 'object' && values.summarized) {
    return { ...values, min: 0, max: 0, mean: 0, first: (values.first || []).map(() => 0) };
  }
  return 0;
}

/**
 * The state after the first `k` events (k is clamped to [0, events.length]).
 * @param {TraceEvent[]} events
 * @param {number} k
 * @returns {Snapshot}
 */
export function snapshotAt(events, k) {
  const n = Math.max(0, Math.min(k, events.length));
  const s = emptySnapshot();
  for (let i = 0; i < n; i++) apply(s, events[i]);
  s.k = n;
  return s;
}

/** The stand-in of a leaf known only by its ledger events (its tensor event was folded or cut). */
function ghost(s, id, e) {
  return (s.ghosts[id] ||= { id, name: e.name ?? null, grad: null });
}

function ledgerOf(s, id) {
  if (!s.ledger[id]) {
    s.ledger[id] = [];
    s.ledgerOrder.push(id);
  }
  return s.ledger[id];
}

/**
 * The gradient for each input of a node. `grad_inputs` has one entry per grad_fn edge (next_functions), while
 * `inputs` lists only the tensors autograd tracks, so a constant operand (as in `c * x`) has an entry in the first
 * and none in the second. When the lengths differ, the non-null gradients are matched to the inputs in order if
 * their counts agree; otherwise no edge is labelled (better no label than a wrong one).
 * @param {string[]} inputs
 * @param {any[]} gradInputs
 * @returns {any[]}
 */
export function alignGrads(inputs, gradInputs) {
  if (gradInputs.length === inputs.length) return gradInputs;
  const flowing = gradInputs.filter((g) => g !== null && g !== undefined);
  return flowing.length === inputs.length ? flowing : inputs.map(() => null);
}

/** Apply one event to the snapshot `s` in place (only snapshotAt calls this, on a fresh snapshot). */
function apply(s, e) {
  s.event = e;
  s.active = null;
  const line = e.line ?? null;
  if (s.backward && e.type !== 'node' && e.type !== 'accumulate') s.backward.done = true;
  switch (e.type) {
    case 'tensor': {
      const id = key(e.id);
      const inputs = (e.inputs || []).map(key);
      const known = id in s.tensors; // ids are unique per run; a repeat replaces the tensor in place
      s.tensors[id] = {
        id,
        name: e.name ?? null,
        op: e.op ?? null,
        inputs,
        shape: e.shape || [],
        dtype: e.dtype || 'float32',
        values: e.values ?? null,
        requiresGrad: Boolean(e.requires_grad),
        isLeaf: e.is_leaf ?? !e.op,
        module: e.module ?? null, // the module call that made it (`model.0`), if any
        moduleType: e.module_type ?? null,
        line,
        seq: e.seq,
        grad: null,
        ranIn: null,
        freedIn: null,
      };
      if (!known) s.order.push(id);
      inputs.forEach((from, index) => {
        if (s.tensors[from]) s.edges.push({ id: edgeId(from, id, index), from, to: id, index });
      });
      s.active = id;
      break;
    }
    case 'name': {
      const t = s.tensors[key(e.tensor)];
      if (t) t.name = e.name;
      s.active = key(e.tensor);
      break;
    }
    case 'backward': {
      s.backwardCount += 1;
      const retainGraph = Boolean(e.retain_graph);
      const pass = {
        root: key(e.root),
        gradient: e.gradient ?? null,
        values: e.values ?? null,
        retainGraph,
        line,
        seq: e.seq,
      };
      s.passes.push(pass);
      s.backward = { root: pass.root, gradient: pass.gradient, retainGraph, pass: s.backwardCount, line, done: false };
      s.edgeGrads = {};
      s.active = key(e.root);
      break;
    }
    case 'node': {
      const id = key(e.tensor);
      const t = s.tensors[id];
      if (t) {
        t.ranIn = s.backwardCount;
        if (s.backward && !s.backward.retainGraph) t.freedIn = s.backwardCount; // its saved values are released
        alignGrads(t.inputs, e.grad_inputs || []).forEach((g, index) => {
          if (g !== null && g !== undefined) s.edgeGrads[edgeId(t.inputs[index], id, index)] = g;
        });
      }
      s.active = id;
      break;
    }
    case 'accumulate': {
      const id = key(e.tensor);
      const t = s.tensors[id] ?? ghost(s, id, e);
      t.grad = e.after ?? null;
      if (s.tensors[id]) t.ranIn = s.backwardCount; // its AccumulateGrad node ran
      ledgerOf(s, id).push({
        seq: e.seq,
        line,
        kind: 'accumulate',
        before: e.before ?? null,
        delta: e.delta,
        after: e.after,
        pass: s.backwardCount,
      });
      (s.window[id] ||= []).push(s.backwardCount);
      s.active = id;
      break;
    }
    case 'grad_reset': {
      const id = key(e.tensor);
      const t = s.tensors[id] ?? ghost(s, id, e);
      const before = t.grad;
      const after = e.how === 'zero' && before !== null ? zerosLike(before) : null;
      t.grad = after;
      s.window[id] = [];
      ledgerOf(s, id).push({ seq: e.seq, line, kind: 'reset', how: e.how === 'zero' ? 'zero' : 'none', before, after });
      s.active = id;
      break;
    }
    case 'step': {
      const id = key(e.tensor);
      const t = s.tensors[id];
      if (t) t.values = e.after;
      const passes = [...(s.window[id] || [])];
      ledgerOf(s, id).push({ seq: e.seq, line, kind: 'step', before: e.before, after: e.after, passes });
      s.active = id;
      break;
    }
    case 'print': {
      const text = String(e.text ?? '');
      s.stdout += text.endsWith('\n') ? text : `${text}\n`;
      break;
    }
    case 'warning':
      s.warnings.push(String(e.message ?? ''));
      break;
    case 'truncated':
      s.truncated = String(e.message ?? 'the trace stops here');
      break;
    case 'iteration':
      s.iterations.push({ seq: e.seq, loop: e.loop, index: e.index });
      break;
    case 'folded':
      s.folds.push({
        seq: e.seq,
        loop: e.loop,
        first: e.first,
        last: e.last,
        iterations: e.iterations,
        events: e.events,
      });
      break;
    case 'error':
      s.error = { type: e.error_type || 'Error', message: String(e.message ?? ''), line };
      break;
    default:
      break; // unknown event types are allowed by the contract: ignore them
  }
}
