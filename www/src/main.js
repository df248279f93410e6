// The playground page: two editors, live evaluation in a worker, result panels, examples,
// share links, drafts, theme and shortcuts.

import examples from 'virtual:examples';
import defaultManifest from './default-manifest.yaml';
import { fill, h } from '../../js/render/dom.js';
import { createEditor, highlightLines, jumpTo, replaceText, selectionOf, selectRange, showDiagnostics } from './editor.js';
import { Engine, timeoutFrom } from '../../js/render/engine.js';
import { renderDiagnostics, renderGroups, renderHeadline, renderPhases, renderPods, renderResources, renderTree } from '../../js/render/render.js';
import { encodeShare, isShare, loadDraft, saveDraft } from './state.js';
import { renderOffer, renderSource, setReadOnly, showFollowed, typeName } from './catalog-mode.js';
import { createCasesPanel } from './cases-panel.js';
import { createTimeline } from './timeline.js';
import { createGallery } from './gallery.js';
import { copyText, createEditorTools, downloadText } from './editor-tools.js';
import { isJsonText, renderEditResult } from './edit-panel.js';
import { rovingTabStop } from './roving.js';
import { isBlank } from '../../js/render/follow.js';
import { createSchemaPanel } from './schema.js';
import { createPageState } from './store.js';

const DEBOUNCE_MS = 150;
/** Runs faster than this start at each edit; slower ones wait for a pause in typing. */
const FAST_RUN_MS = 50;
const THEME_KEY = 'workload-map:theme';
const params = new URLSearchParams(location.search);
// `?timeout=MS` sets the watchdog, clamped to 100 ms .. 60 s (default 2 s).
const TIMEOUT_MS = timeoutFrom(params.get('timeout'));

/**
 * An element of the page by its id (index.html): the kind of element each id names is known
 * where it is used, so the lookup is not narrowed here.
 *
 * @param {string} id
 * @returns {any}
 */
const $ = (id) => document.getElementById(id);
const ui = {
  status: $('run-status'),
  banner: $('banner'),
  notice: $('notice'),
  noticeText: $('notice-text'),
  headline: $('headline'),
  resources: $('resources'),
  tree: $('tree'),
  phases: $('phases'),
  json: $('json'),
  diagnostics: $('diagnostics'),
  count: $('diagnostic-count'),
  examples: $('examples'),
  undoLoad: $('undo-load'),
  versions: $('versions'),
  results: document.querySelector('.results'),
  podsInput: $('pods-input'),
  pods: $('pods'),
  gang: $('gang'),
  editResult: $('edit-result'),
  editComponent: $('edit-component'),
  editInstance: $('edit-instance'),
  editMerge: $('edit-merge'),
  mode: $('definition-mode'),
  fork: $('definition-fork'),
  draft: $('definition-draft'),
  source: $('definition-source'),
  offer: $('definition-offer'),
  workloadPicker: $('workload-picker'),
  workloadChoice: $('workload-choice'),
};

/** The role tree is one tab stop (its ↑/↓ move between nodes): redone after each draw. */
const treeTabStop = rovingTabStop(ui.tree, '.node', { current: (nodes) => nodes.find((n) => n.getAttribute('aria-pressed') === 'true') });
/** Everything the page remembers between events: see store.js. */
const page = createPageState();

const defaultDefinition = findDefaultDefinition();

function findDefaultDefinition() {
  return examples.defaultDefinition ?? '# The catalog had no JobSet definition when this playground was built.\n# Paste a definition here.\n';
}

/** The catalog's texts, fetched once from the playground's own examples.json. */
function loadCatalogTexts() {
  page.catalogTexts ??= fetch('examples.json').then((response) => {
    if (!response.ok) throw new Error(`examples.json: HTTP ${response.status}`);
    return response.json();
  });
  return page.catalogTexts;
}

// --- editors --------------------------------------------------------------------------------

const runKeys = [
  { key: 'Mod-Enter', run: () => (runNow(), true) },
  { key: 'Mod-Shift-s', run: () => (share(), true), preventDefault: true },
];
// --- evaluation -------------------------------------------------------------------------------

const engine = new Engine(
  {
    onReady(info) {
      page.engineInfo = info;
      firstRun();
    },
    onResult: showResult,
    onTimeout({ ms }) {
      page.waitingForEdit = true;
      setStatus('stopped', `stopped after ${(ms / 1000).toFixed(1)} s`);
      showBanner(
        `Evaluation stopped after ${(ms / 1000).toFixed(1)} s and the engine was restarted. ` +
          'An expression may never end, or the input is too large to evaluate in time. ' +
          'Edit either text (or press Run) to evaluate again.',
      );
      ui.results.classList.add('stale');
    },
    onBusy(busy) {
      if (busy) setStatus('running', 'running…');
    },
    onFatal(message) {
      setStatus('error', 'engine failed');
      showBanner(`The engine could not run: ${message}`);
    },
  },
  TIMEOUT_MS,
);

