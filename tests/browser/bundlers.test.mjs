// The package as bundlers take it, in a real browser: the tarball `npm pack` makes is installed
// into a scratch consumer, bundled, and each bundle resolves the seed JobSet (leader 1 x 4 GPUs,
// workers 2 x 4) in Chromium. esbuild (ESM and IIFE) and webpack 5 take the
// `workload-map/inline` entry; webpack 5 takes the default entry and emits the .wasm through its
// asset route (`new URL(..., import.meta.url)`). A bundle of the default entry that leaves the .wasm behind
// (esbuild) fails with an error that names the way out. `workload-map/element/inline` bundled
// by esbuild (which leaves `new URL(..., import.meta.url)` assets behind) draws the seed in both
// of its evaluators: the worker (made from its source in the bundle) and `sync`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import webpack from 'webpack';

import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const work = path.join(root, 'target', 'bundlers');
const consumer = path.join(work, 'consumer');
const fixture = (name) => readFileSync(path.join(root, 'tests', 'node', 'fixtures', name), 'utf8');

let server;
let context;
let profile;

/**
 * The consumer's own code: no top-level await, so that it runs as an IIFE too. The inline
 * entry is used as documented, ready at import without init(): with named imports of
 * re-exported functions only, a bundler may skip a module marked free of side effects, so
 * this also checks that the inline entry is not marked so.
 */
function app(specifier, { init }) {
  return `import { ${init ? 'init, ' : ''}resolve } from '${specifier}';
import { definition, seed } from './fixtures.js';

(async () => {
  try {
    ${init ? 'await init();' : ''}
    const view = resolve(definition, seed);
    const replicated = view.root.instances[0].children[0];
    window.result = { gpus: view.resources.gpus, phases: view.phases, instances: replicated.instances.map((i) => [i.id, i.resources.gpus]) };
  } catch (error) {
    window.result = { error: String(error && error.message), cause: String(error && error.cause) };
  }
})();
`;
}

/** Two <workload-map-view>s of the seed, one in the worker and one `sync`; each says its GPUs. */
const ELEMENT_APP = `import 'workload-map/element/inline';
import { definition, seed } from './fixtures.js';

window.result = {};
for (const sync of [false, true]) {
  const view = document.createElement('workload-map-view');
  view.sync = sync;
  view.addEventListener('wm-diagnostics', (event) => {
    const key = sync ? 'sync' : 'worker';
    window.result[key] = { gpus: event.detail.view?.resources.gpus, error: event.detail.error, drawn: /GPU/.test(view.shadowRoot.textContent) };
  });
  view.definition = definition;
  view.object = seed;
  document.body.append(view);
}
`;

