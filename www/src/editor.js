// The two CodeMirror 6 editors: YAML highlighting, line numbers, diagnostics as inline markers
// (set from the engine's results, 1-based line/column in UTF-16 code units, which is exactly
// CodeMirror's own unit) and line highlights for the role tree's hover.

import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';

const setHighlight = StateEffect.define();
const highlightLine = Decoration.line({ class: 'cm-source-highlight' });

/** Lines highlighted because a result node that came from them is hovered or selected. */
const highlightField = StateField.define({
  create: () => Decoration.none,
  update(decorations, transaction) {
    decorations = decorations.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setHighlight)) decorations = effect.value;
    }
    return decorations;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * @param {HTMLElement} parent
 * @param {string} text
 * @param {{onChange: () => void, keys: import('@codemirror/view').KeyBinding[], label: string}} options
 */
export function createEditor(parent, text, { onChange, keys, label }) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        keymap.of(keys),
        lineNumbers(),
        highlightActiveLineGutter(),
        foldGutter(),
        lintGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        syntaxHighlighting(classHighlighter),
        yaml(),
        highlightField,
        EditorState.tabSize.of(2),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        keymap.of([...defaultKeymap, ...historyKeymap, ...foldKeymap, ...searchKeymap, ...lintKeymap, indentWithTab]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange();
        }),
      ],
    }),
  });
}

/** Replaces the whole text as one undoable change. */
export function replaceText(view, text, userEvent = 'input.replace') {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent });
}

/** The document offset of a 1-based line/column (UTF-16), clamped into the document. */
export function offsetOf(doc, line, column) {
  const lineNumber = Math.min(Math.max(1, line | 0), doc.lines);
  const info = doc.line(lineNumber);
  return Math.min(info.from + Math.max(0, (column | 0) - 1), info.to);
}

/** Shows engine diagnostics as markers. Diagnostics without a position are only listed. */
export function showDiagnostics(view, diagnostics) {
  const doc = view.state.doc;
  const marks = [];
  for (const diagnostic of diagnostics) {
    if (!diagnostic.line) continue;
    const from = offsetOf(doc, diagnostic.line, diagnostic.column ?? 1);
    let to = diagnostic.endLine ? offsetOf(doc, diagnostic.endLine, diagnostic.endColumn ?? 1) : from;
    if (to < from) to = from;
    if (to === from) to = Math.min(doc.lineAt(from).to, from + 1);
    marks.push({
      from,
      to,
      severity: diagnostic.severity === 'error' ? 'error' : diagnostic.severity === 'warning' ? 'warning' : 'info',
      source: diagnostic.code,
      message: diagnostic.help ? `${diagnostic.message}\n${diagnostic.help}` : diagnostic.message,
    });
  }
  view.dispatch(setDiagnostics(view.state, marks));
}

/** Highlights whole lines (1-based, inclusive ranges); an empty list clears. */
export function highlightLines(view, ranges) {
  const doc = view.state.doc;
  const seen = new Set();
  const decorations = [];
  for (const [first, last] of ranges) {
    for (let line = Math.max(1, first); line <= Math.min(last, doc.lines); line++) {
      if (seen.has(line)) continue;
      seen.add(line);
      decorations.push(highlightLine.range(doc.line(line).from));
    }
  }
  decorations.sort((a, b) => a.from - b.from);
  view.dispatch({ effects: setHighlight.of(Decoration.set(decorations)) });
  if (decorations.length > 0) {
    view.dispatch({ effects: EditorView.scrollIntoView(decorations[0].from, { y: 'nearest' }) });
  }
}

/** Puts the cursor at a 1-based line/column and shows it. */
export function jumpTo(view, line, column) {
  const at = offsetOf(view.state.doc, line, column);
  view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
  view.focus();
}
