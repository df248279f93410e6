// The evaluation worker's core, shared by the package's element worker (pkg/element-worker.mjs)
// and the playground's worker (www/src/worker.js, which adds share links, drafts and test cases
// through `answer`). It owns the engine (wasm) so a runaway expression blocks only this thread;
// the page terminates and recreates the worker when a run overstays its time.
//
// Protocol (all messages are plain data):
//   page -> worker  {type: 'run', id, mode, definition, manifest, pods?, workload?, edit?, trapForTests?}
//                   mode 'catalog': the catalog entry for the manifest's apiVersion/kind is
//                   the definition (the text sent is used only while the manifest cannot be
//                   read); 'custom' (or absent): the text sent is. See follow.js.
//                   pods: text of related objects (`kubectl get pods -o yaml`), may be empty;
//                   edit: {action: 'suspend' | 'resume' | 'pod', component?, instance?, merge?}
//                   (merge is the JSON merge patch as typed). The manifest may hold several
//                   objects (a List or a multi-document stream): the core reads the text once,
//                   with the Pods text as related objects (a `Manifest`, freed after the run),
//                   gives its reading (which objects are workloads, what belongs to each) and
//                   resolves that same reading with the workload chosen (`workload`: the
//                   `workloadKey` the user picked; else the catalog's first known one, or the
//                   definition's type), so the view's places point into the text. Only the
//                   objects the page needs cross to JavaScript. Nothing here decides which
//                   object is a workload or which pods belong to it.
//                   {type: 'resolveAll', id, objects, related?}  many workloads, each with its catalog
//                   definition (the `<workload-map-table>` element; objects: text, a List or an array;
//                   related: objects given apart, the same forms)
//   worker -> page  {type: 'ready', version, catalogSize}
//                   {type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, trapped, ms,
//                    edit?: {action, object, patch, diagnostics, error?}, object?,
//                    definitionSource: {mode, followed?, unknown?, empty?, kept?, text?},
//                    workloads?: [{key, index, apiVersion, kind, name, namespace?}], workload?: key}
//                   (workloads: the manifest's, when it holds more than one; workload: the one shown)
//                   (text: the followed entry's text, when it differs from the text sent)
//                   (object: the workload as a plain object, for the definition editor's jq
//                   completion; left out when the run said `objectKnown`: the page has it)
//                   {type: 'result', id, batch, error, trapped, ms}   for resolveAll: batch is its result
//                   {type: 'answer', id, result}      to a question `answer` registered (the
//                   playground's: draft, case)
//                   {type: 'fatal', message}        the engine could not start
//
// `trapped: true` means the engine stopped on this input (a WebAssembly trap); the package has
// restarted it, but the page replaces this worker anyway so that nothing of the old instance's
// memory stays. `trapForTests` (only the playground's end-to-end tests send it) makes the run
// trap on purpose, through the hook the playground's worker gives `hooks.trap`.

import { Definition, Manifest, catalog, init, loadCel, needsCel, resolveAll, version } from 'workload-map';
import { chooseDefinition, workloadKey } from './follow.js';

/**
 * What a worker that imports this core adds: `answer[type](message)` answers a question of that
 * type with `{type: 'answer', id, result}` once the engine is ready (a result that throws is
 * answered `{error}`); `trap()` is called for a run that asks `trapForTests`.
 *
 * @type {{answer: Record<string, (message: any) => unknown>, trap?: () => void}}
 */
export const hooks = { answer: {} };

/** The compiled definition is kept while its text is unchanged: compile once, evaluate many. */
let compiled = { text: undefined, definition: undefined };

const ready = (async () => {
  // The package's element worker says where its .wasm is (next to the package's files).
  await init(self.WORKLOAD_MAP_WASM_URL ?? new URL('engine.wasm', self.location.href));
  let catalogSize = 0;
  try {
    catalogSize = catalog?.list?.().length ?? 0;
  } catch {
    catalogSize = 0;
  }
  self.postMessage({ type: 'ready', version: String(version), catalogSize });
})().catch((error) => {
  self.postMessage({ type: 'fatal', message: messageOf(error) });
  throw error;
});

/**
 * Loads the CEL module (a second .wasm, next to the engine's) before a definition that holds
 * CEL compiles; a definition without CEL never fetches it. A module that cannot be loaded
 * leaves the definition's CEL expressions with `expr/cel-unavailable`, which says so.
 */
async function celFor(definition) {
  if (typeof definition !== 'string' || !needsCel(definition)) return;
  try {
    await loadCel(self.WORKLOAD_MAP_CEL_WASM_URL ?? new URL('engine-cel.wasm', self.location.href));
  } catch {
    // Shown as the definition's diagnostics.
  }
}

