// What the ledger's "backward() again" and "zero grad" buttons append to the program, derived from the trace
// (which lines built the graph of the last backward, which leaves have a .grad) and the code. Pure: no DOM.

const NAME = /^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*$/;

/** A statement that fits on its line: not a block header, not a continued or unbalanced line. */
function simpleStatement(text) {
  const t = text.replace(/#.*$/, '').trim();
  if (!t || t.endsWith(':') || t.endsWith('\\') || t.endsWith(',')) return false;
  let depth = 0;
  for (const c of t) {
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
  }
  return depth === 0;
}

/** `code` with `lines` appended as a commented block. */
function appendBlock(code, title, lines) {
  return `${code.replace(/\s*$/, '')}\n\n# ${title} (added by the playground)\n${lines.join('\n')}\n`;
}

/**
 * The program with the last backward call repeated: the lines that built its graph (a graph is freed by
 * backward(), so it has to be built again) and the backward line itself, dedented to run after everything else.
 * @param {string} code
 * @param {import('./reducer.js').Snapshot} final
 * @returns {string|null}  null when the trace has no backward call or its lines can't be repeated on their own.
 */
export function backwardAgain(code, final) {
  const pass = final.passes[final.passes.length - 1];
  if (!pass || !pass.line) return null;
  const n = final.passes.length;
  const graphLines = final.order
    .map((id) => final.tensors[id])
    .filter((t) => t.op && t.ranIn === n && t.line && t.line < pass.line)
    .map((t) => t.line);
  const wanted = [...new Set([...graphLines, pass.line])].sort((a, b) => a - b);
  const source = code.split('\n');
  const lines = wanted.map((l) => source[l - 1] ?? '');
  if (!lines.every(simpleStatement)) return null;
  return appendBlock(
    code,
    'backward() again',
    lines.map((l) => l.trim()),
  );
}

/**
 * The program with the gradients zeroed at its end: `optimizer.zero_grad()` if it made an optimizer, else
 * `x.grad.zero_()` for every named leaf whose `.grad` is set.
 * @param {string} code
 * @param {import('./reducer.js').Snapshot} final
 * @returns {string|null}
 */
export function zeroGrad(code, final) {
  const opt = /^([A-Za-z_]\w*)\s*=\s*(?:torch\.)?optim\.\w+\(/m.exec(code);
  if (opt && final.ledgerOrder.length) return appendBlock(code, 'zero grad', [`${opt[1]}.zero_grad()`]);
  const leaves = final.ledgerOrder
    .map((id) => final.tensors[id])
    .filter((t) => t && t.name && NAME.test(t.name) && t.grad !== null && t.grad !== undefined);
  if (!leaves.length) return null;
  return appendBlock(
    code,
    'zero grad',
    leaves.map((t) => `${t.name}.grad.zero_()`),
  );
}
