// The inline element worker (`workload-map/element/inline`, see load-inline.mjs): the .wasm is
// the base64 text put before this worker's source, given to init() as bytes. Imported first by
// worker-inline-entry.mjs, so it is set before the worker core starts loading.
import { decode } from './base64.mjs';

self.WORKLOAD_MAP_WASM_URL = decode(self.WORKLOAD_MAP_WASM_BASE64);
// The CEL module too (inlined as well), loaded only for a definition that holds CEL.
self.WORKLOAD_MAP_CEL_WASM_URL = decode(self.WORKLOAD_MAP_CEL_WASM_BASE64);
