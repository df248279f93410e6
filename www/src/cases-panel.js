// The Test cases card: "Save as test case" captures the current manifest and the view it gives
// (testcases.js writes the case), the saved cases are listed with Remove, and "Export folder"
// downloads the definition with the cases as a zip that `workload-map test` runs. The cases
// live in the page and in the local draft. Like regex101's tests, every case runs again with the
// definition in use whenever that text changes (the core's runCase, in the worker): each says
// whether it passes, and a failing one lists its failed expectations, expected against actual.

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
 * @param {(definition: string, cases: string[]) => Promise<{results?: {passed: boolean, failed: object[], errors: string[]}[], error?: string}>} hooks.run
 *   the cases' texts run with a definition text (the worker's `cases` answer)
 */
export function createCasesPanel(ui, { initial, capture, definition, changed, run }) {
  const cases = [...(initial ?? [])];
  /** The verdict of each case (by its text) with the definition text `verdicts.definition`. */
  let verdicts = { definition: undefined, results: new Map(), error: undefined };
  let generation = 0;
  let timer;

  /** Runs every case with the definition in use, unless that was done for this very text. */
  async function rerun() {
    const text = definition().text;
    if (cases.length === 0 || (verdicts.definition === text && cases.every((c) => verdicts.results.has(c.text)))) return;
    const mine = ++generation;
    const texts = cases.map((c) => c.text);
    let answer;
    try {
      answer = await run(text, texts);
    } catch (error) {
      answer = { error: error.message };
    }
    if (mine !== generation) return;
    const results = new Map();
    texts.forEach((t, i) => {
      if (answer.results?.[i]) results.set(t, answer.results[i]);
    });
    verdicts = { definition: text, results, error: answer.error };
    render();
  }

  /** The definition in use changed: the verdicts run again after a pause. */
  function definitionChanged() {
    clearTimeout(timer);
    timer = setTimeout(rerun, 250);
  }

  function verdictOf(c) {
    const current = verdicts.definition === definition().text;
    const result = current ? verdicts.results.get(c.text) : undefined;
    if (!result) {
      return h('span', { class: 'case-verdict pending', data: { verdict: 'pending' } }, current && verdicts.error ? `not run: ${verdicts.error}` : 'running…');
    }
    if (result.passed) return h('span', { class: 'case-verdict pass', data: { verdict: 'pass' } }, '✓ passes');
    const count = result.failed.length;
    return [
      h('span', { class: 'case-verdict fail', data: { verdict: 'fail' } }, count ? `✗ fails: ${count} expectation${count === 1 ? '' : 's'}` : '✗ fails'),
      h(
        'ul',
        { class: 'case-failures', attrs: { 'aria-label': `Why ${c.name} fails` } },
        result.errors.map((message) => h('li', { class: 'error' }, message)),
        result.failed.map((e) =>
          h(
            'li',
            { data: { path: e.path } },
            h('span', { class: 'case-label' }, e.label),
            ': expected ',
            h('code', null, compact(e.expected)),
            ', got ',
            h('code', null, compact(e.actual)),
            e.note ? h('span', { class: 'meta' }, ` (${e.note})`) : null,
          ),
        ),
      ),
    ];
  }

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
          verdictOf(c),
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
    rerun();
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
      rerun();
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
    /** The definition in use changed: every case runs again with it (after a 250 ms pause). */
    definitionChanged,
    /** Runs the cases now, unless they were run with this definition text already. */
    rerun,
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
        rerun();
      }
      return names;
    },
  };
}

/** A value on one line, cut at 80 characters. */
function compact(value) {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