const start = await initialState();
page.options = { ...start.options };
// The API schema (issue 23): completion, hover and live checks in the definition editor.
const apiSchema = createSchemaPanel($('schema-panel'), {
  engine,
  definition: () => definitionView.state.doc.toString(),
  object: () => page.manifestObject,
  onDiagnostics: () => {
    if (page.lastResult && !page.lastResult.trapped) showAllDiagnostics(page.lastResult);
  },
  onLoaded: () => {
    if (page.definitionSource?.mode === page.mode) renderOfferOf(page.definitionSource);
  },
});
const definitionView = createEditor($('definition-editor'), start.definition, {
  onChange: definitionChanged,
  keys: runKeys,
  label: 'Definition',
  manifest: () => page.manifestObject,
  schema: apiSchema,
});
const manifestView = createEditor($('manifest-editor'), start.manifest, { onChange: edited, keys: runKeys, label: 'Manifest' });
// Format, Open, URL, Copy and Download above each editor (editor-tools.js).
page.definitionTools = createEditorTools($('definition-editor').closest('.pane'), $('definition-tools'), {
  id: 'definition',
  label: 'definition',
  text: () => definitionView.state.doc.toString(),
  replace: (text) => replaceText(definitionView, text, 'input.format'),
  // A definition loaded from a file or an address is pinned (custom), as one chosen from the gallery.
  load: (text, from) => {
    page.loadHistory.push(currentState());
    page.putAside = undefined;
    applyMode('custom', `loaded from ${from}`);
    replaceText(definitionView, text, 'input.load');
    showUndoLoad(from);
    runNow();
  },
  fileName: () => `${fileStem(definitionInUse().name, 'definition')}.yaml`,
  reveal: (line, column) => jumpTo(definitionView, line, column),
  say: (text) => ($('definition-note').textContent = text),
});
page.manifestTools = createEditorTools($('manifest-editor').closest('.pane'), $('manifest-tools'), {
  id: 'manifest',
  label: 'manifest',
  text: () => manifestView.state.doc.toString(),
  replace: (text) => replaceText(manifestView, text, 'input.format'),
  load: (text, from) => {
    page.loadHistory.push(currentState());
    replaceText(manifestView, text, 'input.load');
    showUndoLoad(from);
    runNow();
  },
  fileName: () => `${fileStem(page.lastGoodView?.name, 'manifest')}${isJsonText(manifestView.state.doc.toString()) ? '.json' : '.yaml'}`,
  reveal: (line, column) => jumpTo(manifestView, line, column),
  say: (text) => ($('manifest-note').textContent = text),
});
ui.podsInput.value = start.pods ?? '';
ui.podsInput.addEventListener('input', edited);
applyMode(start.mode ?? 'catalog', start.ui?.origin ?? '');
// A share link's page state: the edit preview runs with the first run, the tab is shown at once
// and the node is selected once the first view is drawn.
if (start.ui?.merge !== undefined) ui.editMerge.value = start.ui.merge;
if (start.ui?.edit) page.editRequest = start.ui.edit;
page.restoreNode = start.ui?.node;
page.casesPanel = createCasesPanel(
  { list: $('cases'), name: $('case-name'), save: $('case-save'), exportButton: $('case-export'), note: $('case-note') },
  {
    initial: start.cases,
    capture: captureCase,
    definition: definitionInUse,
    changed: saveDraftSoon,
    run: (definition, cases) => engine.ask('cases', { definition, cases }),
  },
);
page.timeline = createTimeline(
  { input: $('timeline-input'), run: $('timeline-run'), save: $('timeline-save'), note: $('timeline-note'), list: $('timeline') },
  {
    resolve: (text) => engine.ask('case', { ...currentState(), manifest: text, pods: '' }),
    saveCases: (cases) => page.casesPanel.add(cases),
    show: (text) => replaceText(manifestView, text, 'input.replace'),
  },
);
page.pageReady = true;
firstRun();

async function initialState() {
  if (isShare(location.hash)) {
    try {
      const shared = await engine.decodeShare(location.hash);
      if (shared) return shared;
    } catch (error) {
      showNotice(`This link could not be read (${error.message}); showing your draft or the default instead.`);
    }
  }
  return (await loadDraft()) ?? { definition: defaultDefinition, manifest: defaultManifest, mode: 'catalog', options: {} };
}

/** The first run, once both the editors and the engine are ready (in either order). */
function firstRun() {
  if (!page.pageReady || !page.engineInfo || page.lastResult || page.waitingForEdit) return;
  fill(
    ui.versions,
    `engine ${page.engineInfo.version} · catalog ${examples.catalogVersion} (${page.engineInfo.catalogSize || examples.definitions.length} definitions)`,
    start.engine && start.engine !== page.engineInfo.version ? ` · this link was made with engine ${start.engine}` : '',
  );
  page.engineVersion = page.engineInfo.version;
  runNow();
  page.casesPanel?.rerun();
}

