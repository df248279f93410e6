// Browsers and bundlers, the default entry: `await init()` once, then use the synchronous API.
//
// init() fetches the .wasm beside this file. The literal `new URL('./workload_map_bg.wasm',
// import.meta.url)` is what bundlers look for to emit the .wasm as an asset (Vite, webpack 5,
// Rollup with a URL plugin, Parcel); a bundler that does not (esbuild, or any IIFE/UMD output)
// leaves the file behind, and init() then fails with an error that names the ways out: the
// `workload-map/inline` entry, or giving init() the .wasm yourself. The API is in web-core.mjs.
import { load, loadCelModule } from './web-core.mjs';

// The API (everything but init and the loaders); tests/node/package.test.mjs checks that every
// entry exports the same names.
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
} from './web-core.mjs';

const DOCS = 'https://github.com/workload-map/workload-map#bundlers';

/**
 * Loads the WebAssembly module. Idempotent: later calls return the first call's promise.
 * `input` may be a URL (or string), a Request, a Response (or a promise of one), bytes, or a
 * compiled WebAssembly.Module; by default the `.wasm` next to this file is fetched.
 */
export function init(input) {
  return load(input, () => new URL('./workload_map_bg.wasm', import.meta.url), explain);
}

/**
 * Loads the CEL module (workload_map_cel_bg.wasm), which a definition holding CEL needs before
 * it compiles (`needsCel(text)` tells); the same forms of `input` as init(), by default the file
 * next to this one. Idempotent. Definitions without CEL never need it, and it is never fetched
 * for them.
 */
export function loadCel(input) {
  return loadCelModule(input, () => new URL('./workload_map_cel_bg.wasm', import.meta.url), explainCel);
}

function explainCel(error) {
  return new Error(
    `workload-map: could not load its CEL module from the default location (${error.message}). ` +
      'Serve workload_map_cel_bg.wasm next to workload_map_bg.wasm, or pass it: loadCel(url | Response | bytes | WebAssembly.Module), ' +
      `or import from "workload-map/inline". See ${DOCS}`,
    { cause: error },
  );
}

/** A failure to load the .wasm from its default place, with what to do about it. */
function explain(error) {
  return new Error(
    `workload-map: could not load its WebAssembly module from the default location (${error.message}). ` +
      'A bundler that does not emit `new URL("./workload_map_bg.wasm", import.meta.url)` as an asset ' +
      '(esbuild, or IIFE/UMD output) leaves the .wasm behind. Import from "workload-map/inline" instead ' +
      '(the module inlined, no file to serve), or serve the .wasm yourself and pass it: ' +
      `init(url | Response | bytes | WebAssembly.Module). See ${DOCS}`,
    { cause: error },
  );
}
