// `npm test`: the one test command, locally and in CI (.ci/run). Installs what it needs, then
// runs every check in order and stops at the first failure:
//   Rust formatting and lints (native and wasm32), Rust tests, the package build (with its size
//   budget), the catalog's cases through `workload-map test`, the Node tests against pkg/, the real-browser test, and the playground's tests
//   when the playground is there.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
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

const steps = [
  ['install: npm dependencies, wasm32 target, wasm-bindgen CLI, Chromium', () => {
    ensureBuildTools();
    ensureChromium();
  }],
  ['cargo fmt --check', () => run('cargo', ['fmt', '--check'])],
  ['cargo clippy --all-targets -- -D warnings', () => run('cargo', ['clippy', '--all-targets', '--', '-D', 'warnings'])],
  ['cargo clippy --target wasm32-unknown-unknown --lib -- -D warnings', () =>
    run('cargo', ['clippy', '--target', 'wasm32-unknown-unknown', '--lib', '--', '-D', 'warnings'])],
  ['cargo test', () => run('cargo', ['test', '--quiet'])],
  ['build pkg/ (npm run build, with the size budget)', async () => {
    const { build } = await import('./build.mjs');
    build();
  }],
  ['workload-map test catalog (the catalog cases through the CLI)', () => run(process.execPath, ['bin/workload-map.mjs', 'test', 'catalog'])],
  ['node tests (tests/node, against pkg/)', () => nodeTests(testFiles('tests/node'))],
  ['browser test (Chromium, tests/browser)', () => nodeTests(testFiles('tests/browser'))],
];

// The playground (www/) brings its own build and tests; run them when they exist.
const wwwTests = testFiles('tests/www');
if (wwwTests.length > 0) {
  steps.push(['playground tests (tests/www)', () => {
    if (existsSync(path.join(root, 'www', 'build.mjs'))) run(process.execPath, ['www/build.mjs']);
    nodeTests(wwwTests);
  }]);
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
