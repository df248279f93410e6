// The Edit panel's result (issue 18, point 3): the JSON Patch, a ready-made `kubectl patch`
// command and the edited manifest, each with a Copy button (the patch and the manifest also with
// Download); the edited manifest in the format
// the manifest was typed in (YAML through testcases.js's writer, or JSON). A refused edit shows
// why, and no patch or manifest at all.

import { h, patch } from '../../js/render/dom.js';
import { toYaml } from './testcases.js';
import { downloadText } from './editor-tools.js';

/** A word for a POSIX shell: single-quoted, a `'` inside written as `'\''`. */
export function shellQuote(text) {
  return `'${String(text).replace(/'/g, `'\\''`)}'`;
}

/**
 * `kubectl patch <kind>.<group> <name> [-n <ns>] --type json -p '<patch>'` for the edited object
 * (its apiVersion, kind and metadata), or undefined when it has no kind or name.
 */
export function kubectlPatch(object, operations) {
  const kind = object?.kind;
  const name = object?.metadata?.name;
  if (typeof kind !== 'string' || kind === '' || typeof name !== 'string' || name === '') return undefined;
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const resource = `${kind.toLowerCase()}${group ? `.${group}` : ''}`;
  const namespace = object.metadata.namespace;
  const words = ['kubectl', 'patch', resource, name];
  if (typeof namespace === 'string' && namespace !== '') words.push('-n', namespace);
  words.push('--type', 'json', '-p', shellQuote(JSON.stringify(operations)));
  return words.join(' ');
}

/** True when a manifest text is JSON (it opens with `{` or `[`), else it is read as YAML. */
export function isJsonText(text) {
  return /^\s*[{[]/.test(text ?? '');
}

function copyButton(id, label, text) {
  return h(
    'button',
    {
      class: 'copy',
      attrs: { type: 'button', id, 'aria-label': label },
      on: {
        click: async (event) => {
          const button = event.currentTarget;
          try {
            await navigator.clipboard.writeText(text);
            button.textContent = 'Copied';
          } catch {
            button.textContent = 'Select and copy';
          }
          setTimeout(() => (button.textContent = 'Copy'), 1500);
        },
      },
    },
    'Copy',
  );
}

function downloadButton(id, label, name, text, type) {
  return h('button', { class: 'copy', attrs: { type: 'button', id, 'aria-label': label }, on: { click: () => downloadText(name, text, type) } }, 'Download');
}

/**
 * Draws the edit's result; `manifestText` is the manifest as typed (it chooses YAML or JSON for
 * the edited manifest).
 */
export function renderEditResult(element, edit, manifestText) {
  if (!edit) {
    patch(element, h('p', { class: 'empty' }, 'Suspend, resume or apply a pod spec merge patch to preview the change.'));
    return;
  }
  const refused = Boolean(edit.error) || (edit.diagnostics ?? []).some((d) => d.severity === 'error') || !edit.object;
  const title = { suspend: 'Suspend', resume: 'Resume', pod: 'Pod spec merge patch' }[edit.action] ?? edit.action;
  const operations = edit.patch ?? [];
  const verdict = h(
    'p',
    { class: `edit-verdict ${refused ? 'refused' : 'ok'}` },
    `${title}: ${refused ? 'refused, nothing to apply' : operations.length ? `${operations.length} operation${operations.length === 1 ? '' : 's'}` : 'no change'}`,
  );
  const problems = [
    edit.error ? h('p', { class: 'error edit-error' }, edit.error) : null,
    (edit.diagnostics ?? []).length
      ? h(
          'ul',
          { class: 'edit-diagnostics' },
          edit.diagnostics.map((d) =>
            h(
              'li',
              { class: `diagnostic ${d.severity}` },
              h('span', { class: 'severity' }, d.severity),
              ' ',
              h('code', null, d.code ?? ''),
              ' ',
              d.message ?? '',
            ),
          ),
        )
      : null,
  ];
  if (refused) {
    patch(element, verdict, problems);
    return;
  }
  const patchText = JSON.stringify(operations, null, 2);
  const yaml = !isJsonText(manifestText);
  const objectText = yaml ? toYaml(edit.object) : JSON.stringify(edit.object, null, 2);
  const command = operations.length ? kubectlPatch(edit.object, operations) : undefined;
  const stem = String(edit.object?.metadata?.name ?? 'manifest').replace(/[^A-Za-z0-9._-]+/g, '-') || 'manifest';
  patch(
    element,
    verdict,
    problems,
    command
      ? h(
          'div',
          { class: 'edit-command' },
          h('h3', null, 'kubectl patch', copyButton('copy-edit-command', 'Copy the kubectl patch command', command)),
          h('pre', { class: 'json', attrs: { id: 'edit-command', tabindex: '0' } }, command),
        )
      : null,
    h(
      'div',
      { class: 'edit-side' },
      h(
        'div',
        null,
        h(
          'h3',
          null,
          'JSON Patch (kubectl patch --type json)',
          copyButton('copy-edit-patch', 'Copy the JSON Patch', patchText),
          downloadButton('download-edit-patch', 'Download the JSON Patch', `${stem}.patch.json`, patchText, 'application/json'),
        ),
        h('pre', { class: 'json', attrs: { id: 'edit-patch', tabindex: '0' } }, patchText),
      ),
      h(
        'div',
        null,
        h(
          'h3',
          null,
          `Edited manifest (${yaml ? 'YAML' : 'JSON'})`,
          copyButton('copy-edit-object', 'Copy the edited manifest', objectText),
          downloadButton(
            'download-edit-object',
            'Download the edited manifest',
            `${stem}.edited.${yaml ? 'yaml' : 'json'}`,
            objectText,
            yaml ? 'application/yaml' : 'application/json',
          ),
        ),
        h('pre', { class: 'json', attrs: { id: 'edit-object', tabindex: '0', 'data-format': yaml ? 'yaml' : 'json' } }, objectText),
      ),
    ),
  );
}
