// The package's Node entries as server bundlers take them, with no configuration: the tarball
// `npm pack` makes is unpacked into a scratch app, which each bundler builds, and each build
// resolves the seed JobSet (12 GPUs) on the server. Every bundle runs from a folder of its own,
// with no node_modules and no .wasm beside it: what the bundle needs, the bundler followed.
//
//   esbuild --platform=node   an ES module app (`import`) and a CommonJS one (`require`)
//   webpack --target node     the ES module app
//   Next.js `next build`      an App Router page that resolves the seed when it is prerendered
//
// The bundlers come from the repository's own devDependencies (one install); `next build` is
// the slow one (about a minute on two cores).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';

import * as esbuild from 'esbuild';
import webpack from 'webpack';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = path.join(root, 'target', 'server-bundles');
const app = path.join(work, 'app');
const fixture = (name) => readFileSync(path.join(root, 'tests', 'node', 'fixtures', name), 'utf8');

/** The app's own code: resolve the seed with the definition and print what the view says. */
const SERVER_ESM = `import { resolve, version } from 'workload-map';
import { definition, seed } from './fixtures.js';

const view = resolve(definition, seed);
console.log(JSON.stringify({ gpus: view.resources.gpus, phases: view.phases, version }));
`;
const SERVER_CJS = `const { resolve, version } = require('workload-map');
const { definition, seed } = require('./fixtures.cjs');

const view = resolve(definition, seed);
console.log(JSON.stringify({ gpus: view.resources.gpus, phases: view.phases, version }));
`;
const NEXT_PAGE = `import { resolve } from 'workload-map';
import { definition, seed } from '../fixtures.js';

export default function Page() {
  const view = resolve(definition, seed);
  return <p id="gpus">seed GPUs: {view.resources.gpus}</p>;
}
`;
const NEXT_LAYOUT = `export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`;

const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;

before(() => {
  rmSync(work, { recursive: true, force: true });
  const installed = path.join(app, 'node_modules', 'workload-map');
  mkdirSync(installed, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  const tarball = path.join(work, JSON.parse(packed.stdout)[0].filename);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
  assert.equal(untar.status, 0, untar.stderr);
  const data = { definition: fixture('jobset-definition.yaml'), seed: fixture('seed-jobset.yaml') };
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'server-app', private: true, type: 'module' }));
  writeFileSync(
    path.join(app, 'fixtures.js'),
    `export const definition = ${JSON.stringify(data.definition)};\nexport const seed = ${JSON.stringify(data.seed)};\n`,
  );
  writeFileSync(path.join(app, 'fixtures.cjs'), `module.exports = ${JSON.stringify(data)};\n`);
  writeFileSync(path.join(app, 'server.mjs'), SERVER_ESM);
  writeFileSync(path.join(app, 'server.cjs'), SERVER_CJS);
});

/** Runs a bundle with Node, as the only file of its folder's tree that it can reach. */
function runBundle(file) {
  const child = spawnSync(process.execPath, [file], { cwd: path.dirname(file), encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

function assertSeed(result) {
  assert.deepEqual(result, { gpus: 12, phases: ['Running'], version });
}

/** A bundle's folder outside the app, so that nothing resolves to the app's node_modules at run time. */
function outdir(name) {
  const dir = path.join(work, 'out', name);
  rmSync(dir, { recursive: true, force: true });
  return dir;
}

for (const [format, entry, extension] of [
  ['esm', 'server.mjs', 'mjs'],
  ['cjs', 'server.cjs', 'cjs'],
]) {
  test(`esbuild_platform_node_${format}_bundle_resolves_the_seed_to_12_gpus`, async () => {
    const outfile = path.join(outdir(`esbuild-${format}`), `server.${extension}`);
    const result = await esbuild.build({ absWorkingDir: app, entryPoints: [entry], bundle: true, platform: 'node', format, outfile, logLevel: 'silent' });
    assert.deepEqual(
      result.warnings.map((w) => w.text),
      [],
    );
    assert.deepEqual(readdirSync(path.dirname(outfile)), [path.basename(outfile)]);
    assertSeed(runBundle(outfile));
  });
}

test('webpack_target_node_bundle_resolves_the_seed_to_12_gpus', async () => {
  const dir = outdir('webpack');
  await new Promise((done, fail) => {
    webpack(
      { mode: 'production', context: app, entry: './server.mjs', target: 'node', output: { path: dir, filename: 'server.cjs' }, performance: { hints: false } },
      (error, stats) => {
        if (error) return fail(error);
        if (stats.hasErrors()) return fail(new Error(stats.toString('errors-only')));
        assert.deepEqual(
          stats.compilation.warnings.map((w) => w.message),
          [],
        );
        done();
      },
    );
  });
  assertSeed(runBundle(path.join(dir, 'server.cjs')));
});

test('next_build_prerenders_a_server_page_that_resolves_the_seed_to_12_gpus', () => {
  // The page is static, so `next build` runs it (the server bundle) and writes its HTML.
  mkdirSync(path.join(app, 'app'), { recursive: true });
  writeFileSync(path.join(app, 'app', 'layout.js'), NEXT_LAYOUT);
  writeFileSync(path.join(app, 'app', 'page.js'), NEXT_PAGE);
  const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const started = Date.now();
  const built = spawnSync(process.execPath, [next, 'build'], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CI: '1' },
    maxBuffer: 64 << 20,
  });
  assert.equal(built.status, 0, `${built.stdout}\n${built.stderr}`);
  console.log(`# next build: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const html = readFileSync(path.join(app, '.next', 'server', 'app', 'index.html'), 'utf8');
  assert.match(html, /seed GPUs: (<!-- -->)?12/);
});
