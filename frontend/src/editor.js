// Editor panel: CodeMirror 6 with Python, Ctrl/Cmd-Enter to run, and a marker on the line of the current step.
// Tab indents by 4 spaces, as the lessons do (Escape then Tab leaves the editor, as CodeMirror recommends); the
// code follows the page's dark mode (editortheme.js).

import { basicSetup } from 'codemirror';
import { indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { indentUnit } from '@codemirror/language';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, keymap } from '@codemirror/view';
import { followColorScheme } from './editortheme.js';

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
/** @type {import('@codemirror/state').StateEffectType<Mark | {line: number, kind: string}>} */
const setMark = StateEffect.define();
/** @type {import('@codemirror/state').StateEffectType<Mark | {line: number, kind: string}>} */
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
  const theme = followColorScheme();
  const view = new EditorView({
    parent,
    ...(root ? { root } : {}),
    state: EditorState.create({
      doc,
      extensions: [
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }, indentWithTab]),
        basicSetup,
        python(),
        indentUnit.of('    '),
        EditorState.tabSize.of(4),
        theme.extension,
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

  theme.watch(view);

  return {
    view,
    getCode: () => view.state.doc.toString(),
    /** @param {string} code */
    setCode(code) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: code }, effects: setMark.of(null) });
    },
    /** @param {Mark} mark */
    mark(mark) {
      view.dispatch({ effects: [setMark.of(mark)] });
      if (mark && mark.line >= 1 && mark.line <= view.state.doc.lines) {
        // scroll the editor itself, never the page (at phone width the page shows the graph while stepping)
        const block = view.lineBlockAt(view.state.doc.line(mark.line).from);
        const dom = view.scrollDOM;
        if (block.top < dom.scrollTop || block.bottom > dom.scrollTop + dom.clientHeight) {
          dom.scrollTop = Math.max(0, block.top - dom.clientHeight / 3);
        }
      }
    },
    /** Highlight the line whose graph nodes the pointer is over. @param {number|null} line */
    hoverLine(line) {
      view.dispatch({ effects: setHover.of(line ? { line, kind: 'hover' } : null) });
    },
  };
}
