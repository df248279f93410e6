// The element's evaluation worker: the worker core (`js/render/worker.js`), told that the
// engine's .wasm is the package's, next to this file. This module is imported first, so the
// location is set before the worker starts loading.
self.WORKLOAD_MAP_WASM_URL = new URL('./workload_map_bg.wasm', import.meta.url);
