'use strict';
// Node, CommonJS: the wasm module is compiled and instantiated synchronously by the glue, so the
// API is usable as soon as `require('workload-map')` returns.
const glue = require('./workload_map.cjs');

const { Definition } = glue;

function resolve(definition, object) {
  return definition instanceof Definition ? definition.resolve(object) : glue.resolveWith(definition, object);
}

const catalog = Object.freeze({
  list: () => glue.catalogList(),
  find: (apiVersion, kind) => glue.catalogFind(apiVersion, kind),
  get: (name) => glue.catalogGet(name),
});

// Already initialised; kept so that code shared with browsers can always `await init()`.
function init() {
  return Promise.resolve();
}

module.exports = {
  Definition,
  validate: glue.validate,
  resolve,
  parseObjects: glue.parseObjects,
  parseQuantity: glue.parseQuantity,
  formatCpu: glue.formatCpu,
  formatMemory: glue.formatMemory,
  catalog,
  version: '__WORKLOAD_MAP_VERSION__',
  init,
};

// --- Edits: suspend, resume and pod spec merge patches, each `{ object, patch, diagnostics }`.
function suspend(definition, object) {
  return definition instanceof Definition ? definition.suspend(object) : glue.suspendWith(definition, object);
}

function resume(definition, object) {
  return definition instanceof Definition ? definition.resume(object) : glue.resumeWith(definition, object);
}

function editPodSpec(definition, object, options) {
  return definition instanceof Definition
    ? definition.editPodSpec(object, options)
    : glue.editPodSpecWith(definition, object, options);
}

Object.assign(module.exports, { suspend, resume, editPodSpec });
