// The evaluation worker. It owns the engine (wasm) so a runaway expression blocks only this
// thread; the page terminates and recreates the worker when a run overstays its time.
//
// Protocol (all messages are plain data):
//   page -> worker  {type: 'run', id, mode, definition, manifest, pods?, edit?, trapForTests?}
//                   mode 'catalog': the catalog entry for the manifest's apiVersion/kind is
//                   the definition (the text sent is used only while the manifest cannot be
//                   read); 'custom' (or absent): the text sent is. See follow.js.
//                   pods: text of related objects (`kubectl get pods -o yaml`), may be empty;
//                   edit: {action: 'suspend' | 'resume' | 'pod', component?, instance?, merge?}
//                   (merge is the JSON merge patch as typed). When the manifest holds several
//                   objects (a List or a multi-document stream), the one the definition covers
//                   is the workload and the rest are related objects (Jobs, Pods, ...).
//                   {type: 'decode', id, hash}        read a share link (untrusted input)
//                   {type: 'draft', id, manifest}     draft a definition from the workload object
//                   {type: 'case', id, ...as run}     a run that also returns its objects (a test case)
//                   {type: 'resolveAll', id, objects, pods?}  many workloads, each with its catalog
//                   definition (the `<workload-map-table>` element; objects: text, a List or an array)
//   worker -> page  {type: 'ready', version, catalogSize}
//                   {type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, trapped, ms,
//                    edit?: {action, object, patch, diagnostics, error?}, object?,
//                    definitionSource: {mode, followed?, unknown?, empty?, kept?, text?}}
//                   (text: the followed entry's text, when it differs from the text sent)
//                   {type: 'result', id, batch, error, trapped, ms}   for resolveAll: batch is its result
//                   {type: 'answer', id, result}      to draft ({text, diagnostics}) and case
//                   (a result plus definitionText, workload and related)
//                   (object: the workload as a plain object, for the definition editor's jq
//                   completion; left out when the run said `objectKnown`: the page has it)
//                   {type: 'decoded', id, state?, error?}
//                   {type: 'fatal', message}        the engine could not start
//
// `trapped: true` means the engine stopped on this input (a WebAssembly trap); the package has
// restarted it, but the page replaces this worker anyway so that nothing of the old instance's
// memory stays. `trapForTests` makes the run trap on purpose (the package's internal
// `__trapForTests`); only the end-to-end tests send it.

import { Definition, __trapForTests, catalog, draft, init, parseObjects, resolveAll, version } from 'workload-map';
import { chooseDefinition, workloadIndex } from './follow.js';
import { decodeShare } from './state.js';

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

