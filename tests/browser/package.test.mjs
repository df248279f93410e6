// One real browser: Debian's Chromium, driven by playwright-core, loads the package from a
// static page on 127.0.0.1 and resolves the seed JobSet (leader 1 x 4 GPUs, workers 2 x 4);
// the CEL module is fetched only by a page whose definition holds CEL.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Without the background-networking switches Chromium keeps trying to reach its services,
// which a closed network refuses; a fresh profile keeps runs independent.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let server;
let context;
let profile;

before(async () => {
  assert.ok(existsSync(executablePath), `no Chromium at ${executablePath}: run node scripts/toolchain.mjs --browser`);
  server = await serve(root);
  profile = mkdtempSync(path.join(tmpdir(), 'workload-map-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** The .wasm files a page fetched. */
function wasmRequests(page) {
  const fetched = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.wasm')) fetched.push(path.basename(url.pathname));
  });
  return fetched;
}

test('a_module_script_page_resolves_the_seed_jobset_to_12_gpus', async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const fetched = wasmRequests(page);
  await page.goto(`${server.url}tests/browser/page/index.html`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30000 });
  const result = await page.evaluate(() => window.result);
  assert.deepEqual(errors, []);
  assert.equal(result.error, undefined, result.error);
  assert.match(result.beforeInit, /await init\(\)/);
  assert.equal(result.definitionName, 'test-jobset');
  assert.equal(result.gpus, 12);
  assert.deepEqual(result.phases, ['Running']);
  assert.deepEqual(result.instances, [
    ['leader', 1, 4],
    ['workers', 2, 8],
  ]);
  assert.match(result.version, /^\d+\.\d+\.\d+/);
  // A definition without CEL never fetches the CEL module.
  assert.deepEqual(fetched, ['workload_map_bg.wasm']);
  await page.close();
});

test('a_page_with_a_cel_definition_fetches_the_cel_module_and_resolves_it', async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const fetched = wasmRequests(page);
  await page.goto(`${server.url}tests/browser/page/cel.html?entry=web`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30000 });
  const result = await page.evaluate(() => window.result);
  assert.deepEqual(errors, []);
  assert.equal(result.error, undefined, result.error);
  assert.equal(result.needsCel, true);
  // Compiled before loadCel(): each CEL expression says the module is not loaded.
  assert.deepEqual(result.before, ['expr/cel-unavailable', 'expr/cel-unavailable']);
  assert.deepEqual(result.phases, ['Running']);
  assert.deepEqual(result.errors, []);
  assert.deepEqual(fetched, ['workload_map_bg.wasm', 'workload_map_cel_bg.wasm']);
  await page.close();
});

test('the_inline_entry_runs_cel_without_fetching_any_wasm', async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const fetched = wasmRequests(page);
  await page.goto(`${server.url}tests/browser/page/cel.html?entry=inline`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30000 });
  const result = await page.evaluate(() => window.result);
  assert.deepEqual(errors, []);
  assert.equal(result.error, undefined, result.error);
  assert.equal(result.needsCel, true);
  assert.deepEqual(result.phases, ['Running']);
  assert.deepEqual(result.errors, []);
  assert.deepEqual(fetched, [], 'both modules are inlined');
  await page.close();
});
