// Where `workload-map/element` finds its worker and engine: files next to the bundle
// (pkg/element-worker.mjs, web.mjs and the .wasm), through `new URL(..., import.meta.url)`, the
// asset route Vite, webpack 5 and Parcel follow. `workload-map/element/inline` is built with
// load-inline.mjs in this module's place (scripts/element.mjs).

/** The element worker, loaded next to this file. */
export function createWorker() {
  return new Worker(new URL('./element-worker.mjs', import.meta.url), { type: 'module' });
}

let loading;
/** The CEL module next to this file, for a `sync` element whose definition holds CEL. */
export function loadCel(api) {
  return api.loadCel(new URL('./workload_map_cel_bg.wasm', import.meta.url));
}

/** The package's web entry, loaded (and its .wasm compiled) once per page, for `sync` elements. */
export function loadApi() {
  loading ??= import('../web.mjs').then(async (api) => {
    await api.init(new URL('./workload_map_bg.wasm', import.meta.url));
    return api;
  });
  return loading;
}