/**
 * Handles one message from the page (the worker's `onmessage`; a worker that adds messages of
 * its own handles those first).
 */
export async function onMessage(event) {
  const message = event.data;
  await ready;
  await celFor(message?.definition);
  const answer = typeof message?.type === 'string' && Object.hasOwn(hooks.answer, message.type) ? hooks.answer[message.type] : undefined;
  if (answer) {
    await ready;
    let result;
    try {
      result = answer(message);
    } catch (error) {
      result = { error: messageOf(error) };
    }
    self.postMessage({ type: 'answer', id: message.id, result });
    return;
  }
  if (message?.type === 'resolveAll') {
    await ready;
    self.postMessage(runAll(message));
    return;
  }
  if (message?.type !== 'run') return;
  await ready;
  // The workload object (for the definition editor's completion) crosses only when the page
  // does not have it yet (`objectKnown`): an edit of the definition alone does not copy a large
  // object again.
  const { result } = run(message);
  self.postMessage(result);
}

self.onmessage = onMessage;

/** Many workloads with their catalog definitions (`resolveAll`), for the table element. */
function runAll({ id, objects, related }) {
  const started = performance.now();
  let batch = null;
  let error = null;
  let trapped = false;
  try {
    batch = plain(resolveAll(objects, related === undefined || related === null ? { catalog: true } : { catalog: true, related }));
  } catch (caught) {
    trapped = caught?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED';
    error = messageOf(caught);
  }
  return { type: 'result', id, batch, error, trapped, ms: performance.now() - started };
}

/**
 * One run: the view of the manifest with the definition chosen, and what the page needs around
 * it; `definitionText`, and with `{objects: true}` `objects` (the workload and its related
 * objects), for a test case.
 */
