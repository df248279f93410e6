// pkg/workload_map.web.mjs, made by scripts/build.mjs from wasm-bindgen's web glue: each
// createGlue() is a fresh copy. Its functions are the Rust crate's wasm exports (src/wasm.rs),
// wrapped by js/web-core.mjs, whose declarations (js/index.d.ts) are the typed API.

/** A compiled definition as the glue hands it out (js/web-core.mjs wraps it). */
export interface GlueDefinition {
  readonly diagnostics: unknown;
  readonly valid: boolean;
  readonly name: string | null;
  readonly gvk: unknown;
  readonly componentNames: string[];
  resolve(object: unknown, options?: unknown): unknown;
  suspend(object: unknown): unknown;
  resume(object: unknown): unknown;
  editPodSpec(object: unknown, options?: unknown): unknown;
  runCase(caseText: unknown, options?: unknown): unknown;
  free(): void;
  __destroy_into_raw(): number;
}

export interface Glue {
  initSync(options: { module: WebAssembly.Module }): unknown;
  Definition: new (source: unknown) => GlueDefinition;
  /** Registers the CEL hooks of this instance (crates/wasm/src/cel_hooks.rs). */
  setCelHooks(hooks: object): void;
  /** Registers the hook that measures plain objects before they are serialised (crates/wasm/src/measure.rs). */
  setMeasureHook(hook: (value: unknown, max: number, cap: number) => number | (string | number)[]): void;
  needsCel(definition: unknown): boolean;
  [wasmExport: string]: unknown;
}

export function createGlue(): Glue;
