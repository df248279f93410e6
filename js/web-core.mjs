// The engine: the one wrapper around the wasm module, for every entry. The browser entries
// import it as it is: web.mjs (the default: init() fetches the .wasm beside it, which bundlers
// emit as an asset) and inline.mjs (the .wasm inlined as base64, ready at import). Node's
// entries use it through pkg/workload_map.cjs, which the build generates from node-engine.mjs
// and this file (CommonJS, so that `require` and `import` share one instance). This file never
// refers to where the .wasm is.
//
// The .wasm is compiled once into a WebAssembly.Module; each engine instance is made from it
// synchronously by a fresh copy of the glue (`createGlue()`: the build wraps wasm-bindgen's web
// glue in a factory, because the glue keeps its instance in module-level variables and
// initialises once). A trap (a `WebAssembly.RuntimeError`, or the stack running out inside the
// engine) leaves an instance in an unknown state, so every call goes through `call()`: on a trap
// it makes a new instance from the same module and throws one clear error for that call. A
// `Definition` remembers the generation it was compiled in, and a `Manifest` the one it was read in.
//
// CEL is a second module (workload_map_cel_bg.wasm, glue workload_map_cel.web.mjs), loaded the
// first time a definition holds a CEL expression: the main module calls the hooks below
// (`setCelHooks`), which pass texts to and from it unchanged. Node and the inline entry give a
// synchronous source (`setCelSource`), so the module loads inside the first compile that needs
// it; the browser entry loads it with `loadCel()` (asynchronous), before such a definition
// compiles: `needsCel(text)` tells, and a definition compiled without it has
// `expr/cel-unavailable` on each CEL expression.
import { createGlue as createCelGlue } from './workload_map_cel.web.mjs';
import { createGlue } from './workload_map.web.mjs';

let loading = null;
let compiled = null;
let glue = null;
let generation = 0;

/**
 * Loads the wasm module once; later calls return the first call's promise. `input` may be a
 * URL (or string), a Request, a Response (or a promise of one), bytes, or a compiled
 * WebAssembly.Module; `fallback()` gives the default location (web.mjs: the .wasm beside it)
 * and `explain(error)` turns a failure to load from there into an error that says what to do.
 */
export function load(input, fallback, explain) {
  if (!loading) {
    const source = input ?? fallback;
    loading = (async () => compile(typeof source === 'function' ? source() : source))().then(
      (module) => {
        if (!compiled) {
          compiled = module;
          instantiate();
        }
      },
      (error) => {
        loading = null;
        throw input == null && explain ? explain(error) : error;
      },
    );
  }
  return loading;
}

/** Makes the engine from a compiled module or bytes, synchronously (the inline entry). */
export function loadSync(source) {
  if (!compiled) {
    compiled = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
    instantiate();
    loading = Promise.resolve();
  }
}

async function compile(input) {
  let source = await input;
  if (typeof source === 'string' || source instanceof URL || (typeof Request === 'function' && source instanceof Request)) {
    source = await fetch(source);
  }
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response === 'function' && source instanceof Response) {
    if (!source.ok) throw new Error(`workload-map: failed to fetch the .wasm: ${source.status} ${source.statusText} ${source.url}`.trimEnd());
    const streaming = typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\b/.test(source.headers.get('content-type') ?? '');
    return streaming ? WebAssembly.compileStreaming(source) : WebAssembly.compile(await source.arrayBuffer());
  }
  return WebAssembly.compile(source);
}

function instantiate() {
  detachAll();
  // The CEL instance's handles belong to the instance being replaced: start it afresh too.
  celGlue = null;
  const fresh = createGlue();
  fresh.initSync({ module: compiled });
  fresh.setCelHooks(celHooks);
  fresh.setMeasureHook(measure);
  glue = fresh;
  generation += 1;
}

// --- Plain objects, measured before the engine serialises them.

