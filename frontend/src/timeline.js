// Timeline panel: step through the trace (first / previous / play / next / last, a slider, arrow keys) and read
// what the current event did. It only talks to the player; the player owns time.

import { describe } from './describe.js';

/**
 * @param {HTMLElement} root  data-testid="timeline"
 * @param {import('./player.js').Player} player
 */
export function createTimelinePanel(root, player) {
  const el = (tag, props = {}) => Object.assign(document.createElement(tag), props);
  const button = (label, title, action) => {
    const b = el('button', { type: 'button', textContent: label, title, className: 'icon' });
    b.setAttribute('aria-label', title);
    b.addEventListener('click', action);
    return b;
  };
  const first = button('⏮', 'First step', () => player.seek(0));
  const prev = button('◀', 'Previous step (←)', () => player.prev());
  const play = button('▶', 'Play', () => player.toggle());
  const next = button('▶|', 'Next step (→)', () => player.next());
  const last = button('⏭', 'Last step', () => player.seek(player.length()));
  prev.textContent = '‹';
  next.textContent = '›';
  const slider = el('input', { type: 'range', min: '0', max: '0', value: '0', className: 'slider' });
  slider.setAttribute('aria-label', 'step');
  slider.addEventListener('input', () => player.seek(Number(slider.value)));
  const counter = el('span', { className: 'counter' });
  const what = el('p', { className: 'what' });
  const controls = el('div', { className: 'controls' });
  controls.append(first, prev, play, next, last, slider, counter);
  root.append(controls, what);

  // ← / → step through time unless the learner is typing in the editor or a form field.
  document.addEventListener('keydown', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest('.cm-editor, input, select, textarea') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight') player.next();
    else if (e.key === 'ArrowLeft') player.prev();
    else return;
    e.preventDefault();
  });

  /** @param {import('./reducer.js').Snapshot} snap */
  function render(snap) {
    const n = player.length();
    slider.max = String(n);
    slider.value = String(snap.k);
    slider.disabled = n === 0;
    for (const b of [first, prev]) b.disabled = snap.k === 0;
    for (const b of [next, last]) b.disabled = snap.k >= n;
    play.disabled = n === 0;
    play.textContent = player.playing() ? '❚❚' : '▶';
    play.title = player.playing() ? 'Pause' : 'Play';
    counter.textContent = `step ${snap.k} / ${n}`;
    if (!snap.event) {
      what.className = 'what muted';
      what.textContent = n ? 'Before the first event. Step forward to replay the run.' : 'No trace yet: press Run.';
      return;
    }
    const { kind, text } = describe(snap.event, snap);
    what.className = `what ${kind}`;
    what.replaceChildren();
    const tag = el('span', { className: 'tag', textContent: snap.event.line ? `line ${snap.event.line}` : kind });
    what.append(tag, text);
  }

  return { render };
}
