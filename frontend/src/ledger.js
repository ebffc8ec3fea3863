// Ledger panel: the history of each leaf's `.grad` — what every backward added, every reset, every step.

import { formatValues, tensorLabel } from './format.js';

/**
 * @param {HTMLElement} root  data-testid="ledger"
 * @param {{onSeek: (k: number) => void}} opts  Clicking an entry jumps the timeline to it.
 */
export function createLedgerPanel(root, { onSeek }) {
  /**
   * Shows every entry of the whole run; those after the current step are dimmed, the current one is marked.
   * @param {import('./reducer.js').Snapshot} final
   * @param {import('./reducer.js').Snapshot} snap
   * @param {any[]} events  To map an entry's seq to its step.
   */
  function render(final, snap, events) {
    root.replaceChildren();
    if (!final.ledgerOrder.length) {
      const p = document.createElement('p');
      p.className = 'muted';
      p.textContent = 'No .grad yet: a leaf’s .grad is filled by backward().';
      root.append(p);
      return;
    }
    const stepOf = new Map(events.map((e, i) => [e.seq, i + 1]));
    for (const id of final.ledgerOrder) {
      const t = final.tensors[id];
      const dtype = t?.dtype;
      const section = document.createElement('section');
      section.className = 'ledger-leaf';
      section.dataset.leafId = id;
      const h = document.createElement('h3');
      const now = snap.tensors[id] ? formatValues(snap.tensors[id].grad, dtype) : 'None';
      h.append(code(`${tensorLabel(t)}.grad`), ` = `, code(now));
      const list = document.createElement('ol');
      for (const entry of final.ledger[id]) {
        const k = stepOf.get(entry.seq) ?? 0;
        const li = document.createElement('li');
        li.className = `ledger-entry ${entry.kind}`;
        if (k > snap.k) li.classList.add('future');
        if (k === snap.k) li.classList.add('current');
        const button = document.createElement('button');
        button.type = 'button';
        button.title = `jump to step ${k}`;
        button.addEventListener('click', () => onSeek(k));
        button.append(...entryText(entry, dtype));
        li.append(button);
        list.append(li);
      }
      section.append(h, list);
      root.append(section);
    }
  }
  return { render };
}

function code(text) {
  const c = document.createElement('code');
  c.textContent = text;
  return c;
}

function span(cls, text) {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}

/** "+ 12. = 16." / "reset → None" / "step → …", with the source line. */
function entryText(entry, dtype) {
  const where = span('where', entry.line ? `line ${entry.line}` : '');
  switch (entry.kind) {
    case 'accumulate': {
      const before = entry.before === null ? 'None' : formatValues(entry.before, dtype);
      return [
        where,
        span('op', 'backward'),
        span('math', `${before} + ${formatValues(entry.delta, dtype)} = `),
        span('after', formatValues(entry.after, dtype)),
      ];
    }
    case 'reset':
      return [
        where,
        span('op', entry.how === 'zero' ? '.zero_()' : '= None'),
        span('math', 'reset to '),
        span('after', formatValues(entry.after, dtype)),
      ];
    default:
      return [where, span('op', 'step'), span('math', 'data ← '), span('after', formatValues(entry.after, dtype))];
  }
}
