// The definition's source on the page: catalog mode (the default) follows the manifest's type
// and shows the followed entry read-only; custom mode is the editor's text, pinned until the
// user switches back. This module draws the source line under the Definition title and the
// message shown instead of a view when there is no definition to run, and keeps the editor
// read-only while it shows a catalog entry. The choice itself is made in the worker (follow.js).

import { Compartment, EditorState, StateEffect, Transaction } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { fill, h } from '../../js/render/dom.js';

const readOnly = new Compartment();

/** Makes the editor read-only (a catalog entry on show) or editable. */
export function setReadOnly(view, on) {
  const extension = EditorState.readOnly.of(on);
  // The editor is made in editor.js; the compartment is added to it the first time.
  if (readOnly.get(view.state) === undefined) view.dispatch({ effects: StateEffect.appendConfig.of(readOnly.of(extension)) });
  else view.dispatch({ effects: readOnly.reconfigure(extension) });
  view.dom.closest('.pane')?.classList.toggle('following', on);
}

/**
 * Puts the followed entry's text in the editor. Not an edit of the user's: it stays out of
 * the undo history. Returns true when the text changed.
 */
export function showFollowed(view, text) {
  if (view.state.doc.toString() === text) return false;
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    selection: { anchor: 0 },
    effects: EditorView.scrollIntoView(0, { y: 'start' }),
    annotations: [Transaction.addToHistory.of(false)],
    userEvent: 'input.follow',
  });
  return true;
}

/** `jobset.x-k8s.io/v1alpha2 JobSet` */
export function typeName({ apiVersion, kind }) {
  return `${apiVersion} ${kind}`.trim();
}

/**
 * The line under the Definition title: where the definition comes from.
 *
 * @param {HTMLElement} element
 * @param {{mode: string, source?: object, origin?: string}} state  source: the last run's
 *   definitionSource; origin: for a custom definition, where it started (a copy, a draft)
 */
export function renderSource(element, { mode, source, origin }) {
  element.dataset.mode = mode;
  if (mode === 'custom' && source?.mode === 'custom' && source.empty) {
    // Whatever it was a copy of, it is empty now.
    fill(element, h('b', null, 'Definition: custom'), ', empty: paste or write one, or follow the catalog.');
    return;
  }
  if (mode === 'custom') {
    fill(element, h('b', null, 'Definition: custom'), origin ? ` (${origin})` : '', ', pinned: changes to the manifest do not replace it.');
    return;
  }
  const followed = source?.mode === 'catalog' ? source.followed : undefined;
  if (followed) {
    fill(
      element,
      h('b', null, `Definition: catalog entry ${typeName(followed)}`),
      ', follows the manifest',
      followed.exactVersion ? '' : ` (the manifest is ${followed.objectApiVersion}: same group and kind, another version)`,
      '. Read-only here: ',
      h('i', null, 'Edit a copy'),
      ' to change it.',
    );
    element.dataset.entry = followed.name;
    return;
  }
  delete element.dataset.entry;
  if (source?.mode === 'catalog' && source.unknown) {
    const what = source.unknown.kind ? `no catalog entry for ${typeName(source.unknown)}` : 'the manifest names no apiVersion and kind';
    fill(element, h('b', null, 'Definition: catalog'), `, follows the manifest: ${what}.`);
    return;
  }
  if (source?.mode === 'catalog' && source.kept) {
    fill(element, h('b', null, 'Definition: catalog'), ', follows the manifest (the entry shown is kept while the manifest cannot be read).');
    return;
  }
  fill(element, h('b', null, 'Definition: catalog'), ", follows the manifest's type.");
}

/**
 * The message shown instead of a view when there is no definition to run: an unknown type in
 * catalog mode, or an empty custom definition. Hidden otherwise.
 *
 * @param {HTMLElement} element
 * @param {object | undefined} source the last run's definitionSource
 * @param {{onDraft?: () => void, onCatalog?: () => void, onCustom?: () => void, onDraftSchema?: () => void}} actions
 *   onDraft: left out when there is no object to draft from (an empty manifest); onDraftSchema:
 *   given while an API schema is loaded (an unknown type is then offered a draft from it)
 */
export function renderOffer(element, source, { onDraft, onCatalog, onCustom, onDraftSchema }) {
  const draftButton = (after) =>
    onDraft ? [h('button', { attrs: { type: 'button', id: 'offer-draft' }, on: { click: onDraft } }, 'Draft a definition from this object'), after] : null;
  const schemaButton = () =>
    onDraftSchema
      ? [' or ', h('button', { attrs: { type: 'button', id: 'offer-draft-schema' }, on: { click: onDraftSchema } }, 'draft one from the API schema'), ',']
      : '';
  if (source?.mode === 'catalog' && source.unknown) {
    element.hidden = false;
    if (!source.unknown.kind) {
      fill(
        element,
        h('p', null, 'The manifest names no ', h('code', null, 'apiVersion'), ' and ', h('code', null, 'kind'), ': paste a workload object (YAML or JSON).'),
      );
      return;
    }
    fill(
      element,
      h('p', null, 'The catalog has no definition for ', h('b', null, typeName(source.unknown)), ' yet.'),
      h(
        'p',
        { class: 'offer-actions' },
        draftButton(' from what this object shows,'),
        schemaButton(),
        ' or ',
        h('button', { attrs: { type: 'button', id: 'offer-custom' }, on: { click: onCustom } }, 'write one'),
        ' (custom mode).',
      ),
    );
    return;
  }
  if (source?.mode === 'custom' && source.empty) {
    element.hidden = false;
    fill(
      element,
      h('p', null, 'The definition is empty.'),
      h(
        'p',
        { class: 'offer-actions' },
        draftButton(', '),
        h('button', { attrs: { type: 'button', id: 'offer-catalog' }, on: { click: onCatalog } }, 'follow the catalog'),
        ', or paste a definition (Karta YAML).',
      ),
    );
    return;
  }
  element.hidden = true;
  fill(element);
}
