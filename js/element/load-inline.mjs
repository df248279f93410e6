// Where `workload-map/element/inline` finds its worker and engine: in itself, for bundlers that
// do not follow `new URL(..., import.meta.url)` (esbuild, Rollup without a plugin) and pages with
// no files to serve. The build puts this module in load.mjs's place and gives the worker's whole
// source as text (`element-worker-source`). The .wasm is the package's base64 copy, imported once:
// the worker gets it in the few bytes put before its source, the page (`sync`) decodes it. A page whose Content-Security-Policy refuses `blob:` workers can use `sync` instead.
import workerSource from 'element-worker-source';

import { wasmBase64 } from '../workload_map_bg.inline.mjs';
import { celWasmBase64 } from '../workload_map_cel_bg.inline.mjs';
import { decode } from './base64.mjs';

let workerUrl;
/** The element worker, from its source in this bundle (one blob: URL per page). */
export function createWorker() {
  workerUrl ??= URL.createObjectURL(
    new Blob(
      [`self.WORKLOAD_MAP_WASM_BASE64 = ${JSON.stringify(wasmBase64)};\nself.WORKLOAD_MAP_CEL_WASM_BASE64 = ${JSON.stringify(celWasmBase64)};\n`, workerSource],
      { type: 'text/javascript' },
    ),
  );
  return new Worker(workerUrl, { type: 'module' });
}

/** The inlined CEL module, for a `sync` element whose definition holds CEL. */
export function loadCel(api) {
  return api.loadCel(decode(celWasmBase64));
}

let loading;
/** The package's web entry, its module compiled from the inlined bytes once per page. */
export function loadApi() {
  loading ??= import('../web.mjs').then(async (api) => {
    await api.init(decode(wasmBase64));
    return api;
  });
  return loading;
}
