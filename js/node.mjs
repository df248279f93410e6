// Node, ES modules: the same instance as the CommonJS entry, so ESM and CJS users in one
// process share one wasm module (and `instanceof Definition` holds across both).
import api from './node.cjs';

export const { Definition, validate, resolve, parseObjects, draft, parseQuantity, formatCpu, formatMemory, catalog, version, init } = api;

// Edits: suspend, resume and pod spec merge patches.
export const { suspend, resume, editPodSpec } = api;

// Many workloads: a List of mixed types, each with its catalog definition.
export const { resolveAll, readManifest } = api;

// A manifest read once, kept in the engine.
export const { Manifest } = api;

// Test cases of a definition test folder.
export const { runCase } = api;

// A definition checked against API schemas.
export const { checkDefinition } = api;
export const { draftFromSchema } = api;
export const { schemaFields } = api;

// CEL, a second module loaded on first need (synchronously in Node).
export const { needsCel, loadCel } = api;
