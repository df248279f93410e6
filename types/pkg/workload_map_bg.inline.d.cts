// pkg/workload_map_bg.inline.cjs, made by scripts/build.mjs: the .wasm as base64, for the Node
// engine inside a server bundle.
declare const wasmBase64: string;
export = wasmBase64;
