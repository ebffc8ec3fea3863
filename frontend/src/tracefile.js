// Recorded traces: the Trace JSON the share panel downloads and `gradtrace record code.py -o trace.json` writes,
// `{code, stdout, error, seed, events}`. Read back here to replay a run with no server.

/**
 * @typedef {{code: string, stdout: string, error: any, seed: number|null, events: any[]}} Trace
 */

/** A trace from parsed JSON, or an Error saying what is wrong with it. @param {any} data @returns {Trace} */
export function toTrace(data) {
  if (!data || typeof data !== 'object' || !Array.isArray(data.events)) {
    throw new Error('not a gradtrace trace: it has no "events" list');
  }
  if (!data.events.every((e) => e && typeof e === 'object' && typeof e.type === 'string')) {
    throw new Error('not a gradtrace trace: an event has no "type"');
  }
  return {
    code: typeof data.code === 'string' ? data.code : '',
    stdout: typeof data.stdout === 'string' ? data.stdout : '',
    error: data.error && typeof data.error === 'object' ? data.error : null,
    seed: Number.isSafeInteger(data.seed) ? data.seed : null,
    events: data.events,
  };
}

/** @param {string} text @returns {Trace} */
export const parseTrace = (text) => toTrace(JSON.parse(text));

/** A trace file's text (a File from a file input or a drop). @param {Blob} file */
export async function readTraceFile(file) {
  return parseTrace(await file.text());
}

/**
 * The playground's "Open trace" button and drag-and-drop of a .json file anywhere on the page.
 * @param {HTMLElement} mount  where the button goes
 * @param {{onTrace: (t: Trace, name: string) => void, onError: (message: string) => void, dropTarget?: HTMLElement}} opts
 */
export function createTraceOpener(mount, { onTrace, onError, dropTarget = document.body }) {
  const input = Object.assign(document.createElement('input'), { type: 'file', accept: '.json,application/json' });
  input.hidden = true; // the button opens it
  const button = Object.assign(document.createElement('button'), {
    type: 'button',
    className: 'share-button open-trace',
    textContent: 'Open trace…',
    title: 'Replay a recorded trace (Trace JSON or `gradtrace record`); you can also drop the file on the page',
  });
  const open = async (file) => {
    if (!file) return;
    try {
      onTrace(await readTraceFile(file), file.name);
    } catch (err) {
      onError(`${file.name}: ${/** @type {Error} */ (err).message}`);
    }
  };
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    open(input.files?.[0]);
    input.value = '';
  });
  dropTarget.addEventListener('dragover', (e) => {
    if (e.dataTransfer?.types.includes('Files')) {
      e.preventDefault();
      dropTarget.classList.add('dropping');
    }
  });
  dropTarget.addEventListener('dragleave', () => dropTarget.classList.remove('dropping'));
  dropTarget.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files?.[0];
    dropTarget.classList.remove('dropping');
    if (!file) return;
    e.preventDefault();
    open(file);
  });
  mount.append(button, input);
  return { button };
}
