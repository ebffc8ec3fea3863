// Editor panel: CodeMirror 6 with Python, Ctrl/Cmd-Enter to run, and a marker on the line of the current step.

import { basicSetup } from 'codemirror';
import { python } from '@codemirror/lang-python';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, keymap } from '@codemirror/view';

/** @typedef {{line: number, kind: "step"|"error"} | null} Mark */

const setMark = StateEffect.define();

/** The decoration of the marked line; it follows edits and disappears when its line is gone. */
const markField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    let next = deco.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setMark)) continue;
      /** @type {Mark} */
      const mark = effect.value;
      if (!mark || mark.line < 1 || mark.line > tr.state.doc.lines) next = Decoration.none;
      else {
        const from = tr.state.doc.line(mark.line).from;
        next = Decoration.set([Decoration.line({ class: `cm-mark-${mark.kind}` }).range(from)]);
      }
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/**
 * CodeMirror adds its styles as <style> elements. Under a strict CSP (style-src without 'unsafe-inline') they need
 * the nonce of the response, which the server can hand over in <meta name="csp-nonce" content="…">.
 */
function cspNonce() {
  const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content');
  return nonce ? [EditorView.cspNonce.of(nonce)] : [];
}

/**
 * @param {HTMLElement} parent
 * @param {{doc?: string, onRun: () => void, onChange?: () => void}} opts
 */
export function createEditor(parent, { doc = '', onRun, onChange }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }]),
        basicSetup,
        python(),
        markField,
        cspNonce(),
        EditorView.contentAttributes.of({ 'aria-label': 'Python code' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && onChange) onChange();
        }),
      ],
    }),
  });

  return {
    view,
    getCode: () => view.state.doc.toString(),
    /** @param {string} code */
    setCode(code) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code }, effects: setMark.of(null) });
    },
    /** @param {Mark} mark */
    mark(mark) {
      const effects = [setMark.of(mark)];
      if (mark && mark.line >= 1 && mark.line <= view.state.doc.lines) {
        effects.push(EditorView.scrollIntoView(view.state.doc.line(mark.line).from, { y: 'nearest' }));
      }
      view.dispatch({ effects });
    },
  };
}
