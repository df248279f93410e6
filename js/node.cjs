'use strict';
// Node, CommonJS: the wasm module is compiled and instantiated synchronously by the glue, so the
// API is usable as soon as `require('workload-map')` returns.
//
// A trap (a `WebAssembly.RuntimeError`, or the stack running out inside the engine) leaves a
// wasm instance in an unknown state, so every call goes through `call()`: on a trap it loads a
// fresh copy of the glue (a new instance, new memory), and throws one clear error for that call.
// A `Definition` remembers the generation it was compiled in and refuses to be used by a later
// one. web.mjs does the same for browsers; keep the two in step.
const gluePath = require.resolve('./workload_map.cjs');

let glue = require(gluePath);
let generation = 1;

function restart() {
  detachAll();
  // The glue instantiates at load time; a fresh module evaluation is a fresh instance.
  delete require.cache[gluePath];
  glue = require(gluePath);
  generation += 1;
}

function isTrap(error) {
  return error instanceof WebAssembly.RuntimeError || (error instanceof RangeError && /call stack/i.test(error.message));
}

function call(run) {
  try {
    return run(glue);
  } catch (error) {
    if (!isTrap(error)) throw error;
    restart();
    const stopped = new Error(`workload-map: the engine stopped on this input: ${error.message}; it has been restarted`, { cause: error });
    stopped.code = 'WORKLOAD_MAP_ENGINE_RESTARTED';
    throw stopped;
  }
}

/**
 * Detaches every live Definition from the instance being replaced: the old glue's finalizer
 * would otherwise call into the stopped instance when one is collected (an exception in a
 * finalizer ends a Node process), and a stale Definition would keep the old memory alive.
 */
let detachAll = () => {};

/** A compiled definition, tied to the engine instance that compiled it. */
class Definition {
  #inner;
  #generation;

  constructor(source) {
    this.#inner = call((g) => new g.Definition(source));
    this.#generation = generation;
    Definition.#track(this);
  }

  /** WeakRefs to the Definitions of the current instance, pruned as the set doubles. */
  static #live = new Set();
  static #pruneAt = 64;

  static #track(definition) {
    Definition.#live.add(new WeakRef(definition));
    if (Definition.#live.size >= Definition.#pruneAt) {
      for (const ref of Definition.#live) if (ref.deref() === undefined) Definition.#live.delete(ref);
      Definition.#pruneAt = Math.max(64, Definition.#live.size * 2);
    }
  }

  static {
    detachAll = () => {
      for (const ref of Definition.#live) {
        const definition = ref.deref();
        if (definition && definition.#inner) {
          definition.#inner.__destroy_into_raw();
          definition.#inner = undefined;
        }
      }
      Definition.#live = new Set();
      Definition.#pruneAt = 64;
    };
  }

  #use(member) {
    if (this.#inner === null) {
      // Freed by the user (a Definition detached by a restart holds `undefined`).
      throw new TypeError(`workload-map: Definition.${member} was used after free(); create a new Definition`);
    }
    if (this.#generation !== generation) {
      const error = new Error(`workload-map: this Definition was compiled before the engine was restarted (after it stopped on an input); create it again`);
      error.code = 'WORKLOAD_MAP_STALE_DEFINITION';
      throw error;
    }
    return this.#inner;
  }

  get diagnostics() {
    const inner = this.#use('diagnostics');
    return call(() => inner.diagnostics);
  }

  get valid() {
    const inner = this.#use('valid');
    return call(() => inner.valid);
  }

  get name() {
    const inner = this.#use('name');
    return call(() => inner.name);
  }

  get gvk() {
    const inner = this.#use('gvk');
    return call(() => inner.gvk);
  }

  get componentNames() {
    const inner = this.#use('componentNames');
    return call(() => inner.componentNames);
  }

  resolve(object, options) {
    const inner = this.#use('resolve()');
    return call(() => inner.resolve(object, options));
  }

  suspend(object) {
    const inner = this.#use('suspend()');
    return call(() => inner.suspend(object));
  }

  resume(object) {
    const inner = this.#use('resume()');
    return call(() => inner.resume(object));
  }

  editPodSpec(object, options) {
    const inner = this.#use('editPodSpec()');
    return call(() => inner.editPodSpec(object, options));
  }

  runCase(caseText, options) {
    const inner = this.#use('runCase()');
    return call(() => inner.runCase(caseText, options));
  }

  /** Frees the wasm memory now. Idempotent. */
  free() {
    const inner = this.#inner;
    this.#inner = null;
    if (!inner) return;
    if (this.#generation === generation) {
      call(() => inner.free());
    } else {
      // Its instance is gone: detach it from that glue's finalizer without calling into it.
      inner.__destroy_into_raw();
    }
  }
}
if (Symbol.dispose) Definition.prototype[Symbol.dispose] = Definition.prototype.free;

