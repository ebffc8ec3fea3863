// Timeline panel: step through the trace (first / previous / play / next / last, a slider, arrow keys) and read
// what the current event did. It only talks to the player; the player owns time.

import { describe, kindOf } from './describe.js';
import { JUMPS, jump } from './jumps.js';
import { svg } from './svg.js';

/** Icons as SVG paths (a 16×16 box): fonts don't all have ⏮ ⏭ ⏸. */
const ICONS = {
  first: 'M3 3h2v10H3z M13 3v10L6 8z',
  prev: 'M11 3v10L4 8z',
  play: 'M5 3v10l8-5z',
  pause: 'M4 3h3v10H4z M9 3h3v10H9z',
  next: 'M5 3v10l7-5z',
  last: 'M11 3h2v10h-2z M3 3v10l7-5z',
};

const icon = (name) =>
  svg('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true' }, [svg('path', { d: ICONS[name] })]);

/**
 * @param {HTMLElement} root  data-testid="timeline"
 * @param {import('./player.js').Player} player
 * @param {{keys?: Document|ShadowRoot}} [opts]  where ← → Space Home End are heard (default: the page)
 */
export function createTimelinePanel(root, player, { keys: keyTarget = document } = {}) {
  const el = (tag, props = {}) => Object.assign(document.createElement(tag), props);
  const button = (name, title, action) => {
    const b = el('button', { type: 'button', title, className: 'icon' });
    b.append(icon(name));
    b.setAttribute('aria-label', title);
    b.addEventListener('click', action);
    return b;
  };
  const first = button('first', 'First step', () => player.seek(0));
  const prev = button('prev', 'Previous step (←)', () => player.prev());
  const play = button('play', 'Play', () => player.toggle());
  const next = button('next', 'Next step (→)', () => player.next());
  const last = button('last', 'Last step', () => player.seek(player.length()));
  const slider = el('input', { type: 'range', min: '0', max: '0', value: '0', className: 'slider' });
  slider.setAttribute('aria-label', 'step');
  slider.addEventListener('input', () => player.seek(Number(slider.value)));
  const counter = el('span', { className: 'counter' });
  const speed = el('select', { className: 'speed', title: 'Playback speed' });
  speed.setAttribute('aria-label', 'Playback speed');
  for (const x of [0.5, 1, 2, 4, 8]) speed.append(new Option(`${x}×`, String(x), x === 1, x === 1));
  speed.addEventListener('change', () => player.setSpeed(Number(speed.value)));
  const what = el('p', { className: 'what' });
  const keys = el('p', {
    className: 'keys muted',
    textContent: 'Keys: ← → step · PageUp/PageDown previous/next backward() · Space play/pause · Home/End first/last',
  });
  let events = /** @type {any[]} */ ([]);
  const jumpTo = (kind, dir) => {
    const to = jump(events, player.position(), kind, dir);
    if (to !== null) player.seek(to);
  };
  const jumps = el('div', { className: 'jumps', role: 'group' });
  jumps.setAttribute('aria-label', 'jump to');
  /** @type {[HTMLButtonElement, string, 1|-1][]} */
  /** @type {[HTMLButtonElement, keyof typeof JUMPS, 1|-1][]} */
  const jumpButtons = [];
  for (const kind of /** @type {(keyof typeof JUMPS)[]} */ (Object.keys(JUMPS))) {
    const { label } = JUMPS[kind];
    for (const dir of /** @type {(1|-1)[]} */ ([-1, 1])) {
      const name = `${dir < 0 ? 'Previous' : 'Next'} ${label}${kind === 'backward' ? (dir < 0 ? ' (PageUp)' : ' (PageDown)') : ''}`;
      const b = el('button', {
        type: 'button',
        className: 'jump',
        textContent: dir < 0 ? `◂ ${label}` : `${label} ▸`,
        title: name,
      });
      b.setAttribute('aria-label', name);
      b.addEventListener('click', () => jumpTo(kind, dir));
      jumps.append(b);
      jumpButtons.push([b, kind, dir]);
    }
  }
  const controls = el('div', { className: 'controls' });
  const strip = svg('svg', { class: 'strip', viewBox: '0 0 1 1', preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  const track = el('div', { className: 'track' });
  track.append(slider, strip);
  controls.append(first, prev, play, next, last, track, counter, speed);
  root.append(controls, jumps, what, keys);
  let stripFor = { events: /** @type {any[]|null} */ (null), n: -1 };
  // Clicking the strip jumps there, like the slider.
  strip.addEventListener('click', (e) => {
    const box = strip.getBoundingClientRect();
    player.seek(Math.round(((e.clientX - box.left) / box.width) * player.length()));
  });

  // ← / → step, Space plays, Home / End jump, unless the learner is typing in the editor or a form field.
  // (keys: where they are heard: the page, or one widget's shadow root; the target is the element inside it.)
  keyTarget.addEventListener('keydown', (/** @type {any} */ e) => {
    const target = /** @type {HTMLElement} */ (e.composedPath()[0]);
    if (!target?.closest) return;
    if (target.closest('.cm-editor, input, select, textarea') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight') player.next();
    else if (e.key === 'ArrowLeft') player.prev();
    else if (e.key === 'Home') player.seek(0);
    else if (e.key === 'End') player.seek(player.length());
    else if (e.key === 'PageUp') jumpTo('backward', -1);
    else if (e.key === 'PageDown') jumpTo('backward', 1);
    else if (e.key === ' ' && !target.closest('button, a')) player.toggle();
    else return;
    e.preventDefault();
  });

  /**
   * @param {import('./reducer.js').Snapshot} snap
   * @param {any[]} all  the run's events
   */
  function render(snap, all) {
    events = all;
    const n = player.length();
    for (const [b, kind, dir] of jumpButtons) b.disabled = jump(events, snap.k, kind, dir) === null;
    if (stripFor.events !== events || stripFor.n !== events.length) {
      stripFor = { events, n: events.length };
      drawStrip(strip, events);
    }
    slider.max = String(n);
    slider.value = String(snap.k);
    slider.disabled = n === 0;
    for (const b of [first, prev]) b.disabled = snap.k === 0;
    for (const b of [next, last]) b.disabled = snap.k >= n;
    play.disabled = n === 0;
    const playing = player.playing();
    if (play.dataset.icon !== String(playing)) {
      play.dataset.icon = String(playing);
      play.replaceChildren(icon(playing ? 'pause' : 'play'));
      play.title = playing ? 'Pause' : 'Play';
      play.setAttribute('aria-label', play.title);
    }
    counter.textContent = `step ${snap.k} / ${n}`;
    if (!snap.event) {
      what.className = 'what muted';
      what.textContent = n ? 'Before the first event. Step forward to replay the run.' : 'No trace yet: press Run.';
      return;
    }
    const { kind, text } = describe(snap.event, snap);
    what.className = `what kind-${kind}`;
    what.replaceChildren();
    const tag = el('span', { className: 'tag', textContent: snap.event.line ? `line ${snap.event.line}` : kind });
    what.append(tag, text);
  }

  return { render };
}

const BINS = 600;
const RANK = { error: 4, grad: 3, backward: 2, forward: 1, output: 0 };

/** The run's rhythm under the slider: forward (blue), backward (orange), .grad changes (green), in ≤ 600 bins. */
function drawStrip(strip, events) {
  const n = events.length;
  const bins = Math.min(n, BINS);
  /** @type {string[]} */
  const kinds = new Array(bins).fill('output');
  events.forEach((e, i) => {
    const b = Math.floor((i * bins) / n);
    const kind = kindOf(e.type);
    if (RANK[kind] > RANK[kinds[b]]) kinds[b] = kind;
  });
  const rects = [];
  for (let b = 0; b < bins;) {
    let end = b + 1;
    while (end < bins && kinds[end] === kinds[b]) end++;
    rects.push(svg('rect', { x: b, y: 0, width: end - b, height: 1, class: `k-${kinds[b]}` }));
    b = end;
  }
  strip.setAttribute('viewBox', `0 0 ${Math.max(1, bins)} 1`);
  const legend = svg('title', {}, ['blue: forward · orange: backward · green: .grad changes · red: error']);
  strip.replaceChildren(legend, ...rects);
}