export function run({ id, mode, definition, manifest, pods, workload: wanted, edit, trapForTests, objectKnown }, { objects: wantObjects = false } = {}) {
  const started = performance.now();
  let definitionSource = { mode: mode === 'catalog' ? 'catalog' : 'custom' };
  let definitionText;
  let objects;
  let definitionDiagnostics = [];
  let view = null;
  let error = null;
  let trapped = false;
  let objectDiagnostics = [];
  let editResult;
  let object;
  let workloads;
  let shown;
  let read;
  try {
    if (trapForTests) hooks.trap?.();
    // The manifest and the Pods pane's objects (related objects given apart), read once.
    const podsText = typeof pods === 'string' && pods.trim() !== '' ? pods : undefined;
    read = new Manifest(manifest, podsText === undefined ? undefined : { related: podsText });
    objectDiagnostics = plain(read.relatedDiagnostics).map((d) => ({ ...d, source: 'pods' }));
    const count = read.count;
    const readable = read.diagnostics.length === 0;
    // The core's reading: which objects are workloads (and what belongs to each).
    const reading = readable ? plain(read.reading) : { workloads: [], unowned: [], diagnostics: [] };
    const found = reading.workloads.map((w) => ({
      key: workloadKey(w),
      index: w.index,
      apiVersion: w.apiVersion,
      kind: w.kind,
      name: w.name,
      namespace: w.namespace,
    }));
    if (found.length > 1) workloads = found;
    if (readable && count > 0 && found.length === 0) {
      // Nothing to show: say why each object belongs to no workload.
      objectDiagnostics = [...objectDiagnostics, ...reading.unowned.map((u) => ({ source: 'object', ...u.diagnostic }))];
    }
    const chosen = chooseDefinition(catalog, { mode, definition, readable, workloads: found, wanted });
    definitionSource = chosen.source;
    if (chosen.source.followed && chosen.text !== definition) definitionSource = { ...chosen.source, text: chosen.text };
    if (chosen.text !== undefined) {
      definitionText = chosen.text;
      const compiledDefinition = compile(chosen.text);
      definitionDiagnostics = plain(compiledDefinition.diagnostics ?? []);
      // The manifest's reading is resolved (read from the text, so the view's places, its
      // diagnostics and instance ranges, point into it); the core picks the workload the run
      // chose, else the first of the definition's type.
      view = plain(compiledDefinition.resolve(read, chosen.workload ? { workload: chosen.workload.index } : undefined));
      // Which workload the view is (as the core picked it when the run did not say).
      shown = chosen.workload ?? found.find((w) => w.kind === view?.kind && w.name === view?.name && (w.namespace ?? null) === (view?.namespace ?? null));
      const index = readable ? (shown ? shown.index : count === 1 ? 0 : null) : null;
      // The workload object crosses only when something here needs it (a large object once).
      const needed = index !== null && (!objectKnown || wantObjects || (edit?.action && count !== 1));
      const workloadObject = needed ? read.object(index) : null;
      if (workloadObject) {
        if (wantObjects) objects = { workload: workloadObject, related: relatedOf(reading, shown, read) };
        if (!objectKnown) object = workloadObject;
      }
      if (edit?.action) {
        try {
          // One object goes as text (its edit diagnostics point into the editor).
          editResult = runEdit(compiledDefinition, count === 1 || !workloadObject ? manifest : workloadObject, edit);
        } catch (caught) {
          if (caught?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED' || caught?.code === 'WORKLOAD_MAP_STALE_DEFINITION') throw caught;
          // The view stands; the edit alone is refused (e.g. no component chosen).
          editResult = { action: String(edit.action), object: null, patch: [], diagnostics: plain(caught?.diagnostics ?? []), error: messageOf(caught) };
        }
      }
    } else if (chosen.workload && readable) {
      // No definition (a type the catalog does not know): the object still serves completion.
      if (!objectKnown || wantObjects) {
        const workloadObject = read.object(chosen.workload.index);
        if (wantObjects) objects = { workload: workloadObject, related: relatedOf(reading, chosen.workload, read) };
        if (!objectKnown) object = workloadObject;
      }
      shown = chosen.workload;
    }
  } catch (caught) {
    // Problems in the input come back as diagnostics; an exception may still carry them (e.g. a
    // manifest that is not YAML at all), and anything else is reported, never swallowed.
    const carried = caught?.diagnostics ?? (caught?.diagnostic ? [caught.diagnostic] : undefined);
    if (
      caught?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED' ||
      caught?.code === 'WORKLOAD_MAP_STALE_DEFINITION' ||
      caught?.code === 'WORKLOAD_MAP_STALE_MANIFEST'
    ) {
      // The compiled definition belonged to the stopped instance; never touch it again.
      compiled = { text: undefined, definition: undefined };
      trapped = true;
      error = messageOf(caught);
    } else if (Array.isArray(carried) && carried.length > 0) {
      objectDiagnostics = [...objectDiagnostics, ...plain(carried).map((d) => ({ source: 'object', ...d }))];
    } else {
      error = messageOf(caught);
    }
  } finally {
    // Kept only for this run (a stale one is detached without calling into the new instance).
    read?.free();
  }
  const result = {
    type: 'result',
    id,
    view,
    definitionDiagnostics,
    objectDiagnostics,
    error,
    trapped,
    ms: performance.now() - started,
    edit: editResult,
    definitionSource,
    object,
    workloads,
    workload: shown?.key,
  };
  return { result, definitionText, objects };
}

/**
 * The objects a test case of `workload` carries as `related`, so that it reads as the view did:
 * what the core's reading gives the workload, and what belongs to no workload (the view lists
 * those pods as not attributed), in input order. Other workloads of the manifest are left out.
 * `read` is the run's Manifest (its objects, then the related ones, by the reading's indices).
 */
function relatedOf(reading, workload, read) {
  const own = reading.workloads.find((w) => w.index === workload?.index);
  const indices = own
    ? new Set([...own.related, ...reading.unowned.map((u) => u.index)])
    : new Set(Array.from({ length: read.count + read.relatedCount }, (_, i) => i));
  indices.delete(own ? own.index : workload?.index);
  return [...indices].sort((a, b) => a - b).map((i) => read.object(i));
}

/** Suspend, resume or a pod spec merge patch on the workload, as the edit panel asks. */
function runEdit(definition, workload, edit) {
  const action = String(edit.action);
  if (action === 'suspend') return { action, ...plain(definition.suspend(workload)) };
  if (action === 'resume') return { action, ...plain(definition.resume(workload)) };
  if (action !== 'pod') return undefined;
  let merge;
  try {
    merge = JSON.parse(String(edit.merge ?? ''));
  } catch (error) {
    return { action, object: null, patch: [], diagnostics: [], error: `The merge patch is not JSON: ${messageOf(error)}` };
  }
  const options = { component: String(edit.component ?? ''), merge };
  if (edit.instance !== undefined && edit.instance !== null && edit.instance !== '') options.instance = String(edit.instance);
  return { action, ...plain(definition.editPodSpec(workload, options)) };
}

/** The compiled definition for a text (kept while the text is unchanged). */
export function compile(text) {
  if (compiled.text !== text) {
    compiled.definition?.free?.();
    compiled = { text, definition: new Definition(text) };
  }
  return compiled.definition;
}

/** Views cross postMessage as plain JSON (no Maps, no wasm handles). */
export function plain(value) {
  return JSON.parse(JSON.stringify(value, (_, v) => (v instanceof Map ? Object.fromEntries(v) : v)));
}

export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
