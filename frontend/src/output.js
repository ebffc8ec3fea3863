// Output panel: what the program printed, and the error (`Type: message (line N)`) if it raised.

/**
 * @param {{stdout: HTMLElement, error: HTMLElement, warnings: HTMLElement, status: HTMLElement}} els
 *   stdout: data-testid="stdout" (a <pre>); error: data-testid="error"; warnings: a <ul> for UserWarnings;
 *   status: a short run status line.
 */
export function createOutputPanel({ stdout, error, warnings, status }) {
  /**
   * @param {{stdout: string, error: {type: string, message: string, line: number|null}|null, warnings: string[]}} out
   */
  function render(out) {
    warnings.replaceChildren(
      ...out.warnings.map((w) => Object.assign(document.createElement('li'), { textContent: `UserWarning: ${w}` })),
    );
    warnings.hidden = out.warnings.length === 0;
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