function currentState() {
  return {
    definition: definitionView.state.doc.toString(),
    manifest: manifestView.state.doc.toString(),
    pods: ui.podsInput.value,
    mode: page.mode,
    options: page.options,
  };
}

/** A run's request: the texts, the workload picked and the edit panel's current request. */
function runState() {
  const state = page.chosenWorkload ? { ...currentState(), workload: page.chosenWorkload } : currentState();
  return page.editRequest ? { ...state, edit: page.editRequest } : state;
}

function setState(state, userEvent = 'input.replace') {
  page.chosenWorkload = undefined;
  applyMode(state.mode ?? 'custom');
  replaceText(definitionView, state.definition, userEvent);
  replaceText(manifestView, state.manifest, userEvent);
  ui.podsInput.value = state.pods ?? '';
  page.options = { ...(state.options ?? {}) };
}

function edited() {
  page.waitingForEdit = false;
  clearTimeout(page.debounce);
  // The engine keeps one run in flight and only the newest waiting, so runs started at every
  // keystroke coalesce by themselves; debounce only when runs are slow. (Running an edit that
  // finds the engine idle at once was tried for issue 21: with a run the watchdog stops, the
  // editor's follow-up updates then restarted the engine in a loop, so it was taken back.)
  if (engine.lastRunMs !== undefined && engine.lastRunMs < FAST_RUN_MS) runNow();
  else {
    page.debounce = setTimeout(runNow, DEBOUNCE_MS);
    page.runPending = true;
  }
  saveDraftSoon();
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  ui.results.classList.add('stale');
  // The result shown is not the editors' any more: the status says so until the run of this
  // edit is done (a result that was done a moment before is not this edit's).
  ui.status.dataset.state = 'pending';
}

/** The definition editor changed: an edit, unless the page is showing the followed entry. */
function definitionChanged() {
  apiSchema.checkSoon();
  // The saved cases and the timeline's states are read again with the new definition.
  page.casesPanel?.definitionChanged();
  page.timeline?.definitionChanged();
  if (!page.following) edited();
}

function saveDraftSoon() {
  clearTimeout(page.draftTimer);
  page.draftTimer = setTimeout(() => saveDraft({ ...currentState(), cases: page.casesPanel?.cases ?? start.cases ?? [] }), 400);
}

function runNow(extra = {}) {
  clearTimeout(page.debounce);
  page.runPending = false;
  page.waitingForEdit = false;
  const state = /** @type {ReturnType<typeof runState> & { workload?: string }} */ ({ ...runState(), ...extra });
  // Only the newest run's result is shown, so its manifest is the one asked for last.
  page.requestedManifest = state.manifest;
  engine.run({ ...state, objectKnown: page.manifestObjectText === state.manifest && page.manifestObjectWorkload === state.workload });
}

