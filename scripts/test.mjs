// `npm test`: the one test command, locally and in CI (.ci/run). Installs what it needs, then
// runs every check in order and stops at the first failure:
//   Rust formatting and lints (native and wasm32), the module layers (scripts/check-layers.mjs), Rust tests, the differential test against
//   upstream's definitions (its table printed), the fuzz targets built on stable and their
//   checks run over the catalog (fuzz/), the package build (with its size budget), the JavaScript
//   type-checked (tsc --checkJs, tsconfig.json) and its formatting checked (prettier), the
//   catalog's cases through `workload-map test`, the package's types as published
//   (arethetypeswrong on the `npm pack` tarball), the Node tests against pkg/, the package
//   bundled for servers, the real-browser tests, and the playground's tests when the playground
//   is there.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { ensureBuildTools, ensureChromium, root } from './toolchain.mjs';

const started = Date.now();
const timings = [];

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function heading(title) {
  console.log(`\n=== ${title} ${'='.repeat(Math.max(3, 86 - title.length))}`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`\`${[cmd, ...args].join(' ')}\` exited with ${result.status ?? result.signal}`);
}

function testFiles(dir) {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((name) => name.endsWith('.test.mjs'))
    .sort()
    .map((name) => path.join(dir, name));
}

function nodeTests(files) {
  run(process.execPath, ['--test', '--test-reporter=spec', ...files]);
}

const differentialTest = 'our_catalog_is_never_less_specific_than_upstream';

/**
 * arethetypeswrong on the tarball `npm pack` makes: the main entry under every resolution
 * (node10, node16 from CommonJS and from ESM, bundler) with no rule ignored; `workload-map/inline`
 * as the ESM-only entry it is (CommonJS reaches it through import(), node10 has no `exports`), and
 * so are `workload-map/element` and `workload-map/element/inline`.
 */
function checkPackedTypes() {
  const dir = path.join(root, 'target', 'pack');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: root, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tarball = path.join(dir, JSON.parse(packed.stdout)[0].filename);
  const attw = path.join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  run(process.execPath, [attw, tarball, '--entrypoints', '.', '--profile', 'strict', '--no-emoji']);
  run(process.execPath, [attw, tarball, '--entrypoints', './inline', '--profile', 'esm-only', '--no-emoji']);
  // The element's entries are ES modules only, with .d.mts types (no "masquerading as CJS").
  run(process.execPath, [attw, tarball, '--entrypoints', './element', './element/inline', '--profile', 'esm-only', '--no-emoji']);
}

const steps = [
  // Before anything is installed: the tool builds happen where cargo can build them (a crate
  // unpacked inside this workspace is refused), checked with a tiny crate in a second or two.
  ['toolchain checks (tests/toolchain: where tools are built, the install function)', () => nodeTests(testFiles('tests/toolchain'))],
  [
    'install: npm dependencies, wasm32 target, wasm-bindgen CLI, Chromium',
    () => {
      ensureBuildTools();
      ensureChromium();
    },
  ],
  ['cargo fmt --all --check', () => run('cargo', ['fmt', '--all', '--check'])],
  ['cargo clippy --workspace --all-targets -- -D warnings', () => run('cargo', ['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings'])],
  // The wasm crate (crates/wasm) is empty outside wasm32: this is the run that checks it.
  [
    'cargo clippy --workspace --target wasm32-unknown-unknown --lib -- -D warnings',
    () => run('cargo', ['clippy', '--workspace', '--target', 'wasm32-unknown-unknown', '--lib', '--', '-D', 'warnings']),
  ],
  // No import cycles in src/ and no upward import between the layers ARCHITECTURE.md lists.
  ['layers: node scripts/check-layers.mjs', () => run(process.execPath, ['scripts/check-layers.mjs'])],
  // The differential test runs in its own step, with its table of differences shown.
  ['cargo test', () => run('cargo', ['test', '--quiet', '--', '--skip', differentialTest])],
  [
    'differential: our catalog against upstream (cargo test --test it differential::)',
    () => run('cargo', ['test', '--quiet', '--test', 'it', 'differential::', '--', '--nocapture']),
  ],
  // fuzz/ is its own workspace, which nothing above builds: build its targets on stable (a
  // superset of `cargo check`: the harness must compile), then run every target's checks over
  // the catalog's files and the committed seeds, without a fuzzer or sanitizer (a few seconds).
  [
    'fuzz targets on stable (fuzz/: cargo build --all-targets, then the smoke run)',
    () => {
      const manifest = ['--manifest-path', path.join('fuzz', 'Cargo.toml')];
      run('cargo', ['build', '--quiet', '--all-targets', ...manifest]);
      run('cargo', ['run', '--quiet', '--example', 'smoke', ...manifest]);
    },
  ],
  [
    'build pkg/ (npm run build, with the size budget)',
    async () => {
      const { build } = await import('./build.mjs');
      await build();
    },
  ],
  // tsconfig.json: js/, bin/ and www/src checked against pkg/'s declarations, built just above.
  [
    'type check (tsc --checkJs over js/, bin/ and www/src, against the package declarations)',
    () => run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']),
  ],
  [
    'format check (prettier --check on the JavaScript; .prettierrc.json)',
    () => run(process.execPath, [path.join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '--log-level', 'warn', '**/*.{js,mjs,cjs}']),
  ],
  ['workload-map test catalog (the catalog cases through the CLI)', () => run(process.execPath, ['bin/workload-map.mjs', 'test', 'catalog'])],
  ['package types (arethetypeswrong on the npm pack tarball)', checkPackedTypes],
  ['node tests (tests/node, against pkg/)', () => nodeTests(testFiles('tests/node'))],
  // The packed package built into a server app by esbuild (ESM, CJS), webpack and `next build`
  // (about 40 s, most of it Next.js), each bundle run from a folder of its own.
  ['server bundlers (tests/bundle: esbuild, webpack and Next.js against the npm pack tarball)', () => nodeTests(testFiles('tests/bundle'))],
  ['browser tests (Chromium, tests/browser)', () => nodeTests(testFiles('tests/browser'))],
  // A real etcd and kube-apiserver, built once from the Go module proxy into the user's cache
  // (scripts/control-plane.mjs), started for these tests and stopped after them. A control plane
  // that cannot be built or started fails this step: it is never skipped.
  [
    'cluster tests (tests/cluster, against a real kube-apiserver and etcd)',
    async () => {
      const { runWith } = await import('./control-plane.mjs');
      const code = await runWith(process.execPath, ['--test', '--test-reporter=spec', ...testFiles('tests/cluster')]);
      if (code !== 0) throw new Error(`the cluster tests exited with ${code}`);
    },
  ],
];

// The playground (www/) brings its own build and tests; run them when they exist.
const wwwTests = testFiles('tests/www');
if (wwwTests.length > 0) {
  steps.push([
    'playground tests (tests/www)',
    () => {
      if (existsSync(path.join(root, 'www', 'build.mjs'))) run(process.execPath, ['www/build.mjs']);
      nodeTests(wwwTests);
    },
  ]);
}

for (const [title, action] of steps) {
  heading(title);
  const stepStarted = Date.now();
  try {
    await action();
  } catch (error) {
    console.error(`\nFAILED: ${title}\n${error.message}`);
    console.error(`npm test failed after ${seconds(Date.now() - started)}`);
    process.exit(1);
  }
  timings.push([title, Date.now() - stepStarted]);
}

heading('summary');
for (const [title, ms] of timings) console.log(`${seconds(ms).padStart(9)}  ${title}`);
console.log(`npm test: all ${timings.length} steps passed in ${seconds(Date.now() - started)}`);
