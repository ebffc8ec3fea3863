// Editor panel: CodeMirror 6 with Python, Ctrl/Cmd-Enter to run, and a marker on the line of the current step.

import { basicSetup } from 'codemirror';
import { python } from '@codemirror/lang-python';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, keymap } from '@codemirror/view';

/** @typedef {{line: number, kind: "step"|"error"} | null} Mark */

/** One marked line (the current step's, or the one whose graph nodes the pointer is over). */
const lineMark = (setMark) =>
  StateField.define({
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
const setMark = StateEffect.define();
const setHover = StateEffect.define();
const markField = lineMark(setMark);
const hoverField = lineMark(setHover);

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
 * @param {{doc?: string, onRun: () => void, onChange?: () => void, onHoverLine?: (line: number|null) => void,
 *   root?: ShadowRoot, readOnly?: boolean}} opts
 *   onHoverLine: the pointer moved onto another source line (null: off the code); root: the shadow root the
 *   editor lives in (its styles go there); readOnly: the code can be read, selected and run, not changed.
 */
export function createEditor(parent, { doc = '', onRun, onChange, onHoverLine = () => {}, root, readOnly = false }) {
  let hovered = /** @type {number|null} */ (null);
  const hover = (line) => {
    if (line !== hovered) onHoverLine((hovered = line));
  };
  const view = new EditorView({
    parent,
    ...(root ? { root } : {}),
    state: EditorState.create({
      doc,
      extensions: [
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }]),
        basicSetup,
        python(),
        markField,
        hoverField,
        cspNonce(),
        EditorState.readOnly.of(readOnly),
        EditorView.domEventHandlers({
          mousemove(e, v) {
            const pos = v.posAtCoords({ x: e.clientX, y: e.clientY });
            hover(pos === null ? null : v.state.doc.lineAt(pos).number);
          },
          mouseleave: () => hover(null),
        }),
        EditorView.contentAttributes.of({ 'aria-label': 'Python code', tabindex: '0' }),
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
    /** Highlight the line whose graph nodes the pointer is over. @param {number|null} line */
    hoverLine(line) {
      view.dispatch({ effects: setHover.of(line ? { line, kind: 'hover' } : null) });
    },
  };
}
