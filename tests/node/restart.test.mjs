// A trap in the real wasm module leaves every entry point (Node ESM, Node CJS, web) usable: the
// call that trapped throws one clear error, the engine is a fresh instance, and a Definition
// compiled before the trap (or freed) throws a clear error instead of reaching the dead instance.
//
// No input is known to trap the core, so the trap is the module's own `__trapForTests` export
// (a wasm `unreachable`), reached through the package's internal test hooks (pkg/test-hooks.cjs
// for the Node engine, pkg/test-hooks.mjs for the browser one; no `exports` entry leads there):
// the real module, a real trap.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

import * as esm from 'workload-map';

import { fixture, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const cjs = require('workload-map');
/** The Node engine's test hooks (the instance `esm` and `cjs` share). */
const nodeHooks = require(path.join(root, 'pkg', 'test-hooks.cjs'));

const STOPPED = /^workload-map: the engine stopped on this input: .*unreachable.*; it has been restarted$/;
const STALE = /compiled before the engine was restarted/;
const FREED = /used after free\(\)/;

/** Traps the engine through its test hooks and checks the one error that call throws. */
function trap(hooks) {
  assert.throws(
    () => hooks.__trapForTests(),
    (error) => {
      assert.match(error.message, STOPPED);
      assert.equal(error.code, 'WORKLOAD_MAP_ENGINE_RESTARTED');
      assert.ok(error.cause instanceof WebAssembly.RuntimeError);
      return true;
    },
  );
}

/** Every way to use a Definition, each of which must throw `expected` (and nothing else). */
function assertUnusable(definition, expected, ErrorType) {
  const uses = {
    resolve: () => definition.resolve(fixture('seed-jobset.yaml')),
    diagnostics: () => definition.diagnostics,
    valid: () => definition.valid,
    name: () => definition.name,
    gvk: () => definition.gvk,
    componentNames: () => definition.componentNames,
  };
  for (const [member, use] of Object.entries(uses)) {
    assert.throws(use, (error) => error instanceof ErrorType && expected.test(error.message) && !/null pointer/.test(error.message), member);
  }
}

function seedGpus(api) {
  return new api.Definition(fixture('jobset-definition.yaml')).resolve(fixture('seed-jobset.yaml')).resources.gpus;
}

// The web entry with its own glue, as a browser or bundler loads it.
const scratch = mkdtempSync(path.join(tmpdir(), 'workload-map-restart-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let webHooks;
async function webEntry() {
  for (const file of ['web.mjs', 'web-core.mjs', 'workload_map.web.mjs', 'workload_map_cel.web.mjs', 'test-hooks.mjs'])
    copyFileSync(path.join(root, 'pkg', file), path.join(scratch, file));
  const web = await import(pathToFileURL(path.join(scratch, 'web.mjs')).href);
  webHooks = await import(pathToFileURL(path.join(scratch, 'test-hooks.mjs')).href);
  await web.init(readFileSync(path.join(root, 'pkg', 'workload_map_bg.wasm')));
  return web;
}

test('node_esm_trap_restarts_the_engine_and_the_next_call_works', () => {
  trap(nodeHooks);
  assert.equal(seedGpus(esm), 12);
  assert.equal(esm.parseQuantity('1500m').milliValue, 1500);
});

test('node_cjs_trap_restarts_the_engine_shared_with_esm', () => {
  const before = new esm.Definition(fixture('jobset-definition.yaml'));
  trap(nodeHooks);
  assertUnusable(before, STALE, Error);
  before.free();
  assert.equal(seedGpus(cjs), 12);
  assert.equal(seedGpus(esm), 12);
  assert.ok(new cjs.Definition(fixture('jobset-definition.yaml')) instanceof esm.Definition);
});

test('a_definition_from_before_the_trap_throws_a_clear_error_through_resolve_too', () => {
  const before = new esm.Definition(fixture('jobset-definition.yaml'));
  trap(nodeHooks);
  assert.throws(() => esm.resolve(before, fixture('seed-jobset.yaml')), STALE);
});

test('repeated_traps_each_restart_once', () => {
  for (let i = 0; i < 3; i += 1) trap(nodeHooks);
  assert.equal(esm.validate(fixture('jobset-definition.yaml')).valid, true);
});

test('web_entry_trap_reinitialises_from_the_module_given_to_init', async () => {
  const web = await webEntry();
  const before = new web.Definition(fixture('jobset-definition.yaml'));
  trap(webHooks);
  assertUnusable(before, STALE, Error);
  assert.equal(seedGpus(web), 12);
  assert.equal(web.catalog.list().length > 0, true);
});

for (const [name, api] of [
  ['node', esm],
  ['web', null],
]) {
  test(`${name}_freed_definition_throws_a_type_error_and_free_is_idempotent`, async () => {
    const entry = api ?? (await webEntry());
    const definition = new entry.Definition(fixture('jobset-definition.yaml'));
    definition.free();
    assertUnusable(definition, FREED, TypeError);
    definition.free();
    assert.equal(seedGpus(entry), 12);
  });
}
