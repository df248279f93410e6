// Source of pkg/test-hooks.cjs (generated as CommonJS by scripts/build.mjs). Not API: the
// package's own tests reach the Node engine's test hooks here, by file path; package.json
// `exports` leaves the file out.
export { trapForTests as __trapForTests, compiledForTests as __compiledForTests, celForTests as __celForTests } from './workload_map.cjs';
