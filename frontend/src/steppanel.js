// The step panel, under the graph: what the current event did, and at a grad_fn node its chain rule (explain.js)
// with every number's full value on hover. It sits beside the graph, never over it.

import { describe } from './describe.js';
import { chainRule } from './explain.js';

/** @param {HTMLElement} root  data-testid="step" */
export function createStepPanel(root) {
  const el = (tag, props = {}) => Object.assign(document.createElement(tag), props);

  /** @param {import('./explain.js').Part[]} parts */
  const line = (parts, className) => {
    const p = el('p', { className });
    for (const part of parts) {
      if (typeof part === 'string') p.append(part);
      else p.append(el('span', { className: 'num', textContent: part.text, title: part.full }));
    }
    return p;
  };

  /** @param {import('./reducer.js').Snapshot} snap */
  function render(snap) {
    root.replaceChildren();
    const e = snap.event;
    if (!e) {
      root.append(el('p', { className: 'muted', textContent: 'Each step of the run is explained here.' }));
      return;
    }
    const { kind, text } = describe(e, snap);
    const what = el('p', { className: `what step-what kind-${kind}` });
    what.append(el('span', { className: 'tag', textContent: e.line ? `line ${e.line}` : kind }), text);
    root.append(what);
    const rule = chainRule(e, snap);
    if (!rule) return;
    const chain = el('div', { className: 'chain-rule' });
    chain.append(el('p', { className: 'head', textContent: rule.head }));
    for (const parts of rule.parts) chain.append(line(parts, 'line'));
    root.append(chain);
  }

  return { render };
}