function showResult(result) {
  page.lastResult = result;
  ui.status.dataset.runId = String(result.id);
  if (result.trapped) {
    // The worker has been replaced; the same input would stop it again, so wait for an edit.
    page.waitingForEdit = true;
    ui.results.classList.add('stale');
    setStatus('stopped', 'engine stopped');
    showBanner(`The engine stopped on this input and was restarted (${result.error}). Edit either text (or press Run) to evaluate again.`);
    return;
  }
  ui.results.classList.remove('stale');
  followSource(result.definitionSource);
  if (result.object) {
    page.manifestObject = result.object;
    page.manifestObjectText = page.requestedManifest;
    page.manifestObjectWorkload = page.chosenWorkload;
    apiSchema.typeChanged(page.manifestObject);
  }
  showWorkloads(result.workloads, result.workload);
  const view = result.view;
  const diagnostics = showAllDiagnostics(result);
  renderEditResult(ui.editResult, result.edit, page.requestedManifest);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const errorText = errors ? ` · ${errors} error${errors > 1 ? 's' : ''}` : '';
  ui.status.dataset.runId = String(result.id);

  // Half-typed YAML is the normal state of an editor: while a text cannot be read at all, keep
  // the last result that could be computed (dimmed) instead of flashing an empty view.
  const unreadable = diagnostics.find((d) => d.severity === 'error' && String(d.code).startsWith('syntax/'));
  if (unreadable && page.lastGoodView) {
    ui.results.classList.add('stale');
    const where = unreadable.line ? ` (line ${unreadable.line}, column ${unreadable.column ?? 1})` : '';
    showBanner(`The ${textName(unreadable.source)} cannot be read${where}: ${unreadable.message}. Showing the last result that could be computed.`);
    setStatus('done', `${textName(unreadable.source)} unreadable${errorText}`);
    return;
  }
  if (result.error) {
    showBanner(`The engine reported: ${result.error}`);
  } else {
    hideBanner();
  }
  if (view) {
    if (!unreadable) page.lastGoodView = view;
    renderHeadline(ui.headline, view);
    renderResources(ui.resources, view);
    // A selected node stays selected through a new result (found again by its place in the
    // tree, with the new result's source lines), until it is no longer in the tree.
    page.selectedNode =
      renderTree(ui.tree, view, { onHover: (node) => highlightNode(node ?? page.selectedNode), onSelect: selectNode, selected: page.selectedNode?.path }) ??
      null;
    highlightNode(page.selectedNode);
    treeTabStop();
    if (page.restoreNode !== undefined) {
      const node = ui.tree.querySelectorAll('.node')[page.restoreNode];
      page.restoreNode = undefined;
      queueMicrotask(() => node?.click());
    }
    renderPhases(ui.phases, view, { onSource: (range) => selectRange(definitionView, range) });
    renderPods(ui.pods, view);
    renderGroups(ui.gang, view);
    fillEditChoices(view);
    showJson(view);
  } else {
    fill(
      ui.headline,
      h(
        'span',
        { class: 'meta' },
        noDefinition(result.definitionSource) ? 'No view: there is no definition to run (see above).' : 'No view: see the diagnostics.',
      ),
    );
    for (const element of [ui.resources, ui.tree, ui.phases, ui.pods, ui.gang]) fill(element);
    showJson(null);
    // Nothing to edit either: no component is left from an earlier manifest, and the panel says why.
    fillEditChoices(null);
    fill(
      ui.editResult,
      h('p', { class: 'empty edit-no-view' }, 'No view: there is nothing to suspend, resume or patch until the manifest and the definition give one.'),
    );
  }
  // Without a view its cards would be empty headers: they are hidden, and the edits disabled.
  for (const card of VIEW_CARDS) $(card).hidden = !view;
  for (const button of EDIT_BUTTONS) $(button).disabled = !view;
  if (!view) page.selectedNode = null;
  const none = noDefinition(result.definitionSource);
  setStatus('done', `${view ? `${view.resources.text.gpus} GPUs · ${view.phases.join(', ')}` : (none ?? 'no view')}${errorText} · ${result.ms.toFixed(1)} ms`);
}

/** A run's diagnostics and the API schema check's, in the editors and the list; returns them. */
function showAllDiagnostics(result) {
  const diagnostics = mergeDiagnostics(result.definitionDiagnostics, result.objectDiagnostics ?? [], result.view?.diagnostics ?? [], apiSchema.diagnostics);
  showDiagnostics(
    definitionView,
    diagnostics.filter((d) => d.source !== 'object' && d.source !== 'pods'),
  );
  showDiagnostics(
    manifestView,
    diagnostics.filter((d) => d.source === 'object'),
  );
  renderDiagnostics(ui.diagnostics, ui.count, diagnostics, jumpToDiagnostic);
  return diagnostics;
}

/**
 * The workload choice: shown when the core read several workloads in the manifest (`workloads`,
 * from the worker's `readManifest`), with the one the run showed selected.
 */
function showWorkloads(workloads, shown) {
  const several = Array.isArray(workloads) && workloads.length > 1;
  ui.workloadPicker.hidden = !several;
  if (!several) {
    fill(ui.workloadChoice);
    return;
  }
  const label = (w) => `${w.kind}/${w.name}${w.namespace ? ` (${w.namespace})` : ''}`;
  const choices = workloads.map((w) => `${w.key}\u0000${label(w)}`).join('\n');
  if (ui.workloadChoice.dataset.choices !== choices) {
    ui.workloadChoice.dataset.choices = choices;
    fill(
      ui.workloadChoice,
      workloads.map((w) => h('option', { attrs: { value: w.key } }, label(w))),
    );
  }
  if (shown) ui.workloadChoice.value = shown;
}

ui.workloadChoice.addEventListener('change', () => {
  page.chosenWorkload = ui.workloadChoice.value || undefined;
  runNow();
});

// --- the definition's source: catalog or custom ------------------------------------------------

/** Why a run had no definition (an unknown type, an empty custom text), or undefined. */
function noDefinition(source) {
  if (source?.mode === 'catalog' && source.unknown) return source.unknown.kind ? `no catalog entry for ${typeName(source.unknown)}` : 'no apiVersion/kind';
  if (source?.mode === 'custom' && source.empty) return 'empty definition';
  return undefined;
}

/** Shows what the worker evaluated with: the followed entry in the editor, the source line, the offer. */
function followSource(source) {
  // A result from before a mode switch says nothing about the mode now in force.
  if (!source || source.mode !== page.mode) return;
  page.definitionSource = source;
  // The editor shows what the run used: the entry followed, or nothing for an unknown type.
  const shown = source.followed ? source.text : source.unknown ? '' : undefined;
  if (typeof shown === 'string') {
    page.following = true;
    try {
      showFollowed(definitionView, shown);
    } finally {
      page.following = false;
    }
  }
  renderSource(ui.source, { mode: page.mode, source, origin: page.origin });
  renderOfferOf(source);
  ui.fork.hidden = !(page.mode === 'catalog' && source.followed);
  page.casesPanel?.render();
}

