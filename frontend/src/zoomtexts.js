// Semantic zoom's texts (issue 12, point 2: text never under 11 px on screen): what the drawing says zoomed out, read
// from what graphdraw.js drew. The names are picked by framing.js's pickName.

import { nodeNames } from './graphdraw.js';

/** The tensors' names and sizes among these boxes (for framing.js's legibleScale). */
export const namesOf = (final, boxes) =>
  boxes.filter((b) => final.tensors[b.id]).map((b) => ({ names: nodeNames(final.tensors[b.id]), ...b }));

/**
 * @typedef {{el: Element, names: string[], width: number, height: number, full: string}} Named
 *   A text of the drawing that says the longest of `names` fitting width × height when zoomed out, `full` zoomed in.
 */

/**
 * The texts semantic zoom picks: each node's name (hidden zoomed in), each module's label (in the room kept above its
 * frame, clusterroom.js: zoomed out its path, or nothing).
 * @param {Element} viewport
 * @returns {Named[]}
 */
export function namedTexts(viewport) {
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
    named.push({ el, names, width, height, full: names[0] });
  }
  return named;
}
