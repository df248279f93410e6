// pkg/workload_map_bg.inline.mjs, made by scripts/build.mjs: the .wasm as base64.
export const wasmBase64: string;
