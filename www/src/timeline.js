// The Timeline card: the successive states of one object, pasted as a multi-document stream
// (`kubectl get jobset x -w -o yaml`, or `-o json`: JSON objects one after another). Each state
// is resolved with the definition in use, as its own text (the worker's `case` run, so the page
// decides nothing about the view), and listed with its phases; where a status matcher gave
// another answer than in the state before, the state is marked and the matchers named. "Save
// every state as a test case" hands each state's case to the Test cases card. Once read, the
// states are read again whenever the definition in use changes.

import { fill, h } from '../../js/render/dom.js';
import { isBlank } from '../../js/render/follow.js';
import { caseFromView } from './testcases.js';

/**
 * The documents of a stream, as texts: YAML documents split at `---` (and ended by `...`), or,
 * when the text starts with `{`, JSON values one after another (string-aware brace matching).
 * Blank and comment-only documents are left out.
 *
 * @param {string} text
 * @returns {string[]}
 */
export function splitDocuments(text) {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) return splitJson(trimmed);
  const documents = [];
  let current = [];
  for (const line of text.split('\n')) {
    if (/^---(\s|$)/.test(line) || /^\.\.\.\s*$/.test(line)) {
      documents.push(current.join('\n'));
      current = [];
      // `--- {...}`: content on the marker's line belongs to the new document.
      const rest = line.startsWith('---') ? line.slice(3).trim() : '';
      if (rest) current.push(rest);
      continue;
    }
    current.push(line);
  }
  documents.push(current.join('\n'));
  return documents.filter((doc) => !isBlank(doc)).map((doc) => `${doc.trimEnd()}\n`);
}

function splitJson(text) {
  const documents = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0 && start >= 0) {
        documents.push(`${text.slice(start, i + 1)}\n`);
        start = -1;
      }
    }
  }
  // An unfinished last value is kept: its run says what is wrong with it.
  if (start >= 0) documents.push(text.slice(start));
  return documents;
}

/**
 * The matchers whose answer differs between two views: `{phase, matcher, before, after}` for
 * each status matcher (the n-th item of `statusMappings.<phase>`, from 1), as the views'
 * `status.mappings` explain them.
 */
export function matcherChanges(before, after) {
  if (!before || !after) return [];
  const answers = (view) => {
    const out = new Map();
    for (const mapping of view.status?.mappings ?? []) {
      mapping.matchers.forEach((matcher, i) => out.set(`${mapping.status}\u0000${i}`, { phase: mapping.status, matcher: i + 1, matched: matcher.matched }));
    }
    return out;
  };
  const was = answers(before);
  const changes = [];
  for (const [key, now] of answers(after)) {
    const then = was.get(key);
    if (then && then.matched !== now.matched) changes.push({ phase: now.phase, matcher: now.matcher, before: then.matched, after: now.matched });
  }
  return changes;
}

const yesNo = (matched) => (matched ? 'matches' : 'does not match');

/**
 * @param {{input: HTMLTextAreaElement, run: HTMLButtonElement, save: HTMLButtonElement, note: HTMLElement, list: HTMLElement}} ui
 * @param {object} hooks
 * @param {(text: string) => Promise<object>} hooks.resolve the worker's `case` answer for one
 *   state's text with the definition in use (view, workload, related, definitionText, error)
 * @param {(saved: object[]) => string[]} hooks.saveCases adds cases to the Test cases card; returns their names
 * @param {(text: string) => void} hooks.show puts a state's text in the manifest editor
 */
