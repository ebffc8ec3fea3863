// Examples menu: the course lessons from GET /api/examples; picking one loads its code into the editor.

/**
 * @param {HTMLSelectElement} select
 * @param {{load: () => Promise<{id: string, title: string, code: string}[]>, onPick: (code: string, id: string) => void}} opts
 * @returns {Promise<{id: string, title: string, code: string}[]>}  The examples (empty if they could not be loaded).
 */
export async function createExamplesMenu(select, { load, onPick }) {
  select.replaceChildren(new Option('Examples…', ''));
  select.disabled = true;
  let examples = [];
  try {
    examples = await load();
  } catch {
    select.replaceChildren(new Option('Examples unavailable', ''));
    return [];
  }
  for (const ex of examples) select.append(new Option(ex.title, ex.id));
  select.disabled = examples.length === 0;
  select.addEventListener('change', () => {
    const ex = examples.find((x) => x.id === select.value);
    if (ex) onPick(ex.code, ex.id);
  });
  return examples;
}