/**
 * What the main module calls before it passes a plain object through `JSON.stringify`
 * (crates/wasm/src/measure.rs): stringify recurses, and a few thousand levels run it out of
 * stack, so the engine measures each object here first, without recursion, and serialises only
 * one that fits. Returns how many values stringify would write (counting stops past `cap`), or
 * the keys and indices that lead to the first value opening a level past `max`. A root is
 * level 1. Values are taken as stringify takes them (`toJSON`, keys whose value it skips).
 */
function measure(value, max, cap) {
  const count = countValues(value, max, cap);
  // Counted in any order: when a value is too deep, the walk in stringify's order says which
  // comes first, and where it is.
  return count === TOO_DEEP ? firstTooDeep(value, max, cap) : count;
}

/** What `countValues` answers when some value opens a level past `max`. */
const TOO_DEEP = -1;

/** A value as JSON.stringify writes it in place of `value` (its `toJSON`). */
function jsonValue(value, key) {
  return value !== null && typeof value === 'object' && typeof value.toJSON === 'function' ? value.toJSON(key) : value;
}

/** Values JSON.stringify leaves out of an object (and writes as `null` in an array). */
function skipped(value) {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * How many values `value` holds as JSON.stringify writes it (counting stops past `cap`), or
 * TOO_DEEP. The fast walk: containers in any order, the keys of a plain object by `for...in`
 * (its own keys, unless something added enumerable keys to Object.prototype).
 */
function countValues(value, max, cap) {
  const root = jsonValue(value, '');
  if (root === null || typeof root !== 'object') return 1;
  let inherited = false;
  for (const key in {}) inherited = key !== undefined;
  const open = [root];
  const levels = [1];
  let count = 1;
  while (open.length > 0) {
    const container = open.pop();
    const level = levels.pop();
    if (Array.isArray(container)) {
      count += container.length;
      for (let i = 0; i < container.length; i++) {
        let child = container[i];
        if (child === null || typeof child !== 'object') continue;
        if (typeof child.toJSON === 'function') {
          child = child.toJSON(String(i));
          if (child === null || typeof child !== 'object') continue;
        }
        if (level >= max) return TOO_DEEP;
        open.push(child);
        levels.push(level + 1);
      }
    } else {
      const prototype = Object.getPrototypeOf(container);
      if (prototype !== null && (inherited || prototype !== Object.prototype)) {
        // `for...in` would see inherited keys too: walk a copy of its own keys instead.
        open.push(Object.assign(Object.create(null), container));
        levels.push(level);
        continue;
      }
      for (const key in container) {
        let child = container[key];
        if (child !== null && typeof child === 'object' && typeof child.toJSON === 'function') child = child.toJSON(key);
        if (skipped(child)) continue;
        count += 1;
        if (child === null || typeof child !== 'object') continue;
        if (level >= max) return TOO_DEEP;
        open.push(child);
        levels.push(level + 1);
      }
    }
    if (count > cap) return count;
  }
  return count;
}

/**
 * The walk in JSON.stringify's order (own enumerable keys, `toJSON` applied): the steps to the
 * first value opening a level past `max`, else the count of values (more than `cap`: it
 * stopped there). Slower than `countValues` (a key list per object); only run to say where.
 */
function firstTooDeep(value, max, cap) {
  const root = jsonValue(value, '');
  if (root === null || typeof root !== 'object') return 1;
  // One frame per open level: the container, its keys (null for an array) and the next position.
  const frames = [root, Array.isArray(root) ? null : Object.keys(root), 0];
  const path = [];
  let count = 1;
  while (frames.length > 0) {
    const n = frames.length;
    const container = frames[n - 3];
    const keys = frames[n - 2];
    const i = frames[n - 1];
    if (i >= (keys === null ? container.length : keys.length)) {
      frames.length = n - 3;
      path.pop();
      continue;
    }
    frames[n - 1] = i + 1;
    const key = keys === null ? i : keys[i];
    const child = jsonValue(container[key], String(key));
    if (keys !== null && skipped(child)) continue;
    count += 1;
    if (count > cap) return count;
    if (child === null || typeof child !== 'object') continue;
    if (n / 3 >= max) return [...path, key];
    path.push(key);
    frames.push(child, Array.isArray(child) ? null : Object.keys(child), 0);
  }
  return count;
}

// --- The CEL module.
let celCompiled = null;
let celGlue = null;
let celSource = null;
let celLoading = null;

/** Node and the inline entry: where to read the CEL module synchronously, on first need. */
export function setCelSource(source) {
  celSource = source;
}

/** The CEL instance, made on first need; null when the module is not loaded (browsers). */
function celEngine() {
  if (!celGlue) {
    if (!celCompiled && celSource) {
      const source = celSource();
      celCompiled = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
      celLoading = Promise.resolve();
    }
    if (!celCompiled) return null;
    const fresh = createCelGlue();
    fresh.initSync({ module: celCompiled });
    celGlue = fresh;
  }
  return celGlue;
}

/**
 * Calls the CEL instance. A trap there propagates through the main module (which `call()`
 * then restarts, and this instance with it); the CEL instance is dropped at once all the same.
 */
function celCall(run) {
  const cel = celGlue;
  try {
    return run(cel);
  } catch (error) {
    if (celGlue === cel) celGlue = null;
    throw error;
  }
}

/** What the main module calls as its CEL engine (crates/wasm/src/cel_hooks.rs). */
const celHooks = {
  compile: (source) => (celEngine() ? celCall((cel) => cel.compile(source)) : undefined),
  input: (json) => (celEngine() ? celCall((cel) => cel.input(json)) : -1),
  eval: (program, input) => celCall((cel) => cel.evaluate(program, input)),
  freeProgram: (program) => {
    if (celGlue) celCall((cel) => cel.freeProgram(program));
  },
  freeInput: (input) => {
    if (celGlue) celCall((cel) => cel.freeInput(input));
  },
};

/**
 * Loads the CEL module once (the browser entry's `loadCel()`); later calls return the first
 * call's promise. `input` takes the forms `load()` does; `fallback()` gives the default location.
 */
export function loadCelModule(input, fallback, explain) {
  if (!celLoading) {
    const source = input ?? fallback;
    celLoading = (async () => compile(typeof source === 'function' ? source() : source))().then(
      (module) => {
        celCompiled ??= module;
      },
      (error) => {
        celLoading = null;
        throw input == null && explain ? explain(error) : error;
      },
    );
  }
  return celLoading;
}

/** Node and the inline entry: loads the CEL module now, synchronously. */
export function loadCelSync() {
  celEngine();
  return Promise.resolve();
}

/** Whether compiling this definition (text or plain object) needs the CEL module. */
export function needsCel(definition) {
  return call('needsCel()', (g) => g.needsCel(definition));
}

/** Not API, for the package's own tests: whether the CEL module is loaded, and its held handles. */
export function celForTests() {
  return { loaded: celCompiled !== null, held: celGlue ? Array.from(celGlue.heldForTests()) : null };
}

function isTrap(error) {
  // Stack exhaustion is a RangeError in V8 and JavaScriptCore, an InternalError in Firefox.
  return (
    error instanceof WebAssembly.RuntimeError ||
    (error instanceof RangeError && /call stack/i.test(error.message)) ||
    (error?.name === 'InternalError' && /recursion/i.test(error.message))
  );
}

function call(what, run) {
  if (!glue) {
    throw new Error(
      `workload-map: ${what} was called before the WebAssembly module was loaded. ` +
        'Call `await init()` once first (in Node the package is ready at import).',
    );
  }
  try {
    return run(glue);
  } catch (error) {
    if (!isTrap(error)) throw error;
    instantiate();
    const stopped = /** @type {Error & {code?: string}} */ (
      new Error(`workload-map: the engine stopped on this input: ${error.message}; it has been restarted`, { cause: error })
    );
    stopped.code = 'WORKLOAD_MAP_ENGINE_RESTARTED';
    throw stopped;
  }
}

/** The wasm handle of a live Definition or Manifest (`member` names the use, for errors). */
let innerOf;
/** Frees a handle's wasm memory now (`what`: `Definition.free()`, ...). Idempotent. */
let freeHandle;
/** Detaches every live handle from the instance being replaced. */
let detachAll;

/**
 * What a Definition and a Manifest share: a wasm handle tied to the engine instance that made
 * it. Every live handle is held weakly, so that a restart detaches it from the instance being
 * replaced: the old glue's finalizer would otherwise call into the stopped instance when one is
 * collected (an exception in a finalizer ends a Node process), and a stale handle would keep the
 * old memory alive. A handle of an earlier instance is stale; one freed by the user is refused.
 */
class Handle {
  #inner;
  #generation;
  /** What it is and how it was made, for its errors. */
  #kind;

  /** WeakRefs to the handles of the current instance, pruned as the set doubles. */
  static #live = new Set();
  static #pruneAt = 64;

  /** @param {{name: string, made: string, again: string, code: string}} kind */
  constructor(inner, kind) {
    this.#inner = inner;
    this.#generation = generation;
    this.#kind = kind;
    Handle.#live.add(new WeakRef(this));
    if (Handle.#live.size >= Handle.#pruneAt) {
      for (const ref of Handle.#live) if (ref.deref() === undefined) Handle.#live.delete(ref);
      Handle.#pruneAt = Math.max(64, Handle.#live.size * 2);
    }
  }

  static {
    detachAll = () => {
      for (const ref of Handle.#live) {
        const handle = ref.deref();
        if (handle && handle.#inner) {
          handle.#inner.__destroy_into_raw();
          handle.#inner = undefined;
        }
      }
      Handle.#live = new Set();
      Handle.#pruneAt = 64;
    };
    innerOf = (handle, member) => {
      const kind = handle.#kind;
      if (handle.#inner === null) {
        // Freed by the user (a handle detached by a restart holds `undefined`).
        const what = member ? `${kind.name}.${member}` : `a ${kind.name}`;
        throw new TypeError(`workload-map: ${what} was used after free(); create a new ${kind.name}`);
      }
      if (handle.#generation !== generation) {
        const error = /** @type {Error & {code?: string}} */ (
          new Error(`workload-map: this ${kind.name} was ${kind.made} before the engine was restarted (after it stopped on an input); ${kind.again}`)
        );
        error.code = kind.code;
        throw error;
      }
      return handle.#inner;
    };
    freeHandle = (handle, what) => {
      const inner = handle.#inner;
      handle.#inner = null;
      if (!inner) return;
      if (handle.#generation === generation) {
        call(what, () => inner.free());
      } else {
        // Its instance is gone: detach it from that glue's finalizer without calling into it.
        inner.__destroy_into_raw();
      }
    };
  }
}

const DEFINITION = { name: 'Definition', made: 'compiled', again: 'create it again', code: 'WORKLOAD_MAP_STALE_DEFINITION' };

/** A compiled definition, tied to the engine instance that compiled it. */
export class Definition extends Handle {
  constructor(source) {
    super(
      call('new Definition()', (g) => new g.Definition(source)),
      DEFINITION,
    );
  }

  get diagnostics() {
    const inner = innerOf(this, 'diagnostics');
    return call('Definition.diagnostics', () => inner.diagnostics);
  }

  get valid() {
    const inner = innerOf(this, 'valid');
    return call('Definition.valid', () => inner.valid);
  }

  get name() {
    const inner = innerOf(this, 'name');
    return call('Definition.name', () => inner.name);
  }

  get gvk() {
    const inner = innerOf(this, 'gvk');
    return call('Definition.gvk', () => inner.gvk);
  }

  get componentNames() {
    const inner = innerOf(this, 'componentNames');
    return call('Definition.componentNames', () => inner.componentNames);
  }

  resolve(object, options) {
    const inner = innerOf(this, 'resolve()');
    if (object instanceof Manifest) {
      // Resolved from the reading the manifest keeps: its text is not read again.
      const manifest = innerOf(object);
      return call('Definition.resolve()', () => inner.resolveManifest(manifest, options));
    }
    return call('Definition.resolve()', () => inner.resolve(object, options));
  }

  suspend(object) {
    const inner = innerOf(this, 'suspend()');
    notManifest('suspend()', object);
    return call('Definition.suspend()', () => inner.suspend(object));
  }

  resume(object) {
    const inner = innerOf(this, 'resume()');
    notManifest('resume()', object);
    return call('Definition.resume()', () => inner.resume(object));
  }

  editPodSpec(object, options) {
    const inner = innerOf(this, 'editPodSpec()');
    notManifest('editPodSpec()', object);
    return call('Definition.editPodSpec()', () => inner.editPodSpec(object, options));
  }

  runCase(caseText, options) {
    const inner = innerOf(this, 'runCase()');
    return call('Definition.runCase()', () => inner.runCase(caseText, options));
  }

  /** Frees the wasm memory now. Idempotent. */
  free() {
    freeHandle(this, 'Definition.free()');
  }
}
if (Symbol.dispose) Definition.prototype[Symbol.dispose] = Definition.prototype.free;

/**
 * A Manifest where only text or objects are taken is a TypeError, never read as an empty
 * object: only `Definition.resolve` takes one (`manifest.reading`, `manifest.object(i)` give
 * the rest).
 */
function notManifest(what, value) {
  if (value instanceof Manifest) {
    throw new TypeError(
      `workload-map: ${what} takes text or objects, not a Manifest (only Definition.resolve takes one; manifest.reading and manifest.object(i) give its reading and objects)`,
    );
  }
  return value;
}

const MANIFEST = { name: 'Manifest', made: 'read', again: 'read it again', code: 'WORKLOAD_MAP_STALE_MANIFEST' };

/**
 * A manifest text read once (and the related objects with it), kept in the engine: its
 * reading, diagnostics and objects one at a time, and `Definition.resolve(manifest)` without
 * reading the text again. Tied to the engine instance that read it, as a Definition is to the
 * one that compiled it.
 */
export class Manifest extends Handle {
  constructor(text, options) {
    super(
      call('new Manifest()', (g) => new g.Manifest(text, options)),
      MANIFEST,
    );
  }

  get diagnostics() {
    const inner = innerOf(this, 'diagnostics');
    return call('Manifest.diagnostics', () => inner.diagnostics);
  }

  get relatedDiagnostics() {
    const inner = innerOf(this, 'relatedDiagnostics');
    return call('Manifest.relatedDiagnostics', () => inner.relatedDiagnostics);
  }

  get count() {
    const inner = innerOf(this, 'count');
    return call('Manifest.count', () => inner.count);
  }

  get relatedCount() {
    const inner = innerOf(this, 'relatedCount');
    return call('Manifest.relatedCount', () => inner.relatedCount);
  }

  get reading() {
    const inner = innerOf(this, 'reading');
    return call('Manifest.reading', () => inner.reading);
  }

  object(index) {
    const inner = innerOf(this, 'object()');
    return call('Manifest.object()', () => inner.object(index));
  }

  /** Frees the wasm memory now. Idempotent. */
  free() {
    freeHandle(this, 'Manifest.free()');
  }
}
if (Symbol.dispose) Manifest.prototype[Symbol.dispose] = Manifest.prototype.free;

export function validate(text) {
  return call('validate()', (g) => g.validate(text));
}

export function resolve(definition, object, options) {
  if (definition instanceof Definition) return definition.resolve(object, options);
  if (object instanceof Manifest) {
    const compiled = new Definition(definition);
    try {
      return compiled.resolve(object, options);
    } finally {
      compiled.free();
    }
  }
  return call('resolve()', (g) => g.resolveWith(definition, object, options));
}

export function parseObjects(text) {
  notManifest('parseObjects()', text);
  return call('parseObjects()', (g) => g.parseObjects(text));
}

export function draft(object) {
  notManifest('draft()', object);
  return call('draft()', (g) => g.draft(object));
}

export function parseQuantity(text) {
  return call('parseQuantity()', (g) => g.parseQuantity(text));
}

export function formatCpu(millis) {
  return call('formatCpu()', (g) => g.formatCpu(millis));
}

export function formatMemory(bytes) {
  return call('formatMemory()', (g) => g.formatMemory(bytes));
}

// The catalog is embedded in the module and never changes: list it once, hand out copies.
let catalogList = null;

function needString(what, name, value, example) {
  if (typeof value !== 'string') {
    throw new TypeError(`workload-map: ${what} needs ${name} as a string (${example}), got ${value === null ? 'null' : typeof value}`);
  }
}

export const catalog = Object.freeze({
  list: () => structuredClone((catalogList ??= call('catalog.list()', (g) => g.catalogList()))),
  find: (apiVersion, kind) => {
    needString('catalog.find(apiVersion, kind)', 'apiVersion', apiVersion, "e.g. 'jobset.x-k8s.io/v1alpha2'");
    needString('catalog.find(apiVersion, kind)', 'kind', kind, "e.g. 'JobSet'");
    return call('catalog.find()', (g) => g.catalogFind(apiVersion, kind));
  },
  get: (name) => {
    needString('catalog.get(name)', 'name', name, "e.g. 'jobset-x-k8s-io-jobset-v1alpha2'");
    return call('catalog.get()', (g) => g.catalogGet(name));
  },
});

export const version = '__WORKLOAD_MAP_VERSION__';

/**
 * Not API, for the package's own tests: traps the engine on purpose. Reached only through the
 * internal entries (test-hooks.mjs, test-hooks.cjs), which `exports` in package.json leaves out.
 */
export function trapForTests() {
  return call('__trapForTests()', (g) => g.__trapForTests());
}

/** Not API, for the package's own tests: how many definitions this instance has compiled. */
export function compiledForTests() {
  return call('__compiledForTests()', (g) => g.__compiledForTests());
}

// --- Edits: suspend, resume and pod spec merge patches, each `{ object, patch, diagnostics }`.
export function suspend(definition, object) {
  notManifest('suspend()', object);
  return definition instanceof Definition ? definition.suspend(object) : call('suspend()', (g) => g.suspendWith(definition, object));
}

export function resume(definition, object) {
  notManifest('resume()', object);
  return definition instanceof Definition ? definition.resume(object) : call('resume()', (g) => g.resumeWith(definition, object));
}

export function editPodSpec(definition, object, options) {
  notManifest('editPodSpec()', object);
  return definition instanceof Definition
    ? definition.editPodSpec(object, options)
    : call('editPodSpec()', (g) => g.editPodSpecWith(definition, object, options));
}

// --- Many workloads: a List of mixed types, each with its catalog definition (compiled once
// per type), the List's pods shared out among them.
export function resolveAll(objects, options) {
  notManifest('resolveAll()', objects);
  if (options !== null && typeof options === 'object') notManifest('resolveAll() options.related', options.related);
  return call('resolveAll()', (g) => {
    const shape = refreshShape(objects, options);
    const refreshed = shape && refreshAll(g, shape);
    if (refreshed) return refreshed;
    lastAll = null;
    const result = g.resolveAll(objects, options);
    const token = result.refresh;
    delete result.refresh;
    if (shape && token !== undefined) lastAll = keepAll(shape, token, result);
    return result;
  });
}

// A refresh: when resolveAll is given an array of objects read with the catalog, the engine
// keeps them (and their reading and views), and this keeps each object's uid and version (its
// `resourceVersion`, or its JSON text when it has no uid or version). A later call with the
// same number of objects, the same uid at each position, and at most a quarter of them
// changed sends only the changed ones (`resolveAllRefresh`): the engine resolves again just
// the workloads they belong to, or answers null when a change alters the reading (an object
// with a new owner, name or kind), and the call is then resolved in full. The other workloads'
// entries are the last result's own objects, so a page can skip redrawing them by identity.

/** @type {null | {generation: number, token: number, n: number, m: number | null, uids: (string | undefined)[], versions: string[], result: any}} */
let lastAll = null;

/** The objects (and related objects) of a call that may refresh the last one, else null. */
function refreshShape(objects, options) {
  if (!Array.isArray(objects) || options === null || typeof options !== 'object' || options.catalog !== true) return null;
  if (options.definitions !== undefined && options.definitions !== null) return null;
  const given = [options.related, options.pods].filter((r) => r !== undefined && r !== null);
  if (given.length > 1 || (given.length === 1 && !Array.isArray(given[0]))) return null;
  return { objects, related: given.length === 1 ? given[0] : null };
}

/**
 * The identity and version of an object: uid and resourceVersion, else its content (null when
 * it cannot be serialised, e.g. nested too deep for JSON.stringify: it is then no refresh, and
 * resolving it in full, which measures every object first, says why). The content is only
 * compared here, never passed to the engine, so a failed stringify costs nothing but the refresh.
 */
function versionOf(object) {
  const meta = object.metadata;
  const uid = meta !== null && typeof meta === 'object' ? meta.uid : undefined;
  const version = meta !== null && typeof meta === 'object' ? meta.resourceVersion : undefined;
  if (typeof uid === 'string' && uid !== '' && typeof version === 'string' && version !== '') return [uid, version];
  try {
    return [undefined, JSON.stringify(object)];
  } catch {
    return [undefined, null];
  }
}

function objectAt(shape, n, i) {
  return i < n ? shape.objects[i] : shape.related[i - n];
}

function keepAll(shape, token, result) {
  const n = shape.objects.length;
  const m = shape.related === null ? null : shape.related.length;
  const total = n + (m ?? 0);
  const uids = new Array(total);
  const versions = new Array(total);
  for (let i = 0; i < total; i++) {
    [uids[i], versions[i]] = versionOf(objectAt(shape, n, i));
  }
  return { generation, token, n, m, uids, versions, result };
}

function refreshAll(g, shape) {
  const last = lastAll;
  if (last === null || last.generation !== generation) return null;
  const n = shape.objects.length;
  const m = shape.related === null ? null : shape.related.length;
  if (n !== last.n || m !== last.m) return null;
  const total = n + (m ?? 0);
  const indices = [];
  const changed = [];
  const versions = [];
  for (let i = 0; i < total; i++) {
    const object = objectAt(shape, n, i);
    if (object === null || typeof object !== 'object' || Array.isArray(object)) return null;
    const [uid, version] = versionOf(object);
    if (uid !== last.uids[i] || version === null) return null;
    if (version !== last.versions[i]) {
      indices.push(i);
      changed.push(object);
      versions.push(version);
      if (changed.length * 4 > total) return null;
    }
  }
  lastAll = null;
  const answer = g.resolveAllRefresh(last.token, Uint32Array.from(indices), changed);
  if (answer === null) return null;
  const items = last.result.items.slice();
  for (const [position, item] of answer.items) items[position] = item;
  const result = { items, unowned: last.result.unowned.slice(), diagnostics: [] };
  indices.forEach((i, k) => (last.versions[i] = versions[k]));
  lastAll = { ...last, token: answer.refresh, result };
  return result;
}

// --- One reading of a manifest: its workloads, what belongs to each, and what to none.
export function readManifest(objects, options) {
  notManifest('readManifest()', objects);
  if (options !== null && typeof options === 'object') notManifest('readManifest() options.related', options.related);
  return call('readManifest()', (g) => g.readManifest(objects, options));
}

// --- Test cases: one case of a definition test folder, `{ description, kind, passed, expectations, diagnostics }`.
export function runCase(definition, caseText, options) {
  return definition instanceof Definition ? definition.runCase(caseText, options) : call('runCase()', (g) => g.runCaseWith(definition, caseText, options));
}

// --- A definition checked against API schemas (CRDs, Kubernetes OpenAPI v3 documents).
export function checkDefinition(definitionText, schemas, options) {
  return call('checkDefinition()', (g) => g.checkDefinition(definitionText, schemas, options));
}

// --- A starting definition drafted from API schemas.
export function draftFromSchema(schemas, options) {
  return call('draftFromSchema()', (g) => g.draftFromSchema(schemas, options));
}

// --- The fields an API schema has at a path (an editor's completion and hover).
export function schemaFields(schemas, options) {
  return call('schemaFields()', (g) => g.schemaFields(schemas, options));
}
