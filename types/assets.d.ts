// What the JavaScript imports that is not JavaScript, for `tsc --checkJs` (tsconfig.json): the
// files the bundlers load as text, the modules the builds make up, and the package's internal
// test hooks as the playground's build maps them.

/** CSS, bundled as text (esbuild's text loader). */
declare module '*.css' {
  const text: string;
  export default text;
}

/** YAML, bundled as text (the playground's default manifest). */
declare module '*.yaml' {
  const text: string;
  export default text;
}

/** The catalog's examples index, made by www/build.mjs. */
declare module 'virtual:examples' {
  const examples: { definitions: Array<{ name: string; apiVersion: string; kind: string; examples: Array<{ name: string; file: string; description?: string }> }> } & Record<string, unknown>;
  export default examples;
}

/** The inline element worker's source, as text (scripts/element.mjs). */
declare module 'element-worker-source' {
  const source: string;
  export default source;
}

/** The web engine's test hooks (pkg/test-hooks.mjs; www/build.mjs maps this name to it). */
declare module 'workload-map/test-hooks' {
  export function __trapForTests(): never;
  export function __compiledForTests(): number;
}
