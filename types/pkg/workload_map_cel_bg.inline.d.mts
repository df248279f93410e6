// pkg/workload_map_cel_bg.inline.mjs, made by scripts/build.mjs: the CEL module as base64.
export const celWasmBase64: string;
