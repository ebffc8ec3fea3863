// The whole state of a link: `#code=<base64url>&seed=7&step=12&hide=editor,timeline&autorun=1`. Pure (no DOM but
// applyHide), so the playground, /embed and the widget read and write links the same way.

import { codeFromHash, encodeCode } from './hash.js';

/** The panels a link (or a widget's data-hide) can hide, and the element each one is. */
export const PANELS = {
  editor: '.editor-panel',
  graph: '.graph-panel',
  timeline: '.timeline-panel',
  ledger: '.ledger-panel',
  output: '.output-panel',
  legend: '.legend',
};

/**
 * @typedef {{code: string|null, seed: number|null, step: number|null, hide: string[], autorun: boolean}} LinkState
 */

/** A non-negative integer, or null for anything else. @param {string|null} raw */
function count(raw) {
  if (raw === null || !/^\d{1,20}$/.test(raw.trim())) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}

/** `editor, timeline` → ['editor', 'timeline'] (known panel names only). @param {string|null|undefined} raw */
export function hideList(raw) {
  return (raw || '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s in PANELS);
}

/** @param {string} hash e.g. location.hash @returns {LinkState} */
export function readLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const hide = hideList(params.get('hide'));
  if (params.get('editor') === '0') hide.push('editor'); // the older embed flag
  return {
    code: codeFromHash(hash),
    seed: count(params.get('seed')),
    step: count(params.get('step')),
    hide: [...new Set(hide)],
    autorun: params.get('autorun') === '1',
  };
}

/**
 * A hash with the given state written over `hash`'s (keys set to null are removed, others kept).
 * @param {string} hash
 * @param {{code?: string|null, seed?: number|null, step?: number|null, hide?: string[]|null, autorun?: boolean|null}} state
 */
export function writeLink(hash, state) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const put = (key, value) => (value === null || value === '' ? params.delete(key) : params.set(key, value));
  if ('code' in state) put('code', state.code === null ? null : encodeCode(state.code ?? ''));
  if ('seed' in state) put('seed', state.seed ?? null);
  if ('step' in state) put('step', state.step ?? null);
  if ('hide' in state) put('hide', state.hide?.length ? state.hide.join(',') : null);
  if ('autorun' in state) put('autorun', state.autorun ? '1' : null);
  // code last: the readable flags stay at the front of a long link
  const code = params.get('code');
  if (code !== null) {
    params.delete('code');
    params.append('code', code);
  }
  return `#${params.toString()}`;
}

/**
 * Hide the panels named in `hide` inside `root` (and show the others that a link may hide).
 * @param {ParentNode} root
 * @param {string[]} hide
 */
export function applyHide(root, hide) {
  for (const [name, selector] of Object.entries(PANELS)) {
    for (const el of root.querySelectorAll(selector)) /** @type {HTMLElement} */ (el).hidden = hide.includes(name);
  }
}

/** PyTorch calls that draw from the generator: a link to code with one carries the run's seed. */
const RANDOM =
  /\b(rand|randn|randint|randperm|rand_like|randn_like|normal_?|uniform_|bernoulli_?|multinomial|exponential_|random_|Dropout|dropout|Linear|init\.|shuffle|random_split)\b/;

/** Whether `code` may draw random numbers (so its numbers depend on the seed). @param {string} code */
export const drawsRandom = (code) => RANDOM.test(code);