/** The message shown instead of a view (an unknown type, an empty definition) and its actions. */
function renderOfferOf(source) {
  renderOffer(ui.offer, source, {
    // Nothing to draft from an empty manifest.
    onDraft: isBlank(manifestView.state.doc.toString()) ? undefined : draftDefinition,
    onCatalog: () => chooseMode('catalog'),
    onCustom: () => chooseMode('custom'),
    onDraftSchema: apiSchema.loaded ? draftFromApiSchema : undefined,
  });
}

/** Sets the mode and what shows it (select, read-only editor, buttons); runs nothing. */
function applyMode(next, nextOrigin = '') {
  page.mode = next === 'custom' ? 'custom' : 'catalog';
  page.origin = page.mode === 'custom' ? nextOrigin : '';
  ui.mode.value = page.mode;
  setReadOnly(definitionView, page.mode === 'catalog');
  page.definitionTools?.setReadOnly(page.mode === 'catalog');
  ui.fork.hidden = page.mode !== 'catalog' || !page.definitionSource?.followed;
  renderSource(ui.source, { mode: page.mode, source: page.definitionSource?.mode === page.mode ? page.definitionSource : undefined, origin: page.origin });
  if (page.definitionSource?.mode !== page.mode) renderOffer(ui.offer, undefined, {});
}

/** The user picks a mode: catalog follows the manifest again; custom pins a text. */
function chooseMode(next) {
  if (next === page.mode) return;
  if (next === 'catalog') {
    page.putAside = { text: definitionView.state.doc.toString(), origin: page.origin };
    applyMode('catalog');
  } else if (page.putAside) {
    const restored = page.putAside;
    page.putAside = undefined;
    applyMode('custom', restored.origin);
    replaceText(definitionView, restored.text, 'input.restore');
  } else {
    forkEntry();
    return;
  }
  saveDraftSoon();
  runNow();
}

/** "Edit a copy": the followed entry becomes a custom definition, editable and pinned. */
function forkEntry() {
  const followed = page.definitionSource?.mode === 'catalog' ? page.definitionSource.followed : undefined;
  page.putAside = undefined;
  const blank = definitionView.state.doc.toString().trim() === '';
  applyMode('custom', followed ? `a copy of catalog entry ${typeName(followed)}` : blank ? '' : 'a copy of the catalog entry shown');
  saveDraftSoon();
  runNow();
  definitionView.focus();
}

/** "Draft": a starting definition from the manifest's object, in custom mode. */
async function draftDefinition() {
  ui.draft.disabled = true;
  try {
    const drafted = await engine.ask('draft', { manifest: manifestView.state.doc.toString() });
    if (drafted.error) throw new Error(drafted.error);
    if (!drafted.text) {
      const why = (drafted.diagnostics ?? []).map((d) => d.message).join('; ') || 'the object could not be read';
      showBanner(`No definition could be drafted from this manifest: ${why}`);
      return;
    }
    page.putAside = undefined;
    const unknown = page.definitionSource?.mode === 'catalog' ? page.definitionSource.unknown : undefined;
    applyMode('custom', unknown?.kind ? `drafted from ${typeName(unknown)}` : 'drafted from the manifest');
    replaceText(definitionView, drafted.text, 'input.draft');
    const notes = (drafted.diagnostics ?? []).filter((d) => d.source === 'object').map((d) => d.message);
    if (notes.length) showNotice(`The draft says: ${notes.join('; ')}`);
    saveDraftSoon();
    runNow();
  } catch (error) {
    showBanner(`Drafting failed: ${error.message}`);
  } finally {
    ui.draft.disabled = false;
  }
}

/** "Draft from the API schema": a starting definition from the loaded schema of the manifest's type. */
async function draftFromApiSchema() {
  try {
    const drafted = await apiSchema.draft(manifestView.state.doc.toString());
    if (!drafted.text) {
      const why = (drafted.diagnostics ?? []).map((d) => d.message).join('; ') || 'the schema could not be read';
      showBanner(`No definition could be drafted from the API schema: ${why}`);
      return;
    }
    page.putAside = undefined;
    const type = drafted.drafted;
    applyMode(
      'custom',
      type
        ? `drafted from the API schema of ${typeName({ apiVersion: type.group ? `${type.group}/${type.version}` : type.version, kind: type.kind })}`
        : 'drafted from the API schema',
    );
    replaceText(definitionView, drafted.text, 'input.draft');
    saveDraftSoon();
    runNow();
  } catch (error) {
    showBanner(`Drafting from the API schema failed: ${error.message}`);
  }
}

ui.mode.addEventListener('change', () => chooseMode(ui.mode.value));
ui.fork.addEventListener('click', forkEntry);
ui.draft.addEventListener('click', draftDefinition);

