// Semantic zoom's texts (issue 12, point 2: text never under 11 px on screen): what the drawing says zoomed out, read
// from what graphdraw.js drew. The names are picked by framing.js's pickName.

import { pickName } from './framing.js';
import { nodeNames } from './graphdraw.js';

/** The tensors' names and sizes among these boxes (for framing.js's legibleScale). */
export const namesOf = (final, boxes) =>
  boxes.filter((b) => final.tensors[b.id]).map((b) => ({ names: nodeNames(final.tensors[b.id]), ...b }));

/**
 * @typedef {{el: Element, names: string[], width: number, height: number, full: string, inside?: {width: number,
 *   height: number}}} Named
 *   A text of the drawing that says the longest of `names` fitting width × height when zoomed out, `full` zoomed in;
 *   inside: a module's frame, where its label goes at the marks level (its boxes are coloured marks then, with no text).
 */

/**
 * The texts semantic zoom picks: each node's name (hidden zoomed in), each module's label (in the room kept above its
 * frame, clusterroom.js: zoomed out its path, or nothing).
 * @param {Element} viewport
 * @returns {Named[]}
 */
export function namedTexts(viewport) {
  /** @type {Named[]} */
  const named = [...viewport.querySelectorAll('[data-names]')].map((g) => {
    const box = g.querySelector('rect');
    return {
      el: /** @type {Element} */ (g.querySelector(':scope > text.name')),
      names: (g.getAttribute('data-names') || '').split('|'),
      width: Number(box?.getAttribute('width')) || 0,
      height: Number(box?.getAttribute('height')) || 0,
      full: '',
    };
  });
  for (const el of viewport.querySelectorAll('.cluster:not(.collapsed) > .cluster-label')) {
    const names = (el.getAttribute('data-labels') || '').split('|');
    const [width, height] = [Number(el.getAttribute('data-room')), Number(el.getAttribute('data-room-h'))];
    const frame = el.parentElement?.querySelector(':scope > rect');
    const inside = {
      width: Number(frame?.getAttribute('width')) || 0,
      height: Number(frame?.getAttribute('height')) || 0,
    };
    named.push({ el, names, width, height, full: names[0], inside });
  }
  return named;
}

/**
 * Writes what `n` says at this zoom: zoomed in its full text; zoomed out the longest name that fits its room at 11 px
 * on screen (framing.js); a module's label at the marks level in the middle of its frame, over its marks.
 * @param {Named} n
 * @param {'full'|'names'|'marks'} level
 * @param {number} k
 */
export function say(n, level, k) {
  const middle = level === 'marks' && n.inside;
  if (n.inside) {
    const at = middle ? [n.inside.width / 2, n.inside.height / 2, 'middle'] : [6, -5, 'start'];
    n.el.setAttribute('x', String(at[0]));
    n.el.setAttribute('y', String(at[1]));
    n.el.setAttribute('text-anchor', String(at[2]));
    n.el.classList.toggle('inside', Boolean(middle));
  }
  const room = middle && n.inside ? n.inside : n;
  n.el.textContent = level === 'full' ? n.full : pickName(n.names, room.width, room.height, k);
}
