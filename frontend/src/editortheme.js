// The editor's dark theme (CodeMirror's own highlighting is made for a light page): colours for the code and for
// the editor around it, switched on and off with the page's prefers-color-scheme.

import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

const dark = [
  EditorView.theme(
    {
      '&': { backgroundColor: '#0f141b', color: '#dbe4ee' },
      '.cm-content': { caretColor: '#e5e7eb' },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: '#e5e7eb' },
      '.cm-gutters': { backgroundColor: '#131a22', color: '#8b98a8', borderRight: '1px solid #263241' },
      '.cm-activeLine': { backgroundColor: '#18212c' },
      '.cm-activeLineGutter': { backgroundColor: '#18212c' },
      '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: '#2d3f57' },
      '.cm-matchingBracket': { backgroundColor: '#2d3f57', outline: '1px solid #56709a' },
    },
    { dark: true },
  ),
  syntaxHighlighting(
    HighlightStyle.define([
      { tag: t.keyword, color: '#c4a7ff' },
      { tag: [t.name, t.variableName], color: '#dbe4ee' },
      { tag: [t.function(t.variableName), t.function(t.propertyName)], color: '#8cc8ff' },
      { tag: [t.propertyName, t.attributeName], color: '#9ed0ff' },
      { tag: [t.number, t.bool, t.null], color: '#f5b07a' },
      { tag: [t.string, t.special(t.string)], color: '#9fe0a8' },
      { tag: t.comment, color: '#8b98a8', fontStyle: 'italic' },
      { tag: [t.operator, t.punctuation], color: '#b8c4d2' },
      { tag: [t.className, t.typeName], color: '#ffd580' },
      { tag: t.invalid, color: '#ff8a8a' },
    ]),
  ),
];

/** The theme as an extension that follows the page's colour scheme. */
export function followColorScheme() {
  const theme = new Compartment();
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const pick = () => (query?.matches ? dark : []);
  return {
    extension: theme.of(pick()),
    /** @param {EditorView} view */
    watch(view) {
      query?.addEventListener('change', () => view.dispatch({ effects: theme.reconfigure(pick()) }));
    },
  };
}
