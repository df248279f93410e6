// The element's evaluation worker: the worker core (`js/render/worker.js`), told that the
// engine's .wasm is the package's, next to this file. This module is imported first, so the
// location is set before the worker starts loading.
self.WORKLOAD_MAP_WASM_URL = new URL('./workload_map_bg.wasm', import.meta.url);
// The CEL module, fetched only for a definition that holds CEL.
self.WORKLOAD_MAP_CEL_WASM_URL = new URL('./workload_map_cel_bg.wasm', import.meta.url);