function resolve(definition, object, options) {
  return definition instanceof Definition ? definition.resolve(object, options) : call((g) => g.resolveWith(definition, object, options));
}

// The catalog is embedded in the module and never changes: list it once, hand out copies.
let catalogList = null;

function needString(call, name, value, example) {
  if (typeof value !== 'string') {
    throw new TypeError(`workload-map: ${call} needs ${name} as a string (${example}), got ${value === null ? 'null' : typeof value}`);
  }
}

const catalog = Object.freeze({
  list: () => structuredClone((catalogList ??= call((g) => g.catalogList()))),
  find: (apiVersion, kind) => {
    needString('catalog.find(apiVersion, kind)', 'apiVersion', apiVersion, "e.g. 'jobset.x-k8s.io/v1alpha2'");
    needString('catalog.find(apiVersion, kind)', 'kind', kind, "e.g. 'JobSet'");
    return call((g) => g.catalogFind(apiVersion, kind));
  },
  get: (name) => {
    needString('catalog.get(name)', 'name', name, "e.g. 'jobset-x-k8s-io-jobset-v1alpha2'");
    return call((g) => g.catalogGet(name));
  },
});

// Already initialised; kept so that code shared with browsers can always `await init()`.
function init() {
  return Promise.resolve();
}

module.exports = {
  Definition,
  validate: (text) => call((g) => g.validate(text)),
  resolve,
  parseObjects: (text) => call((g) => g.parseObjects(text)),
  draft: (object) => call((g) => g.draft(object)),
  parseQuantity: (text) => call((g) => g.parseQuantity(text)),
  formatCpu: (millis) => call((g) => g.formatCpu(millis)),
  formatMemory: (bytes) => call((g) => g.formatMemory(bytes)),
  catalog,
  version: '__WORKLOAD_MAP_VERSION__',
  init,
  // Internal, for the package's own tests: traps the engine on purpose (see index.d.ts).
  __trapForTests: () => call((g) => g.__trapForTests()),
  // Internal, for the package's own tests: definitions compiled by this instance (see index.d.ts).
  __compiledForTests: () => call((g) => g.__compiledForTests()),
};

// --- Edits: suspend, resume and pod spec merge patches, each `{ object, patch, diagnostics }`.
function suspend(definition, object) {
  return definition instanceof Definition ? definition.suspend(object) : call((g) => g.suspendWith(definition, object));
}

function resume(definition, object) {
  return definition instanceof Definition ? definition.resume(object) : call((g) => g.resumeWith(definition, object));
}

function editPodSpec(definition, object, options) {
  return definition instanceof Definition
    ? definition.editPodSpec(object, options)
    : call((g) => g.editPodSpecWith(definition, object, options));
}

Object.assign(module.exports, { suspend, resume, editPodSpec });

// --- Many workloads: a List of mixed types, each with its catalog definition (compiled once
// per type), the List's pods shared out among them.
function resolveAll(objects, options) {
  return call((g) => g.resolveAll(objects, options));
}

function readManifest(objects, options) {
  return call((g) => g.readManifest(objects, options));
}

Object.assign(module.exports, { resolveAll, readManifest });

// --- Test cases: one case of a definition test folder, `{ description, kind, passed, expectations, diagnostics }`.
function runCase(definition, caseText, options) {
  return definition instanceof Definition ? definition.runCase(caseText, options) : call((g) => g.runCaseWith(definition, caseText, options));
}

module.exports.runCase = runCase;

// --- A definition checked against API schemas (CRDs, Kubernetes OpenAPI v3 documents).
function checkDefinition(definitionText, schemas, options) {
  return call((g) => g.checkDefinition(definitionText, schemas, options));
}

module.exports.checkDefinition = checkDefinition;

// --- A starting definition drafted from API schemas.
function draftFromSchema(schemas, options) {
  return call((g) => g.draftFromSchema(schemas, options));
}

module.exports.draftFromSchema = draftFromSchema;

// --- The fields an API schema has at a path (an editor's completion and hover).
function schemaFields(schemas, options) {
  return call((g) => g.schemaFields(schemas, options));
}

module.exports.schemaFields = schemaFields;