before(async () => {
  assert.ok(existsSync(executablePath), `no Chromium at ${executablePath}: run node scripts/toolchain.mjs --browser`);
  rmSync(work, { recursive: true, force: true });
  const installed = path.join(consumer, 'node_modules', 'workload-map');
  mkdirSync(installed, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  const tarball = path.join(work, JSON.parse(packed.stdout)[0].filename);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
  assert.equal(untar.status, 0, untar.stderr);
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    path.join(consumer, 'fixtures.js'),
    `export const definition = ${JSON.stringify(fixture('jobset-definition.yaml'))};\nexport const seed = ${JSON.stringify(fixture('seed-jobset.yaml'))};\n`,
  );
  writeFileSync(path.join(consumer, 'app-inline.js'), app('workload-map/inline', { init: false }));
  writeFileSync(path.join(consumer, 'app-default.js'), app('workload-map', { init: true }));
  writeFileSync(path.join(consumer, 'app-element-inline.js'), ELEMENT_APP);
  server = await serve(root);
  profile = mkdtempSync(path.join(tmpdir(), 'workload-map-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function esbuildBundle(name, entry, format) {
  const outdir = path.join(work, name);
  const result = await esbuild.build({
    absWorkingDir: consumer,
    entryPoints: [entry],
    bundle: true,
    format,
    platform: 'browser',
    outfile: path.join(outdir, 'app.js'),
    logLevel: 'silent',
  });
  return { outdir, warnings: result.warnings.map((w) => w.text) };
}

function webpackBundle(name, entry) {
  const outdir = path.join(work, name);
  return new Promise((resolve, reject) => {
    webpack(
      {
        mode: 'production',
        context: consumer,
        entry,
        target: 'web',
        output: { path: outdir, filename: 'app.js', publicPath: 'auto' },
        performance: { hints: false },
      },
      (error, stats) => {
        if (error) return reject(error);
        if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
        resolve({ outdir, warnings: stats.compilation.warnings.map((w) => w.message) });
      },
    );
  });
}

/** Loads the bundle in a page (as a module script or a classic one) and gives `window.result`. */
async function run(outdir, scriptType) {
  const tag = scriptType === 'module' ? '<script type="module" src="app.js"></script>' : '<script src="app.js"></script>';
  writeFileSync(path.join(outdir, 'index.html'), `<!doctype html><meta charset="utf-8"><title>bundle</title>${tag}`);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}${path.relative(root, outdir).split(path.sep).join('/')}/index.html`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60000 });
  const result = await page.evaluate(() => window.result);
  await page.close();
  assert.deepEqual(errors, []);
  return result;
}

function assertSeedView(result) {
  assert.equal(result.error, undefined, `${result.error}\ncause: ${result.cause}`);
  assert.equal(result.gpus, 12);
  assert.deepEqual(result.phases, ['Running']);
  assert.deepEqual(result.instances, [
    ['leader', 4],
    ['workers', 8],
  ]);
}

test('esbuild_esm_bundle_of_the_inline_entry_resolves_the_seed_to_12_gpus', async () => {
  const { outdir, warnings } = await esbuildBundle('esbuild-esm-inline', './app-inline.js', 'esm');
  assert.deepEqual(warnings, []);
  assert.deepEqual(readdirSync(outdir), ['app.js'], 'one file: nothing to serve beside the bundle');
  assertSeedView(await run(outdir, 'module'));
});

test('esbuild_iife_bundle_of_the_inline_entry_resolves_the_seed_to_12_gpus', async () => {
  const { outdir, warnings } = await esbuildBundle('esbuild-iife-inline', './app-inline.js', 'iife');
  assert.deepEqual(warnings, []);
  assertSeedView(await run(outdir, 'classic'));
});

test('webpack_5_bundle_of_the_default_entry_emits_the_wasm_asset_and_resolves_the_seed_to_12_gpus', async () => {
  const { outdir, warnings } = await webpackBundle('webpack-default', './app-default.js');
  assert.deepEqual(warnings, []);
  assert.ok(
    readdirSync(outdir).some((f) => f.endsWith('.wasm')),
    `webpack emitted the .wasm: ${readdirSync(outdir)}`,
  );
  assertSeedView(await run(outdir, 'classic'));
});

test('webpack_5_bundle_of_the_inline_entry_is_one_file_and_resolves_the_seed_to_12_gpus', async () => {
  // The inline entry loads the engine at import: a bundler that skips side-effect-free modules
  // must still run it (package.json lists it under sideEffects).
  const { outdir, warnings } = await webpackBundle('webpack-inline', './app-inline.js');
  assert.deepEqual(warnings, []);
  assert.deepEqual(readdirSync(outdir), ['app.js']);
  assertSeedView(await run(outdir, 'classic'));
});

for (const format of ['esm', 'iife']) {
  test(`esbuild_${format}_bundle_of_the_default_entry_fails_with_an_error_that_names_the_inline_entry`, async () => {
    // esbuild does not emit `new URL('./x.wasm', import.meta.url)` as an asset: the .wasm is
    // not beside the bundle (ESM: a 404), or import.meta.url is empty (IIFE).
    const { outdir } = await esbuildBundle(`esbuild-${format}-default`, './app-default.js', format);
    const result = await run(outdir, format === 'esm' ? 'module' : 'classic');
    assert.equal(result.gpus, undefined);
    assert.match(result.error, /could not load its WebAssembly module from the default location/);
    assert.match(result.error, /Import from "workload-map\/inline" instead/);
    assert.match(result.error, /#bundlers/);
    if (format === 'esm') assert.match(result.error, /404/);
  });
}

test('esbuild_bundle_of_the_inline_element_draws_the_seed_in_the_worker_and_sync', async () => {
  const { outdir, warnings } = await esbuildBundle('esbuild-element-inline', './app-element-inline.js', 'esm');
  assert.deepEqual(warnings, []);
  assert.deepEqual(readdirSync(outdir), ['app.js'], 'one file: nothing to serve beside the bundle');
  writeFileSync(path.join(outdir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>element</title><script type="module" src="app.js"></script>');
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}${path.relative(root, outdir).split(path.sep).join('/')}/index.html`);
  await page.waitForFunction(() => window.result?.worker && window.result?.sync, null, { timeout: 60000 });
  const result = await page.evaluate(() => window.result);
  await page.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(result, { worker: { gpus: 12, error: null, drawn: true }, sync: { gpus: 12, error: null, drawn: true } });
});
