// The evaluation worker. It owns the engine (wasm) so a runaway expression blocks only this
// thread; the page terminates and recreates the worker when a run overstays its time.
//
// Protocol (all messages are plain data):
//   page -> worker  {type: 'run', id, definition, manifest, pods?, edit?, trapForTests?}
//                   pods: text of related objects (`kubectl get pods -o yaml`), may be empty;
//                   edit: {action: 'suspend' | 'resume' | 'pod', component?, instance?, merge?}
//                   (merge is the JSON merge patch as typed). When the manifest holds several
//                   objects (a List or a multi-document stream), the one the definition covers
//                   is the workload and the rest are related objects (Jobs, Pods, ...).
//                   {type: 'decode', id, hash}        read a share link (untrusted input)
//   worker -> page  {type: 'ready', version, catalogSize}
//                   {type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, trapped, ms,
//                    edit?: {action, object, patch, diagnostics, error?}, object?}
//                   object: the workload as a plain object (the definition editor completes jq
//                   paths from it)
//                   {type: 'decoded', id, state?, error?}
//                   {type: 'fatal', message}        the engine could not start
//
// `trapped: true` means the engine stopped on this input (a WebAssembly trap); the package has
// restarted it, but the page replaces this worker anyway so that nothing of the old instance's
// memory stays. `trapForTests` makes the run trap on purpose (the package's internal
// `__trapForTests`); only the end-to-end tests send it.

import { Definition, __trapForTests, catalog, init, parseObjects, version } from 'workload-map';
import { decodeShare } from './state.js';

/** The compiled definition is kept while its text is unchanged: compile once, evaluate many. */
let compiled = { text: undefined, definition: undefined };

const ready = (async () => {
  await init(new URL('engine.wasm', self.location.href));
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
  if (message?.type !== 'run') return;
  await ready;
  self.postMessage(run(message));
};

function run({ id, definition, manifest, pods, edit, trapForTests }) {
  const started = performance.now();
  let definitionDiagnostics = [];
  let view = null;
  let error = null;
  let trapped = false;
  let objectDiagnostics = [];
  let editResult;
  let object;
  try {
    if (trapForTests) __trapForTests();
    const compiledDefinition = compile(definition);
    definitionDiagnostics = plain(compiledDefinition.diagnostics ?? []);
    const { workload, related, diagnostics, workloadObject, workloadIndex } = splitObjects(compiledDefinition, manifest, pods);
    objectDiagnostics = diagnostics;
    object = workloadObject;
    // A manifest of several objects is resolved as text with the workload's index, so that the
    // view's places (diagnostics, instance ranges) point into the manifest.
    const input = workloadIndex === undefined ? workload : manifest;
    const options = workloadIndex === undefined ? related : { ...related, workload: workloadIndex };
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
  return { type: 'result', id, view, definitionDiagnostics, objectDiagnostics, error, trapped, ms: performance.now() - started, edit: editResult, object };
}

/**
 * The workload and its related objects. A manifest with one object is passed on as text (so
 * its diagnostics keep their positions); one with several is split: the object whose
 * apiVersion/kind the definition covers is the workload (`workloadIndex`: the manifest is
 * resolved as text with that index, so places still point into it), the others are related
 * (Pods count as pods, everything else as possible owners). The Pods pane's text adds more
 * related objects.
 */
function splitObjects(definition, manifest, podsText) {
  const diagnostics = [];
  let workload = manifest;
  const pods = [];
  const owners = [];
  const inManifest = parseObjects(manifest);
  let workloadObject = inManifest.objects.length === 1 ? inManifest.objects[0] : undefined;
  let workloadIndex;
  if (inManifest.diagnostics.length === 0 && inManifest.objects.length > 1) {
    const gvk = definition.gvk;
    const covers = (o) => gvk && o && o.kind === gvk.kind && String(o.apiVersion ?? '') === (gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version);
    const index = Math.max(0, inManifest.objects.findIndex(covers));
    workload = inManifest.objects[index];
    workloadObject = workload;
    workloadIndex = index;
    inManifest.objects.forEach((o, i) => i !== index && (o?.kind === 'Pod' ? pods : owners).push(o));
  }
  if (typeof podsText === 'string' && podsText.trim() !== '') {
    const parsed = parseObjects(podsText);
    diagnostics.push(...plain(parsed.diagnostics).map((d) => ({ ...d, source: 'pods' })));
    for (const o of parsed.objects) (o?.kind === 'Pod' ? pods : owners).push(o);
  }
  const hasRelated = pods.length > 0 || owners.length > 0 || (typeof podsText === 'string' && podsText.trim() !== '');
  return { workload, related: hasRelated ? { pods, owners } : undefined, diagnostics, workloadObject, workloadIndex };
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