// --- test cases ---------------------------------------------------------------------------------

/** A fresh run of the current texts with its objects, for "Save as test case". */
async function captureCase() {
  const answer = await engine.ask('case', page.chosenWorkload ? { ...currentState(), workload: page.chosenWorkload } : currentState());
  if (answer.error) throw new Error(answer.error);
  if (!answer.view) throw new Error(noDefinition(answer.definitionSource) ?? 'there is no view (see the diagnostics)');
  if (!answer.workload) throw new Error('the manifest cannot be read');
  return { object: answer.workload, related: answer.related ?? [], view: answer.view, definition: answer.definitionText };
}

/** The definition now in use (the editor's text, which in catalog mode is the followed entry). */
function definitionInUse() {
  return { text: definitionView.state.doc.toString(), name: page.lastGoodView?.definition?.name ?? '' };
}

/** The text a diagnostic's source names. */
function textName(source) {
  return source === 'object' ? 'manifest' : source === 'pods' ? 'Pods text' : 'definition';
}

function mergeDiagnostics(...lists) {
  const seen = new Set();
  const merged = [];
  for (const diagnostic of lists.flat()) {
    const key = [diagnostic.source, diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.message].join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(diagnostic);
  }
  const rank = { error: 0, warning: 1, info: 2 };
  return merged.sort((a, b) => (rank[a.severity] ?? 3) - (rank[b.severity] ?? 3) || (a.line ?? 0) - (b.line ?? 0));
}

function jumpToDiagnostic(diagnostic) {
  if (!diagnostic.line) return;
  if (diagnostic.source === 'pods') {
    ui.podsInput.focus();
    return;
  }
  jumpTo(diagnostic.source === 'object' ? manifestView : definitionView, diagnostic.line, diagnostic.column ?? 1);
}

/** Highlights the lines a role tree node came from (the view's source ranges). */
function highlightNode(node) {
  const lines = (range) => (range ? [[range.line, range.endLine]] : []);
  highlightLines(definitionView, lines(node?.definition));
  highlightLines(manifestView, lines(node?.object));
}

/** Click-to-source: a component selects its entry in the definition, an instance its part of the manifest. */
function selectNode(node) {
  page.selectedNode = node;
  highlightNode(node);
  if (!node) return;
  const isInstance = node.instance !== undefined;
  if (!isInstance && node.definition) selectRange(definitionView, node.definition);
  if (node.object) selectRange(manifestView, node.object);
}

function setStatus(state, text) {
  // A result that arrives while a later edit waits for its run is not the editors' result yet:
  // the status says so (`pending`) until that run is done.
  ui.status.dataset.state = state === 'done' && page.runPending ? 'pending' : state;
  ui.status.textContent = text;
  // Cut with an ellipsis where the top bar has no room: the whole text on hover.
  ui.status.title = text;
}

function showBanner(text) {
  ui.banner.textContent = text;
  ui.banner.hidden = false;
}

function hideBanner() {
  ui.banner.hidden = true;
  ui.banner.textContent = '';
}

/** A message that stays until the user dismisses it (results never replace it). */
function showNotice(text) {
  ui.noticeText.textContent = text;
  ui.notice.hidden = false;
}

$('notice-dismiss').addEventListener('click', () => {
  ui.notice.hidden = true;
  ui.noticeText.textContent = '';
});

// --- edit panel ------------------------------------------------------------------------------

/** The components with a pod spec and their instance ids, for the merge editor's choices. */
function podSpecComponents(view) {
  const found = new Map();
  const visit = (component) => {
    if (!component) return;
    if (component.hasPodSpec) {
      const ids = found.get(component.name) ?? new Set();
      for (const instance of component.instances) if (instance.id !== null && instance.id !== undefined) ids.add(instance.id);
      found.set(component.name, ids);
    }
    for (const instance of component.instances ?? []) for (const child of instance.children ?? []) visit(child);
  };
  visit(view.root);
  return found;
}

/** Refills the component and instance choices, keeping the chosen ones while they exist. */
/** The cards that show a view, hidden when there is none. */
const VIEW_CARDS = ['resources-card', 'tree-card', 'phase-card', 'pods-card', 'gang-card'];
/** The Edit panel's buttons that need a view. */
const EDIT_BUTTONS = ['edit-suspend', 'edit-resume', 'edit-apply'];

function fillEditChoices(view) {
  const components = view ? podSpecComponents(view) : new Map();
  const chosen = ui.editComponent.value;
  fill(
    ui.editComponent,
    [...components.keys()].map((name) => h('option', { attrs: { value: name } }, name)),
  );
  if (components.has(chosen)) ui.editComponent.value = chosen;
  fillInstanceChoices(components.get(ui.editComponent.value));
}

