// Output panel: what the program printed, and the error (`Type: message (line N)`) if it raised.

/**
 * @param {{stdout: HTMLElement, error: HTMLElement, status: HTMLElement}} els
 *   stdout: data-testid="stdout" (a <pre>); error: data-testid="error"; status: a short run status line.
 */
export function createOutputPanel({ stdout, error, status }) {
  /**
   * @param {{stdout: string, error: {type: string, message: string, line: number|null}|null}} out
   */
  function render(out) {
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
  }

  /** @param {string} text */
  function setStatus(text) {
    status.textContent = text;
  }

  return { render, setStatus };
}
