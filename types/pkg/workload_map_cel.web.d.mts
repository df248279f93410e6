// pkg/workload_map_cel.web.mjs, made by scripts/build.mjs from wasm-bindgen's web glue of the CEL
// module (crates/cel-wasm): each createGlue() is a fresh copy, wrapped by js/web-core.mjs.

export interface CelGlue {
  initSync(options: { module: WebAssembly.Module }): unknown;
  /** The compile answer as JSON text (src/expr/cel_host.rs, `wire`). */
  compile(source: string): string;
  /** A handle for the document (JSON text), or -1. */
  input(json: string): number;
  /** The evaluation answer as JSON text. */
  evaluate(program: number, input: number): string;
  freeProgram(program: number): void;
  freeInput(input: number): void;
  heldForTests(): Uint32Array;
}

export function createGlue(): CelGlue;