function fillInstanceChoices(ids) {
  // Redrawn only when the instances change (999 options cost ~8 ms a run).
  const choices = [...(ids ?? [])].join('\n');
  if (ui.editInstance.options.length && choices === ui.editInstance.dataset.choices) return;
  ui.editInstance.dataset.choices = choices;
  const chosen = ui.editInstance.value;
  fill(
    ui.editInstance,
    h('option', { attrs: { value: '' } }, 'every instance'),
    [...(ids ?? [])].map((id) => h('option', { attrs: { value: id } }, id)),
  );
  if (ids?.has(chosen)) ui.editInstance.value = chosen;
}

function requestEdit(request) {
  page.editRequest = request;
  runNow();
}

$('edit-suspend').addEventListener('click', () => requestEdit({ action: 'suspend' }));
$('edit-resume').addEventListener('click', () => requestEdit({ action: 'resume' }));
$('edit-apply').addEventListener('click', () =>
  requestEdit({ action: 'pod', component: ui.editComponent.value, instance: ui.editInstance.value || null, merge: ui.editMerge.value }),
);
$('edit-clear').addEventListener('click', () => requestEdit(null));
ui.editComponent.addEventListener('change', () => {
  if (page.lastGoodView) fillInstanceChoices(podSpecComponents(page.lastGoodView).get(ui.editComponent.value));
});

// --- examples ---------------------------------------------------------------------------------

createGallery(
  { open: ui.examples, dialog: $('gallery'), search: $('gallery-search'), count: $('gallery-count'), list: $('gallery-list'), close: $('gallery-close') },
  { definitions: examples.definitions, onPick: loadExample },
);

/** Loads a gallery item: `default:`, `<definition>:` (the definition only) or `<definition>:<example>`. */
async function loadExample(value) {
  const [definitionIndex, exampleIndex] = value.split(':');
  if (definitionIndex === 'default') {
    page.loadHistory.push(currentState());
    setState({ definition: defaultDefinition, manifest: defaultManifest, mode: 'catalog', options: {} }, 'input.example');
    ui.undoLoad.hidden = false;
    ui.undoLoad.textContent = 'Undo load (default)';
    runNow();
    return;
  }
  let texts;
  try {
    texts = await loadCatalogTexts();
  } catch (error) {
    page.catalogTexts = undefined;
    showBanner(`The examples could not be loaded: ${error.message}`);
    return;
  }
  const definition = texts.definitions[Number(definitionIndex)];
  if (!definition) return;
  const example = exampleIndex === '' ? undefined : definition.examples[Number(exampleIndex)];
  page.loadHistory.push(currentState());
  // An example follows its catalog entry; a definition alone is pinned over the current manifest.
  setState(
    { definition: definition.text, manifest: example ? example.text : currentState().manifest, mode: example ? 'catalog' : 'custom', options: page.options },
    'input.example',
  );
  ui.undoLoad.hidden = false;
  ui.undoLoad.textContent = `Undo load (${definition.kind}${example ? `: ${example.file}` : ''})`;
  runNow();
}

ui.undoLoad.addEventListener('click', () => {
  const previous = page.loadHistory.pop();
  if (!previous) return;
  // Restoring is itself a change in each editor's history, so nothing is lost either way.
  setState(previous, 'input.undo-example');
  ui.undoLoad.hidden = page.loadHistory.length === 0;
  if (!ui.undoLoad.hidden) ui.undoLoad.textContent = 'Undo load';
  runNow();
});

// --- share, drafts --------------------------------------------------------------------------

/** The page state a share link carries besides the texts (share-ui.js). */
function uiState() {
  const tab = /** @type {HTMLElement | null} */ (document.querySelector('[role="tab"][aria-selected="true"]'))?.dataset.tab;
  const node = Array.from(ui.tree.querySelectorAll('.node')).findIndex((n) => n.getAttribute('aria-pressed') === 'true');
  return { tab, ...(node >= 0 ? { node } : {}), ...(page.editRequest ? { edit: page.editRequest } : {}), merge: ui.editMerge.value, origin: page.origin };
}

async function share() {
  const hash = await encodeShare({ ...currentState(), ui: uiState() }, page.engineVersion);
  const url = `${location.origin}${location.pathname}${location.search}#${hash}`;
  history.replaceState(null, '', url);
  const button = $('share');
  button.dataset.url = url;
  try {
    await navigator.clipboard.writeText(url);
    flash(button, 'Link copied');
  } catch {
    flash(button, 'Link in the address bar');
  }
}

function flash(button, text) {
  const original = 'Copy link';
  button.textContent = text;
  setTimeout(() => (button.textContent = original), 1500);
}

$('share').addEventListener('click', share);
$('run').addEventListener('click', () => runNow());

/**
 * The JSON tab shows a view: written out when the tab is shown (or copied, downloaded), not at
 * every result: at 1 MB the indented JSON of a view costs tens of milliseconds per keystroke.
 */
function showJson(view) {
  page.jsonView = view;
  page.jsonText = undefined;
  page.jsonDrawn = false;
  drawJson();
}

