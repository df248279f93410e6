// Source of pkg/workload_map.cjs, the engine of the Node entries: scripts/build.mjs bundles this
// file with web-core.mjs (the one engine) and the web glue into CommonJS, so that node.cjs
// (`require`), node.mjs (`import`, through node.cjs) and test-hooks.cjs share one instance. The
// module is compiled synchronously here, so the API is ready as soon as the entry is loaded.
//
// Every require below is a literal that a server bundler follows (esbuild --platform=node,
// webpack --target node, Next.js): the .wasm is read from beside this file when it is there (the
// package as installed), else from `workload_map_bg.inline.mjs` (the same bytes as base64, the
// inline entry's), which a bundler has bundled along, since nothing copies the .wasm next to a
// bundle. (Unbundled, that require of an ES module needs Node 20.19 or 22.12; it is reached only
// when the installed package has lost its .wasm.) `fs` comes from
// process.getBuiltinModule, not require: esbuild's ES module output cannot require a built-in
// from bundled CommonJS ("Dynamic require of "node:fs" is not supported").
import { loadCelSync, loadSync, setCelSource } from './web-core.mjs';

export {
  Definition,
  validate,
  resolve,
  parseObjects,
  draft,
  parseQuantity,
  formatCpu,
  formatMemory,
  catalog,
  version,
  suspend,
  resume,
  editPodSpec,
  resolveAll,
  readManifest,
  Manifest,
  runCase,
  checkDefinition,
  draftFromSchema,
  schemaFields,
  needsCel,
  trapForTests,
  compiledForTests,
  celForTests,
} from './web-core.mjs';

/** The .wasm beside this file, or (in a bundle, where it is not) the inlined copy. */
function wasmBytes() {
  return fileBytes('workload_map_bg.wasm') ?? Buffer.from(require('./workload_map_bg.inline.mjs').wasmBase64, 'base64');
}

/** The CEL module, read the first time a definition holds CEL: beside this file, or inlined. */
function celWasmBytes() {
  return fileBytes('workload_map_cel_bg.wasm') ?? Buffer.from(require('./workload_map_cel_bg.inline.mjs').celWasmBase64, 'base64');
}

/** A file beside this one, or undefined when it is not there. */
function fileBytes(name) {
  // __dirname: this file is only ever built as CommonJS; in a bundle it is the bundle's folder.
  const fs = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:fs') : undefined;
  if (fs && typeof __dirname === 'string') {
    try {
      return fs.readFileSync(`${__dirname}/${name}`);
    } catch (error) {
      if (error?.code !== 'ENOENT') throw error;
    }
  }
  return undefined;
}

loadSync(wasmBytes());
setCelSource(celWasmBytes);

/** Loads the CEL module now (Node loads it by itself, synchronously, on first need). */
export function loadCel() {
  return loadCelSync();
}

/** Already loaded; kept so that code shared with browsers can always `await init()`. */
export function init() {
  return Promise.resolve();
}
