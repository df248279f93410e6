// The browser/bundler entry (pkg/web.mjs), exercised in Node: the guard before init(), and
// init() with each kind of input. The real-browser test is tests/browser/.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

import { fixture, root } from './helpers.mjs';

const wasmPath = path.join(root, 'pkg', 'workload_map_bg.wasm');
const bytes = readFileSync(wasmPath);

// A fresh copy of the entry and its glue per test: ES modules are cached by URL, and the glue
// keeps the instantiated module, so only a new copy starts uninitialised.
const scratch = mkdtempSync(path.join(tmpdir(), 'workload-map-web-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let fresh = 0;
async function freshWebEntry() {
  fresh += 1;
  const dir = path.join(scratch, String(fresh));
  mkdirSync(dir);
  for (const file of ['web.mjs', 'web-core.mjs', 'workload_map.web.mjs', 'workload_map_cel.web.mjs'])
    copyFileSync(path.join(root, 'pkg', file), path.join(dir, file));
  return import(pathToFileURL(path.join(dir, 'web.mjs')).href);
}

test('api_before_init_throws_an_error_that_names_the_fix', async () => {
  const wm = await freshWebEntry();
  for (const call of [
    () => wm.validate('a: 1'),
    () => new wm.Definition('a: 1'),
    () => wm.resolve('a: 1', 'b: 2'),
    () => wm.catalog.list(),
    () => wm.parseQuantity('1'),
  ]) {
    assert.throws(call, /await init\(\)/);
  }
  assert.equal(typeof wm.version, 'string');
});

const inputs = {
  bytes: () => bytes,
  arrayBuffer: () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  module: () => new WebAssembly.Module(bytes),
  response: () => new Response(bytes, { headers: { 'content-type': 'application/wasm' } }),
  responsePromise: () => Promise.resolve(new Response(bytes, { headers: { 'content-type': 'application/wasm' } })),
};

for (const [name, input] of Object.entries(inputs)) {
  test(`init_accepts_${name}_and_resolves_the_seed`, async () => {
    const wm = await freshWebEntry();
    await wm.init(input());
    const view = wm.resolve(fixture('jobset-definition.yaml'), fixture('seed-jobset.yaml'));
    assert.equal(view.resources.gpus, 12);
  });
}

test('symbol_dispose_frees_a_definition', async () => {
  const wm = await freshWebEntry();
  await wm.init(bytes);
  const d = new wm.Definition(fixture('jobset-definition.yaml'));
  d[Symbol.dispose]();
  assert.throws(
    () => d.name,
    (error) => error instanceof TypeError && /after free\(\)/.test(error.message),
  );
});

test('a_missing_default_wasm_names_the_inline_entry_and_the_docs', async () => {
  // What a bundler that drops the asset leaves: web.mjs without the .wasm beside it.
  const wm = await freshWebEntry();
  const error = await wm.init().then(
    () => null,
    (e) => e,
  );
  assert.ok(error instanceof Error);
  assert.match(error.message, /workload-map\/inline/);
  assert.match(error.message, /init\(url \| Response \| bytes \| WebAssembly\.Module\)/);
  assert.match(error.message, /#bundlers/);
  assert.ok(error.cause, 'the original failure is kept as the cause');
  await wm.init(bytes);
  assert.equal(wm.parseQuantity('1').value, 1);
});

test('init_is_idempotent', async () => {
  const wm = await freshWebEntry();
  const first = wm.init(bytes);
  const second = wm.init(new Uint8Array([1, 2, 3]));
  assert.equal(first, second);
  await first;
  await wm.init();
  assert.equal(wm.validate(fixture('jobset-definition.yaml')).valid, true);
});

test('failed_init_can_be_retried', async () => {
  const wm = await freshWebEntry();
  await assert.rejects(wm.init(new Uint8Array([0, 1, 2, 3])));
  await wm.init(bytes);
  assert.equal(wm.parseQuantity('2').value, 2);
});
