// The learner's edits: kept in local storage as they are typed (a reload keeps them), and kept one click away in
// the examples menu when an example replaces them.

const KEY = 'gradtrace:draft';
const EDIT = '__edit';

/** The last code typed in the playground, or null. */
export function loadDraft() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage off (private mode, sandboxed iframe)
  }
}

/** @param {string} code */
export function saveDraft(code) {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    /* storage off or full: the hash still has the code */
  }
}

/**
 * Put (or update) "Your edited code" at the top of the examples menu; choosing it gives `code` back.
 * @param {HTMLSelectElement} select
 * @param {string} code
 * @param {(code: string) => void} onRestore
 */
export function keepEditInMenu(select, code, onRestore) {
  let option = /** @type {HTMLOptionElement|null} */ (select.querySelector(`option[value="${EDIT}"]`));
  if (!option) {
    option = new Option('↩ Your edited code', EDIT);
    select.insertBefore(option, select.options[1] ?? null);
    select.addEventListener('change', () => {
      if (select.value === EDIT) onRestore(/** @type {any} */ (select).gradtraceEdit);
    });
  }
  /** @type {any} */ (select).gradtraceEdit = code;
}
