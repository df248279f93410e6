// The worker's side of the API schema (issue 23): the schema text the page loaded is kept here,
// so that checks, completions and drafts send only the definition or a path, never the schema
// again. Everything is the core's (`checkDefinition`, `schemaFields`, `draftFromSchema`); this
// module only picks the type to look in.
//
// Protocol (answers go back as {type: 'answer', id, result}, see worker.js):
//   {type: 'schema', id, name, text}              keep this schema (empty text: forget it);
//                                                 result {loaded, type?, diagnostics}
//   {type: 'schemaCheck', id, definition}          result {checked, diagnostics, reads}
//   {type: 'schemaFields', id, path, object?}      result of schemaFields (object: {apiVersion,
//                                                 kind} of the manifest's workload, to pick its type)
//   {type: 'schemaDraft', id, manifest}            result {text, drafted?, diagnostics}

import { Manifest, checkDefinition, draftFromSchema, schemaFields } from 'workload-map';
import { pickWorkload } from '../../js/render/follow.js';

/** The message types this module answers. */
export const SCHEMA_MESSAGES = new Set(['schema', 'schemaCheck', 'schemaFields', 'schemaDraft']);

/** `[{name, text}]`, or undefined while no schema is loaded. */
let schemas;

/** The answer to one of SCHEMA_MESSAGES (throws on misuse; the worker reports it). */
export function answerSchema(message) {
  if (message.type === 'schema') return load(message);
  if (!schemas) return { error: 'no API schema is loaded' };
  if (message.type === 'schemaCheck') {
    const result = plain(checkDefinition(String(message.definition ?? ''), schemas));
    return { checked: result.checked, diagnostics: result.diagnostics, reads: result.reads };
  }
  if (message.type === 'schemaFields') return fieldsFor(String(message.path ?? ''), message.object);
  if (message.type === 'schemaDraft') return draftFor(String(message.manifest ?? ''));
  return { error: `unknown message ${message.type}` };
}

function load({ name, text }) {
  if (typeof text !== 'string' || text.trim() === '') {
    schemas = undefined;
    return { loaded: false, diagnostics: [] };
  }
  schemas = [{ name: String(name || 'schema'), text }];
  // The root's fields read the whole text once (the core keeps it read for the calls after).
  const root = plain(schemaFields(schemas, {}));
  const unreadable = root.diagnostics.filter((d) => d.code === 'schema/invalid');
  if (unreadable.length > 0 && !root.schema) {
    schemas = undefined;
    return { loaded: false, diagnostics: unreadable };
  }
  return { loaded: true, type: root.schema, several: !root.schema, diagnostics: root.schema ? root.diagnostics : [] };
}

/** `apiVersion` and `kind` as schemaFields/draftFromSchema options. */
function typeOf(object) {
  if (!object || typeof object.kind !== 'string' || typeof object.apiVersion !== 'string') return undefined;
  const slash = object.apiVersion.lastIndexOf('/');
  return { group: slash < 0 ? '' : object.apiVersion.slice(0, slash), version: object.apiVersion.slice(slash + 1), kind: object.kind };
}

/**
 * The fields at `path` of the manifest's type at its version, else of that type at its
 * storage version, else of the one type the schema describes.
 */
function fieldsFor(path, object) {
  const type = typeOf(object);
  const tries = type ? [type, { group: type.group, kind: type.kind }, {}] : [{}];
  let result;
  for (const options of tries) {
    result = plain(schemaFields(schemas, { ...options, path }));
    if (result.schema) return result;
  }
  return result;
}

/** A definition drafted from the schema of the manifest's workload type, with the object laid over. */
function draftFor(manifest) {
  let object;
  const read = new Manifest(manifest);
  try {
    if (read.diagnostics.length === 0 && read.count > 0) {
      // Only the workload object crosses, not every object of the manifest.
      const workload = read.count > 1 ? pickWorkload(plain(read.reading).workloads) : undefined;
      object = read.object(workload?.index ?? 0);
    }
  } finally {
    read.free();
  }
  const type = typeOf(object);
  const options = type ? { group: type.group, kind: type.kind, object } : {};
  // The object's own version when the schema has it, else the storage version.
  let drafted = plain(draftFromSchema(schemas, type ? { ...options, version: type.version } : options));
  if (!drafted.text && type) drafted = plain(draftFromSchema(schemas, options));
  return drafted;
}

function plain(value) {
  return JSON.parse(JSON.stringify(value, (_, v) => (v instanceof Map ? Object.fromEntries(v) : v)));
}