function jsonText() {
  page.jsonText ??= JSON.stringify(page.jsonView ?? null, null, 2);
  return page.jsonText;
}

function drawJson() {
  if ($('tab-json').hidden || page.jsonDrawn) return;
  ui.json.textContent = jsonText();
  page.jsonDrawn = true;
}

$('copy-json').addEventListener('click', () => copyText($('copy-json'), jsonText(), ui.json));
$('download-json').addEventListener('click', () => downloadText(`${fileStem(page.jsonView?.name, 'view')}.view.json`, jsonText(), 'application/json'));

/** A file name's stem from a name (the definition's, the object's), or `fallback`. */
function fileStem(name, fallback) {
  const stem = String(name ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '');
  return stem || fallback;
}

/** "Undo load (…)" after a load replaced a text. */
function showUndoLoad(what) {
  ui.undoLoad.hidden = false;
  ui.undoLoad.textContent = `Undo load (${what.length > 40 ? `…${what.slice(-39)}` : what})`;
}

// --- tabs, theme, shortcuts -------------------------------------------------------------------

for (const tab of document.querySelectorAll('[role="tab"]')) {
  tab.addEventListener('click', () => {
    for (const other of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[role="tab"]'))) {
      other.setAttribute('aria-selected', String(other === tab));
      $(`tab-${other.dataset.tab}`).hidden = other !== tab;
    }
    drawJson();
  });
}
if (start.ui?.tab) /** @type {HTMLElement | null} */ (document.querySelector(`[role="tab"][data-tab="${start.ui.tab}"]`))?.click();
// Overview/JSON is one tab stop; ← and → (Home, End) move between the tabs and show them.
rovingTabStop(document.querySelector('.tabs'), '[role="tab"]', {
  keys: ['ArrowLeft', 'ArrowRight'],
  activate: true,
  current: (tabs) => tabs.find((t) => t.getAttribute('aria-selected') === 'true'),
});

/** @type {Array<'auto' | 'light' | 'dark'>} */
const THEMES = ['auto', 'light', 'dark'];
function applyTheme(theme) {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  $('theme').textContent = `Theme: ${theme}`;
  $('theme').title = theme === 'auto' ? 'Theme: follows the system' : `Theme: ${theme}`;
}
page.theme = THEMES.find((theme) => theme === localStorage.getItem(THEME_KEY)) ?? 'auto';
applyTheme(page.theme);
$('theme').addEventListener('click', () => {
  page.theme = THEMES[(THEMES.indexOf(page.theme) + 1) % THEMES.length];
  localStorage.setItem(THEME_KEY, page.theme);
  applyTheme(page.theme);
});

document.addEventListener('keydown', (event) => {
  const mod = event.ctrlKey || event.metaKey;
  const inEditor = event.target instanceof Element && event.target.closest('.cm-editor');
  if (mod && event.key === 'Enter') {
    event.preventDefault();
    runNow();
  } else if (mod && event.shiftKey && event.key.toLowerCase() === 's') {
    event.preventDefault();
    share();
  } else if (event.altKey && (event.key === '1' || event.code === 'Digit1')) {
    event.preventDefault();
    definitionView.focus();
  } else if (event.altKey && (event.key === '2' || event.code === 'Digit2')) {
    event.preventDefault();
    manifestView.focus();
  } else if (event.key === '?' && !inEditor && !(event.target instanceof HTMLInputElement)) {
    $('help').togglePopover();
  }
});

// A small handle for the end-to-end tests and for people poking at the page from devtools.
/** @type {any} */ (window).playground = {
  get state() {
    return currentState();
  },
  /** Puts a definition in the editor; a definition set by hand is pinned (custom mode). */
  setDefinition: (text) => {
    if (page.mode !== 'custom') applyMode('custom');
    replaceText(definitionView, text);
  },
  get mode() {
    return page.mode;
  },
  /** Switches the definition's source as the mode picker does. */
  setMode: (next) => chooseMode(next),
  setManifest: (text) => replaceText(manifestView, text),
  /** Picks the workload shown among several (its `workloadKey`; undefined: the default). */
  setWorkload: (key) => {
    page.chosenWorkload = key || undefined;
    runNow();
  },
  setPods: (text) => {
    ui.podsInput.value = text;
    edited();
  },
  runNow: () => runNow(),
  /** The selection of the `definition` or `manifest` editor: offsets, 1-based lines, text. */
  selection: (editor) => selectionOf(editor === 'manifest' ? manifestView : definitionView),
  /** Runs the current texts with the engine made to trap on purpose (see worker.js). */
  trapForTests: () => runNow({ trapForTests: true }),
  get restarts() {
    return engine.restarts;
  },
  /** The watchdog's time for a run (`?timeout=` at load); tests change it between runs. */
  get timeoutMs() {
    return engine.timeoutMs;
  },
  set timeoutMs(ms) {
    engine.timeoutMs = ms;
  },
};
