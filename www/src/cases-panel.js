// The Test cases card: "Save as test case" captures the current manifest and the view it gives
// (testcases.js writes the case), the saved cases are listed with Remove, and "Export folder"
// downloads the definition with the cases as a zip that `workload-map test` runs. The cases
// live in the page and in the local draft.

import { fill, h } from '../../js/render/dom.js';
import { caseFileName, caseFromView, folderZip, uniqueName } from './testcases.js';

/**
 * @param {{list: HTMLElement, name: HTMLInputElement, save: HTMLButtonElement, exportButton: HTMLButtonElement, note: HTMLElement}} ui
 * @param {object} hooks
 * @param {object[]} hooks.initial the cases from the draft
 * @param {() => Promise<{object: object, related: object[], view: object, definition: string}>} hooks.capture
 *   a fresh run of the current texts (rejects with an Error saying why there is nothing to save)
 * @param {() => {text: string, name: string}} hooks.definition the definition now in use
 * @param {() => void} hooks.changed the cases changed (save the draft)
 */
export function createCasesPanel(ui, { initial, capture, definition, changed }) {
  const cases = [...(initial ?? [])];

  function render() {
    const current = definition().text;
    if (cases.length === 0) {
      fill(
        ui.list,
        h('li', { class: 'empty' }, 'No cases yet: each saved case keeps this manifest and what the view shows (phases, totals, components) as expectations.'),
      );
      return;
    }
    fill(
      ui.list,
      cases.map((c, index) =>
        h(
          'li',
          { class: c.definition === current ? 'case' : 'case other-definition', data: { case: c.name } },
          h('code', { class: 'case-name' }, `tests/${c.name}.yaml`),
          h('span', { class: 'case-summary' }, `${c.phases.join(', ')} · ${c.gpus} GPUs`),
          h('span', { class: 'case-description meta' }, c.description),
          c.definition === current ? null : h('span', { class: 'case-warning' }, 'made with another definition: not exported with this one'),
          h('button', { attrs: { type: 'button', 'aria-label': `Remove ${c.name}` }, class: 'case-remove', on: { click: () => remove(index) } }, 'Remove'),
        ),
      ),
    );
  }

  function remove(index) {
    cases.splice(index, 1);
    ui.note.textContent = '';
    render();
    changed();
  }

  async function save() {
    ui.save.disabled = true;
    try {
      const captured = await capture();
      const base = caseFileName(ui.name.value.trim() || captured.view.phases[0] || 'case');
      const name = uniqueName(
        base,
        cases.map((c) => c.name),
      );
      const saved = caseFromView({ name, object: captured.object, related: captured.related, view: captured.view });
      cases.push({ ...saved, definition: captured.definition });
      ui.name.value = '';
      ui.note.textContent = `Saved tests/${name}.yaml.`;
      render();
      changed();
    } catch (error) {
      ui.note.textContent = `Nothing saved: ${error.message}`;
    } finally {
      ui.save.disabled = false;
    }
  }

  function exportFolder() {
    const { text, name } = definition();
    const included = cases.filter((c) => c.definition === text);
    if (included.length === 0) {
      ui.note.textContent = cases.length ? 'No saved case was made with the definition in use: nothing to export.' : 'Save a test case first.';
      return;
    }
    const folder = caseFileName(name || 'definition');
    const bytes = folderZip(text, included);
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/zip' }));
    const link = h('a', { attrs: { href: url, download: `${folder}.zip` } });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    const left = cases.length - included.length;
    ui.note.textContent = `Exported ${folder}.zip: definition.yaml and ${included.length} case${included.length === 1 ? '' : 's'}${left ? ` (${left} made with another definition left out)` : ''}. Unzip it and run: workload-map test ${folder}`;
  }

  ui.save.addEventListener('click', save);
  ui.exportButton.addEventListener('click', exportFolder);
  render();
  return {
    /** The cases, for the draft. */
    get cases() {
      return cases.map((c) => ({ ...c }));
    },
    /** Redraws (the definition in use may have changed). */
    render,
    /** Adds cases made elsewhere (the Timeline), each under a name no case has; returns the names. */
    add(made) {
      const names = made.map((c) => {
        const name = uniqueName(
          c.name,
          cases.map((k) => k.name),
        );
        cases.push({ ...c, name });
        return name;
      });
      if (names.length) {
        render();
        changed();
      }
      return names;
    },
  };
}
