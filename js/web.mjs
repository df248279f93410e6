// Browsers and bundlers: `await init()` once, then use the synchronous API.
import initGlue, * as glue from './workload_map.web.mjs';

let loading = null;
let ready = false;

/**
 * Loads the wasm module. Idempotent: later calls return the first call's promise. `input` may
 * be a URL (or string), a Response (or a promise of one), bytes, or a compiled
 * WebAssembly.Module; by default the `.wasm` next to this file is fetched.
 */
export function init(input) {
  if (!loading) {
    const moduleOrPath = input ?? new URL('./workload_map_bg.wasm', import.meta.url);
    loading = initGlue({ module_or_path: moduleOrPath }).then(
      () => {
        ready = true;
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}

function ensureReady(what) {
  if (!ready) {
    throw new Error(
      `workload-map: ${what} was called before the WebAssembly module was loaded. ` +
        'Call `await init()` once first (in Node the package is ready at import).',
    );
  }
}

export class Definition extends glue.Definition {
  constructor(source) {
    ensureReady('new Definition()');
    super(source);
  }
}

export function validate(text) {
  ensureReady('validate()');
  return glue.validate(text);
}

export function resolve(definition, object) {
  ensureReady('resolve()');
  return definition instanceof glue.Definition ? definition.resolve(object) : glue.resolveWith(definition, object);
}

export function parseObjects(text) {
  ensureReady('parseObjects()');
  return glue.parseObjects(text);
}

export function parseQuantity(text) {
  ensureReady('parseQuantity()');
  return glue.parseQuantity(text);
}

export function formatCpu(millis) {
  ensureReady('formatCpu()');
  return glue.formatCpu(millis);
}

export function formatMemory(bytes) {
  ensureReady('formatMemory()');
  return glue.formatMemory(bytes);
}

export const catalog = Object.freeze({
  list() {
    ensureReady('catalog.list()');
    return glue.catalogList();
  },
  find(apiVersion, kind) {
    ensureReady('catalog.find()');
    return glue.catalogFind(apiVersion, kind);
  },
  get(name) {
    ensureReady('catalog.get()');
    return glue.catalogGet(name);
  },
});

export const version = '__WORKLOAD_MAP_VERSION__';

// --- Edits: suspend, resume and pod spec merge patches, each `{ object, patch, diagnostics }`.
export function suspend(definition, object) {
  ensureReady('suspend()');
  return definition instanceof glue.Definition ? definition.suspend(object) : glue.suspendWith(definition, object);
}

export function resume(definition, object) {
  ensureReady('resume()');
  return definition instanceof glue.Definition ? definition.resume(object) : glue.resumeWith(definition, object);
}

export function editPodSpec(definition, object, options) {
  ensureReady('editPodSpec()');
  return definition instanceof glue.Definition
    ? definition.editPodSpec(object, options)
    : glue.editPodSpecWith(definition, object, options);
}
