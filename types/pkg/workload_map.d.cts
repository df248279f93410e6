// pkg/workload_map.cjs, made by scripts/build.mjs from js/node-engine.mjs: the Node engine, the
// package's API and the test hooks test-hooks.cjs passes on.
export * from '../../js/index.js';
export function trapForTests(): never;
export function compiledForTests(): number;
export function celForTests(): { loaded: boolean; held: number[] | null };
