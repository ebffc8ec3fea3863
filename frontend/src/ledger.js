// Ledger panel: the history of each leaf's `.grad` — what every backward added, every reset, every step.

import { formatCompact, formatValues, tensorLabel } from './format.js';
import { heatmap, wantsHeatmap } from './heatmap.js';

const MAX_VALUE = 40; // characters per value in an entry; the full value is in the tooltip
const BEFORE = 30; // entries shown up to the current step, per leaf (a training loop makes thousands)
const AFTER = 10; // and after it

/**
 * @param {HTMLElement} root  data-testid="ledger"
 * @param {{onSeek: (k: number) => void, onRerun?: (what: 'again'|'zero') => void}} opts
 *   Clicking an entry jumps the timeline to it; the two buttons re-run the program with a call appended.
 */
export function createLedgerPanel(root, { onSeek, onRerun = () => {} }) {
  const actions = document.createElement('div');
  actions.className = 'ledger-actions';
  const action = (text, what, title) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'rerun';
    b.textContent = text;
    b.title = title;
    b.disabled = true;
    b.addEventListener('click', () => onRerun(what));
    actions.append(b);
    return b;
  };
  const again = action('backward() again', 'again', 'Run the program again with its last backward() appended');
  const zero = action('zero grad', 'zero', 'Run the program again with the gradients zeroed at the end');
  root.before(actions);

  /**
   * Shows every entry of the whole run; those after the current step are dimmed, the current one is marked.
   * @param {import('./reducer.js').Snapshot} final
   * @param {import('./reducer.js').Snapshot} snap
   * @param {any[]} events  To map an entry's seq to its step.
   */
  let steps = { events: /** @type {any[]|null} */ (null), n: 0, of: new Map() };

  function render(final, snap, events, can = { again: false, zero: false }) {
    again.disabled = !can.again;
    zero.disabled = !can.zero;
    root.replaceChildren();
    if (steps.events !== events || steps.n !== events.length) {
      steps = { events, n: events.length, of: new Map(events.map((e, i) => [e.seq, i + 1])) };
    }
    const stepOf = steps.of;
    if (!final.ledgerOrder.length) {
      const p = document.createElement('p');
      p.className = 'muted';
      p.textContent = 'No .grad yet: a leaf’s .grad is filled by backward().';
      root.append(p);
      return;
    }
    for (const id of final.ledgerOrder) {
      const t = final.tensors[id] ?? final.ghosts?.[id];
      const dtype = t?.dtype;
      const section = document.createElement('section');
      section.className = 'ledger-leaf';
      section.dataset.leafId = id;
      const h = document.createElement('h3');
      const held = snap.tensors[id] ?? snap.ghosts?.[id];
      const now = held ? formatCompact(held.grad, MAX_VALUE, dtype) : 'None';
      h.append(code(`${tensorLabel(t)}.grad`), ` = `, code(now));
      const list = document.createElement('ol');
      const entries = final.ledger[id];
      const done = entries.filter((e) => (stepOf.get(e.seq) ?? 0) <= snap.k).length;
      const from = Math.max(0, done - BEFORE);
      const to = Math.min(entries.length, done + AFTER);
      if (from > 0) list.append(more(`… ${from} earlier change${from === 1 ? '' : 's'}`));
      for (const entry of entries.slice(from, to)) {
        const k = stepOf.get(entry.seq) ?? 0;
        const li = document.createElement('li');
        li.className = `ledger-entry ${entry.kind}`;
        if (k > snap.k) li.classList.add('future');
        if (k === snap.k) li.classList.add('current');
        const button = document.createElement('button');
        button.type = 'button';
        button.title = `step ${k}: .grad = ${formatValues(entry.after, dtype)}`;
        button.addEventListener('click', () => onSeek(k));
        button.append(...entryText(entry, dtype));
        li.append(button);
        const big = entry.kind === 'reset' ? null : entry.kind === 'step' ? entry.after : entry.delta;
        if (wantsHeatmap(big))
          li.append(heatmap(big, t?.shape || [], { label: entry.kind === 'step' ? 'data' : 'delta' }));
        list.append(li);
      }
      if (to < entries.length) list.append(more(`… ${entries.length - to} later`));
      section.append(h, list);
      root.append(section);
    }
    keepInView(root, root.querySelector('.ledger-entry.current'));
  }
  return { render };
}

/** Scroll the ledger (not the page) so the entry of the current step shows. */
function keepInView(scroller, el) {
  if (!el) return;
  const top = el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
  if (top < scroller.scrollTop || top + el.offsetHeight > scroller.scrollTop + scroller.clientHeight) {
    scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 3);
  }
}

function more(text) {
  const li = document.createElement('li');
  li.className = 'ledger-more muted';
  li.textContent = text;
  return li;
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

/** The arithmetic of an entry, ending in its result (class "after"). */
function expr(math, after) {
  const e = span('expr', math);
  e.append(span('after', after));
  return e;
}

/** "+ 12. = 16." / "reset → None" / "step → …", with the source line. */
function entryText(entry, dtype) {
  const where = span('where', entry.line ? `line ${entry.line}` : '');
  switch (entry.kind) {
    case 'accumulate': {
      const before = entry.before === null ? 'None' : formatCompact(entry.before, MAX_VALUE, dtype);
      return [
        where,
        span('op', entry.pass ? `backward #${entry.pass}` : 'backward'),
        expr(
          `${before} + ${formatCompact(entry.delta, MAX_VALUE, dtype)} = `,
          formatCompact(entry.after, MAX_VALUE, dtype),
        ),
      ];
    }
    case 'reset':
      return [
        where,
        span('op', entry.how === 'zero' ? '.zero_()' : '= None'),
        expr('reset to ', formatCompact(entry.after, MAX_VALUE, dtype)),
      ];
    default: {
      const from = batches(entry.passes || []);
      return [
        where,
        span('op', 'step'),
        expr(
          `data ${formatCompact(entry.before, MAX_VALUE / 2, dtype)} → `,
          formatCompact(entry.after, MAX_VALUE, dtype),
        ),
        ...(from ? [span('batches', from)] : []),
      ];
    }
  }
}

/** "using .grad from backward #1–#4 (4 mini-batches)": what the optimizer step consumed. */
export function batches(passes) {
  if (!passes.length) return '';
  const first = passes[0];
  const lastPass = passes[passes.length - 1];
  const contiguous = lastPass - first === passes.length - 1;
  const which =
    passes.length === 1 ? `#${first}` : contiguous ? `#${first}–#${lastPass}` : passes.map((p) => `#${p}`).join(', ');
  const n = passes.length;
  if (n === 1) return `using .grad of backward ${which}`;
  return `using .grad summed over backward ${which} (${n} mini-batches)`;
}
