// Source of pkg/node.cjs (`require('workload-map')`), generated as CommonJS by scripts/build.mjs:
// the API of the Node engine (pkg/workload_map.cjs, a static require that bundlers follow).
// tests/node/package.test.mjs checks that every entry exports the same names.
export {
  Definition,
  validate,
  resolve,
  parseObjects,
  draft,
  parseQuantity,
  formatCpu,
  formatMemory,
  catalog,
  version,
  init,
  suspend,
  resume,
  editPodSpec,
  resolveAll,
  readManifest,
  Manifest,
  runCase,
  checkDefinition,
  draftFromSchema,
  schemaFields,
  needsCel,
  loadCel,
} from './workload_map.cjs';