export function createTimeline(ui, { resolve, saveCases, show }) {
  let states = [];
  let generation = 0;
  let timer;

  async function read() {
    const run = ++generation;
    const documents = splitDocuments(ui.input.value);
    if (documents.length === 0) {
      states = [];
      ui.note.textContent = 'Paste the states of one object first (a stream of YAML documents or JSON objects).';
      draw();
      return;
    }
    ui.run.disabled = true;
    ui.note.textContent = `Reading ${documents.length} state${documents.length === 1 ? '' : 's'}…`;
    const read = [];
    try {
      for (const text of documents) {
        let answer;
        try {
          answer = await resolve(text);
        } catch (error) {
          answer = { error: error.message };
        }
        if (run !== generation) return;
        read.push({ text, answer });
      }
    } finally {
      if (run === generation) ui.run.disabled = false;
    }
    states = read.map((state, i) => {
      const previous = read[i - 1]?.answer.view;
      const view = state.answer.view ?? null;
      const changes = i > 0 ? matcherChanges(previous, view) : [];
      const phasesChanged = i > 0 && Boolean(previous) && Boolean(view) && previous.phases.join() !== view.phases.join();
      return { ...state, view, changes, phasesChanged };
    });
    const shifts = states.filter((s) => s.changes.length > 0).length;
    const name = states.find((s) => s.view)?.view;
    ui.note.textContent = `${states.length} state${states.length === 1 ? '' : 's'}${name ? ` of ${name.kind} ${name.name}` : ''}, read with ${name ? `definition ${name.definition.name}` : 'the definition in use'}: a matcher changed its answer at ${shifts} of them.`;
    draw();
  }

  function draw() {
    ui.save.disabled = !states.some((s) => s.view);
    if (states.length === 0) {
      fill(ui.list);
      return;
    }
    fill(
      ui.list,
      states.map((state, i) =>
        h(
          'li',
          {
            class: `state${state.changes.length || state.phasesChanged ? ' changed' : ''}${state.view ? '' : ' failed'}`,
            data: { state: i + 1, phases: state.view ? state.view.phases.join(',') : '' },
          },
          h('span', { class: 'state-number' }, `${i + 1}`),
          h('span', { class: 'state-version meta' }, versionOf(state)),
          state.view
            ? h(
                'span',
                { class: 'chips' },
                state.view.phases.map((p) => h('span', { class: `chip phase-${p.toLowerCase()}`, data: { phase: p } }, p)),
              )
            : h('span', { class: 'error state-error' }, state.answer.error ?? whyNoView(state.answer)),
          state.changes.length
            ? h(
                'ul',
                { class: 'state-changes', attrs: { 'aria-label': `Matchers that changed at state ${i + 1}` } },
                state.changes.map((c) =>
                  h('li', { data: { phase: c.phase, matcher: c.matcher } }, `${c.phase} matcher ${c.matcher}: ${yesNo(c.before)} → ${yesNo(c.after)}`),
                ),
              )
            : null,
          h(
            'button',
            {
              class: 'state-show',
              attrs: { type: 'button', 'aria-label': `Show state ${i + 1} in the manifest editor` },
              on: { click: () => show(state.text) },
            },
            'Show',
          ),
        ),
      ),
    );
  }

  function saveAll() {
    const cases = [];
    states.forEach((state, i) => {
      if (!state.view || !state.answer.workload) return;
      const name = `state-${String(i + 1).padStart(String(states.length).length, '0')}`;
      const saved = caseFromView({
        name,
        description: `State ${i + 1} of ${states.length}: ${state.view.phases.join(', ')}`,
        object: state.answer.workload,
        related: state.answer.related ?? [],
        view: state.view,
      });
      cases.push({ ...saved, definition: state.answer.definitionText });
    });
    const names = saveCases(cases);
    if (names.length === 0) {
      ui.note.textContent = 'No state has a view: nothing saved.';
      return;
    }
    ui.note.textContent = `Saved ${names.length} test case${names.length === 1 ? '' : 's'} (${names[0]} … ${names.at(-1)}): see Test cases.`;
  }

  ui.run.addEventListener('click', read);
  ui.save.addEventListener('click', saveAll);
  draw();
  return {
    /** The states read last (text, answer, view, changes). */
    get states() {
      return states;
    },
    read,
    /** The definition in use changed: states read before are read again (after a 300 ms pause). */
    definitionChanged() {
      if (states.length === 0) return;
      clearTimeout(timer);
      timer = setTimeout(read, 300);
    },
  };
}

function versionOf(state) {
  const metadata = state.answer.workload?.metadata;
  return metadata?.resourceVersion ? `rv ${metadata.resourceVersion}` : metadata?.generation ? `generation ${metadata.generation}` : '';
}

/** Why a state has no view: no definition to run, else its first error. */
function whyNoView(answer) {
  const source = answer.definitionSource;
  if (source?.mode === 'custom' && source.empty) return 'no view: the definition is empty';
  if (source?.mode === 'catalog' && source.unknown) return `no view: the catalog has no definition for ${source.unknown.kind || 'this object'}`;
  const problem = [...(answer.objectDiagnostics ?? []), ...(answer.definitionDiagnostics ?? [])].find((d) => d.severity === 'error');
  return problem ? `no view: ${problem.message}` : 'no view';
}
