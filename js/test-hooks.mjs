// Not API: the package's own tests reach the browser engine's test hooks here, by file path.
// package.json `exports` leaves this file out, so `workload-map/...` never resolves to it.
export { trapForTests as __trapForTests, compiledForTests as __compiledForTests, celForTests as __celForTests } from './web-core.mjs';
