// Globals the JavaScript uses that the libraries of TypeScript 5.9 do not declare yet, or that
// the package's workers set for themselves.

interface Uint8ArrayConstructor {
  /** ES2026 (Uint8Array from base64); the code falls back to atob where it is missing. */
  fromBase64?(text: string): Uint8Array;
}

// eslint-disable-next-line no-var
declare var WORKLOAD_MAP_WASM_URL: URL | string | Uint8Array | undefined;
// eslint-disable-next-line no-var
declare var WORKLOAD_MAP_CEL_WASM_URL: URL | string | Uint8Array | undefined;
// eslint-disable-next-line no-var
declare var WORKLOAD_MAP_WASM_BASE64: string | undefined;
// eslint-disable-next-line no-var
declare var WORKLOAD_MAP_CEL_WASM_BASE64: string | undefined;
