// Output panel: what the program printed, and the error (`Type: message (line N)`) if it raised.

import { explainError } from './explain.js';

/**
 * @param {{stdout: HTMLElement, error: HTMLElement, warnings: HTMLElement, status: HTMLElement, explain: HTMLElement}} els
 *   stdout: data-testid="stdout" (a <pre>); error: data-testid="error"; warnings: a <ul> for UserWarnings;
 *   status: a short run status line; explain: one sentence on what a classic autograd error means.
 */
export function createOutputPanel({ stdout, error, warnings, status, explain }) {
  /**
   * @param {{stdout: string, error: {type: string, message: string, line: number|null}|null, warnings: string[], truncated?: string|null, folds?: {loop: number, first: number, last: number, iterations: number}[]}} out
   */
  function render(out) {
    const li = (text) => Object.assign(document.createElement('li'), { textContent: text });
    warnings.replaceChildren(...out.warnings.map((w) => li(`UserWarning: ${w}`)));
    const folds = out.folds || [];
    for (const f of folds) {
      warnings.append(
        li(
          `Loop at line ${f.loop}: iterations ${f.first}–${f.last} folded (${f.iterations} iterations: their ` +
            'graphs are left out; their .grad changes, steps and prints are kept)',
        ),
      );
    }
    if (out.truncated) warnings.append(li(`Trace cut short: ${out.truncated}`));
    warnings.hidden = out.warnings.length === 0 && !out.truncated && folds.length === 0;
    stdout.textContent = out.stdout;
    stdout.classList.toggle('empty', !out.stdout);
    if (out.error) {
      const where = out.error.line ? ` (line ${out.error.line})` : '';
      error.textContent = `${out.error.type}: ${out.error.message}${where}`;
      error.hidden = false;
    } else {
      error.textContent = '';
      error.hidden = true;
    }
    const why = explainError(out.error);
    explain.textContent = why ?? '';
    explain.hidden = !why;
  }

  /**
   * The run's status line: "Running… 12 events", "17 events · seed 42", "Run failed".
   * @param {'idle'|'running'|'done'|'failed'} state
   * @param {number} n  events received
   * @param {number|null} seed
   */
  function setStatus(state, n, seed) {
    const events = `${n} event${n === 1 ? '' : 's'}`;
    const text = {
      idle: '',
      running: `Running… ${events}`,
      done: `${events}${seed === null ? '' : ` · seed ${seed}`}`,
      failed: 'Run failed',
    };
    status.textContent = text[state];
  }

  return { render, setStatus };
}
