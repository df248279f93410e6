// The two CodeMirror 6 editors: YAML highlighting, line numbers, diagnostics as inline markers
// (set from the engine's results, 1-based line/column in UTF-16 code units, which is exactly
// CodeMirror's own unit), line highlights and selections from the view's source ranges (the
// role tree's hover and click), and, in the definition editor, jq path completion and hover
// read from the current manifest (`jqpaths.js`) and, once one is loaded, the API schema
// (`schema.js`: field names with their types, a path's type on hover).

import { autocompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, hoverTooltip, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { completions, describeValues, pathAt, pathBefore } from './jqpaths.js';

/** @type {import('@codemirror/state').StateEffectType<import('@codemirror/view').DecorationSet>} */
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
 * jq path completion and hover against a JSON value (the current manifest object, read through
 * `manifest()` each time, so it follows the latest run) and the API schema when one is loaded
 * (`schema`: its names and types come first, the manifest's other keys after them).
 * @param {() => unknown} manifest
 * @param {{complete: (path: string) => Promise<{from: number, options: object[]} | null>, describe: (path: string) => Promise<string | null>}} [schema]
 */
function jqPaths(manifest, schema) {
  const complete = async (context) => {
    const line = context.state.doc.lineAt(context.pos);
    const found = pathBefore(line.text, context.pos - line.from);
    if (!found) return null;
    const result = completions(manifest(), found.text);
    const fromSchema = schema ? await schema.complete(found.text).catch(() => null) : null;
    if (!result && !fromSchema) return null;
    const named = new Set((fromSchema?.options ?? []).map((o) => o.label));
    const options = [...(fromSchema?.options ?? []), ...(result?.options ?? []).filter((o) => !named.has(o.label))];
    if (options.length === 0 && !context.explicit) return null;
    return { from: line.from + found.start + (fromSchema ?? result).from, options, validFor: /^[A-Za-z0-9_]*$/ };
  };
  const hover = hoverTooltip(async (view, pos) => {
    const line = view.state.doc.lineAt(pos);
    const found = pathAt(line.text, pos - line.from);
    if (!found) return null;
    const fromSchema = schema ? await schema.describe(found.text).catch(() => null) : null;
    const values = describeValues(manifest(), found.text);
    const text = [fromSchema, values].filter((t) => t !== null).join('\n');
    if (text === '') return null;
    return {
      pos: line.from + found.start,
      end: line.from + found.end,
      above: true,
      create: () => {
        const dom = document.createElement('pre');
        dom.className = 'cm-jq-value';
        dom.textContent = text;
        return { dom };
      },
    };
  });
  return [autocompletion({ override: [complete], activateOnTyping: true }), hover];
}

/**
 * @param {HTMLElement} parent
 * @param {string} text
 * @param {{onChange: () => void, keys: import('@codemirror/view').KeyBinding[], label: string, manifest?: () => unknown, schema?: object}} options
 *   `manifest`: completes and explains jq paths against this value (the definition editor);
 *   `schema`: and against the API schema (see jqPaths).
 */
export function createEditor(parent, text, { onChange, keys, label, manifest, schema }) {
  const view = new EditorView({
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
        manifest ? jqPaths(manifest, schema) : [],
        EditorState.tabSize.of(2),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        keymap.of([...defaultKeymap, ...historyKeymap, ...foldKeymap, ...searchKeymap, ...lintKeymap, indentWithTab]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange();
        }),
      ],
    }),
  });
  // CodeMirror's tab-focus mode, on until the user opts out (Ctrl+M, Shift+Alt+M on macOS: the
  // default keymap's toggleTabFocusMode): Tab and Shift+Tab move focus through the page, editors
  // included, instead of trapping the keyboard in an editor and re-indenting YAML.
  view.setTabFocusMode(true);
  return view;
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
  /** @type {import('@codemirror/lint').Diagnostic[]} */
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

/**
 * Highlights whole lines (1-based, inclusive ranges); an empty list clears. Nothing scrolls: a
 * hover only marks the lines (a click frames them, through `selectRange`).
 */
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
}

/**
 * Selects a source range of the view (`{start, end}` in UTF-16 offsets, which CodeMirror counts)
 * and scrolls it into sight, without taking the focus from where the user is.
 */
export function selectRange(view, range) {
  const length = view.state.doc.length;
  const anchor = Math.min(Math.max(0, range.start | 0), length);
  const head = Math.min(Math.max(anchor, range.end | 0), length);
  view.dispatch({ selection: { anchor, head }, effects: EditorView.scrollIntoView(anchor, { y: 'start', yMargin: 24 }) });
}

/** The main selection as 1-based lines and UTF-16 offsets (for tests and tools). */
export function selectionOf(view) {
  const { from, to } = view.state.selection.main;
  const doc = view.state.doc;
  return { from, to, fromLine: doc.lineAt(from).number, toLine: doc.lineAt(to).number, text: doc.sliceString(from, to) };
}

/** Puts the cursor at a 1-based line/column and shows it. */
export function jumpTo(view, line, column) {
  const at = offsetOf(view.state.doc, line, column);
  view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
  view.focus();
}
