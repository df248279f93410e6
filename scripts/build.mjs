// `npm run build`: builds the npm package into pkg/ (and nothing else).
//
//   1. cargo rustc --release --target wasm32-unknown-unknown --lib --crate-type cdylib
//      (`cargo build` on an rlib+cdylib crate silently skips LTO; `cargo rustc` does not)
//   2. wasm-bindgen twice on that module: --target nodejs (CommonJS glue, ready at require) and
//      --target web (ES module glue with init()). Both emit the same .wasm; we check that.
//   3. wasm-opt -Oz once on that .wasm; both glues load the one optimised file.
//   4. copy the hand-written entry points and types from js/ next to the glue.
//   5. print raw and gzip sizes and check the gzip size against size-budget.json.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { ensureBuildTools, root, wasmBindgenBin, wasmOptBin } from './toolchain.mjs';

const pkgDir = path.join(root, 'pkg');
const crateName = 'workload_map';
const budgetFile = path.join(root, 'size-budget.json');
const HARD_LIMIT_GZIP = 1024 * 1024;

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${path.basename(cmd)} failed with exit code ${result.status}`);
}

function step(title) {
  console.log(`[build] ${title}`);
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function cargoTargetDir() {
  const result = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`cargo metadata failed: ${result.stderr}`);
  return JSON.parse(result.stdout).target_directory;
}

function packageVersion() {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
}

function cargoVersion() {
  const match = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(path.join(root, 'Cargo.toml'), 'utf8'));
  return match ? match[1] : null;
}

/** Measures pkg/workload_map_bg.wasm and checks it against the budget; returns the sizes. */
export function checkSize() {
  const wasm = readFileSync(path.join(pkgDir, `${crateName}_bg.wasm`));
  const gzip = gzipSync(wasm, { level: 9 }).length;
  const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
  const limit = Math.min(budget.maxGzipBytes, HARD_LIMIT_GZIP);
  console.log(`[build] ${crateName}_bg.wasm: ${wasm.length} bytes raw (${kb(wasm.length)}), ${gzip} bytes gzip (${kb(gzip)}); budget ${limit} bytes gzip (${kb(limit)})`);
  if (gzip > limit) {
    throw new Error(`the gzipped .wasm (${gzip} bytes) exceeds the size budget of ${limit} bytes in size-budget.json`);
  }
  return { raw: wasm.length, gzip, limit };
}

export function build() {
  const started = Date.now();
  if (packageVersion() !== cargoVersion()) {
    throw new Error(`package.json version ${packageVersion()} differs from Cargo.toml version ${cargoVersion()}`);
  }
  ensureBuildTools();

  step('cargo rustc --release --target wasm32-unknown-unknown --lib --crate-type cdylib');
  run('cargo', ['rustc', '--release', '--target', 'wasm32-unknown-unknown', '--lib', '--crate-type', 'cdylib']);
  const rawWasm = path.join(cargoTargetDir(), 'wasm32-unknown-unknown', 'release', `${crateName}.wasm`);

  const staging = path.join(root, 'target', 'pkg-staging');
  rmSync(staging, { recursive: true, force: true });
  for (const target of ['nodejs', 'web']) {
    step(`wasm-bindgen --target ${target}`);
    const args = [rawWasm, '--target', target, '--out-dir', path.join(staging, target), '--out-name', crateName, '--no-typescript'];
    // The web glue is always given the .wasm location by our init(); without a default path a
    // bundler does not look for a file that is not there.
    if (target === 'web') args.push('--omit-default-module-path');
    run(wasmBindgenBin, args);
  }
  const nodeWasm = readFileSync(path.join(staging, 'nodejs', `${crateName}_bg.wasm`));
  const webWasm = readFileSync(path.join(staging, 'web', `${crateName}_bg.wasm`));
  if (!nodeWasm.equals(webWasm)) throw new Error('wasm-bindgen produced different .wasm files for nodejs and web; one shared module is assumed');

  rmSync(pkgDir, { recursive: true, force: true });
  mkdirSync(pkgDir, { recursive: true });
  step('wasm-opt -Oz');
  run(wasmOptBin, ['-Oz', path.join(staging, 'nodejs', `${crateName}_bg.wasm`), '-o', path.join(pkgDir, `${crateName}_bg.wasm`)]);

  // The CommonJS glue reads `${__dirname}/workload_map_bg.wasm`, so it sits beside the module.
  copyFileSync(path.join(staging, 'nodejs', `${crateName}.js`), path.join(pkgDir, `${crateName}.cjs`));
  copyFileSync(path.join(staging, 'web', `${crateName}.js`), path.join(pkgDir, `${crateName}.web.mjs`));
  for (const extra of readdirSync(path.join(staging, 'web'))) {
    if (extra === 'snippets') throw new Error('wasm-bindgen emitted JS snippets; the package layout does not ship them');
  }

  step('copy js/ entry points and types');
  const version = packageVersion();
  for (const file of readdirSync(path.join(root, 'js'))) {
    const text = readFileSync(path.join(root, 'js', file), 'utf8');
    writeFileSync(path.join(pkgDir, file), text.replaceAll('__WORKLOAD_MAP_VERSION__', version));
  }
  rmSync(staging, { recursive: true, force: true });

  const sizes = checkSize();
  console.log(`[build] pkg/ built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return sizes;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    build();
  } catch (error) {
    console.error(`[build] ${error.message}`);
    process.exit(1);
  }
}