self.onmessage = async (event) => {
  const message = event.data;
  if (message?.type === 'decode') {
    // Needs no engine: answered at once, even while the wasm is still loading.
    decodeShare(String(message.hash)).then(
      (state) => self.postMessage({ type: 'decoded', id: message.id, state }),
      (error) => self.postMessage({ type: 'decoded', id: message.id, error: messageOf(error) }),
    );
    return;
  }
  if (message?.type === 'draft' || message?.type === 'case') {
    await ready;
    let result;
    try {
      result = message.type === 'draft' ? draftFrom(String(message.manifest ?? '')) : caseOf(message);
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
  const { result } = run(message);
  // The workload object (for the definition editor's completion) crosses only when the page
  // does not have it yet: an edit of the definition alone does not copy a large object again.
  if (message.objectKnown) delete result.object;
  self.postMessage(result);
};

/** A starting definition drafted from the manifest's workload object. */
function draftFrom(manifest) {
  const parsed = parseObjects(manifest);
  // One object goes as text, so that what the draft says about it points into the editor.
  const input = parsed.diagnostics.length > 0 || parsed.objects.length <= 1 ? manifest : parsed.objects[workloadIndex(parsed.objects, () => false)];
  const drafted = plain(draft(input));
  return { text: drafted.text, diagnostics: drafted.diagnostics };
}

/** A run whose answer also holds the workload, its related objects and the definition's text. */
function caseOf(message) {
  const { result, definitionText, objects } = run(message);
  return { ...result, definitionText, workload: objects?.workload ?? null, related: objects ? [...objects.related.owners, ...objects.related.pods] : [] };
}

/** Many workloads with their catalog definitions (`resolveAll`), for the table element. */
function runAll({ id, objects, pods }) {
  const started = performance.now();
  let batch = null;
  let error = null;
  let trapped = false;
  try {
    batch = plain(resolveAll(objects, pods === undefined ? { catalog: true } : { catalog: true, pods }));
  } catch (caught) {
    trapped = caught?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED';
    error = messageOf(caught);
  }
  return { type: 'result', id, batch, error, trapped, ms: performance.now() - started };
}

function run({ id, mode, definition, manifest, pods, edit, trapForTests }) {
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
  try {
    if (trapForTests) __trapForTests();
    const parsed = parseObjects(manifest);
    const chosen = chooseDefinition(catalog, { mode, definition, parsed });
    definitionSource = chosen.source;
    if (chosen.source.followed && chosen.text !== definition) definitionSource = { ...chosen.source, text: chosen.text };
    if (chosen.text !== undefined) {
      definitionText = chosen.text;
      const compiledDefinition = compile(chosen.text);
      definitionDiagnostics = plain(compiledDefinition.diagnostics ?? []);
      const { workload, workloadObject, workloadIndex: index, related, diagnostics } = splitObjects(compiledDefinition, manifest, parsed, pods, chosen.workloadIndex);
      objectDiagnostics = diagnostics;
      objects = { workload: workloadObject, related: related ?? { pods: [], owners: [] } };
      object = workloadObject ?? undefined;
      // A manifest of several objects is resolved as text with the workload's index, so that the
      // view's places (diagnostics, instance ranges) point into the manifest.
      const input = index === undefined ? workload : manifest;
      const options = index === undefined ? related : { ...related, workload: index };
      view = plain(options ? compiledDefinition.resolve(input, options) : compiledDefinition.resolve(input));
      if (edit?.action) {
        try {
          editResult = runEdit(compiledDefinition, workload, edit);
        } catch (caught) {
          if (caught?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED' || caught?.code === 'WORKLOAD_MAP_STALE_DEFINITION') throw caught;
          // The view stands; the edit alone is refused (e.g. no component chosen).
          editResult = { action: String(edit.action), object: null, patch: [], diagnostics: plain(caught?.diagnostics ?? []), error: messageOf(caught) };
        }
      }
    }
  } catch (caught) {
    // Problems in the input come back as diagnostics; an exception may still carry them (e.g. a
    // manifest that is not YAML at all), and anything else is reported, never swallowed.
    const carried = caught?.diagnostics ?? (caught?.diagnostic ? [caught.diagnostic] : undefined);
    if (caught?.code === 'WORKLOAD_MAP_ENGINE_RESTARTED' || caught?.code === 'WORKLOAD_MAP_STALE_DEFINITION') {
      // The compiled definition belonged to the stopped instance; never touch it again.
      compiled = { text: undefined, definition: undefined };
      trapped = true;
      error = messageOf(caught);
    } else if (Array.isArray(carried) && carried.length > 0) {
      objectDiagnostics = [...objectDiagnostics, ...plain(carried).map((d) => ({ source: 'object', ...d }))];
    } else {
      error = messageOf(caught);
    }
  }
  const result = { type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, trapped, ms: performance.now() - started, edit: editResult, definitionSource, object };
  return { result, definitionText, objects };
}

/**
 * The workload and its related objects. A manifest with one object is passed on as text (so
 * its diagnostics keep their positions); one with several is split: the object whose
 * apiVersion/kind the definition covers is the workload (`workloadIndex`: the manifest is
 * resolved as text with that index, so places still point into it), the others are related
 * (Pods count as pods, everything else as possible owners). The Pods pane's text adds more
 * related objects.
 */
function splitObjects(definition, manifest, inManifest, podsText, chosenIndex) {
  const diagnostics = [];
  let workload = manifest;
  let workloadObject = inManifest.diagnostics.length === 0 && inManifest.objects.length === 1 ? inManifest.objects[0] : null;
  const pods = [];
  const owners = [];
  let workloadAt;
  if (inManifest.diagnostics.length === 0 && inManifest.objects.length > 1) {
    const gvk = definition.gvk;
    const covers = (o) => gvk && o && o.kind === gvk.kind && String(o.apiVersion ?? '') === (gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version);
    // In catalog mode the object that chose the entry is the workload (also at another version).
    const covered = inManifest.objects.findIndex(covers);
    const index = chosenIndex ?? (covered >= 0 ? covered : workloadIndex(inManifest.objects, () => false));
    workload = inManifest.objects[index];
    workloadObject = workload;
    workloadAt = index;
    inManifest.objects.forEach((o, i) => i !== index && (o?.kind === 'Pod' ? pods : owners).push(o));
  }
  if (typeof podsText === 'string' && podsText.trim() !== '') {
    const parsed = parseObjects(podsText);
    diagnostics.push(...plain(parsed.diagnostics).map((d) => ({ ...d, source: 'pods' })));
    for (const o of parsed.objects) (o?.kind === 'Pod' ? pods : owners).push(o);
  }
  const hasRelated = pods.length > 0 || owners.length > 0 || (typeof podsText === 'string' && podsText.trim() !== '');
  return { workload, workloadObject, workloadIndex: workloadAt, related: hasRelated ? { pods, owners } : undefined, diagnostics };
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

function compile(text) {
  if (compiled.text !== text) {
    compiled.definition?.free?.();
    compiled = { text, definition: new Definition(text) };
  }
  return compiled.definition;
}

/** Views cross postMessage as plain JSON (no Maps, no wasm handles). */
function plain(value) {
  return JSON.parse(JSON.stringify(value, (_, v) => (v instanceof Map ? Object.fromEntries(v) : v)));
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
