// Installs, once, every tool the build and the tests need, on a machine that has only rustup and
// Node. Only package registries are reachable, so each tool comes from one:
//   - the wasm32 rust-std through rustup;
//   - the wasm-bindgen CLI from crates.io, at exactly the version of the `wasm-bindgen` crate in
//     Cargo.lock, built into the project-local `.tools/` (ignored by git);
//   - wasm-opt from npm's `binaryen` (a devDependency; Debian's older wasm-opt breaks modules);
//   - Chromium from Debian (`apt-get install chromium`), only for the browser tests.
// Each step checks first and does nothing when the tool is already there.

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const toolsDir = path.join(root, '.tools');
export const wasmBindgenBin = path.join(toolsDir, 'bin', process.platform === 'win32' ? 'wasm-bindgen.exe' : 'wasm-bindgen');
export const wasmOptBin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'wasm-opt.cmd' : 'wasm-opt');
export const chromiumBin = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// The crates.io version of the CLI's lock file pins a webpki-roots release the registry mirror
// may lack; this one is known to be there and is API compatible.
const WEBPKI_ROOTS_FALLBACK = '1.0.10';

function log(message) {
  console.log(`[toolchain] ${message}`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${result.status}`);
}

function output(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim();
}

/** The version of the `wasm-bindgen` crate that Cargo.lock resolves. */
export function lockedWasmBindgenVersion() {
  const lock = readFileSync(path.join(root, 'Cargo.lock'), 'utf8');
  const match = /\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/.exec(lock);
  if (!match) throw new Error('Cargo.lock has no wasm-bindgen package: run `cargo metadata` once');
  return match[1];
}

export function ensureWasmTarget() {
  const installed = output('rustup', ['target', 'list', '--installed']) ?? '';
  if (installed.split('\n').includes('wasm32-unknown-unknown')) return;
  log('adding the wasm32-unknown-unknown target');
  run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
}

function cargoHome() {
  return process.env.CARGO_HOME || path.join(homedir(), '.cargo');
}

function findCrateFile(name, version) {
  const cache = path.join(cargoHome(), 'registry', 'cache');
  if (!existsSync(cache)) return null;
  for (const registry of readdirSync(cache)) {
    const file = path.join(cache, registry, `${name}-${version}.crate`);
    if (existsSync(file)) return file;
  }
  return null;
}

// Building the CLI takes minutes, so a copy is also kept in the user's cache: a fresh clone on
// the same machine (CI clones afresh for every run) then copies it instead of building again.
function userCacheBin(version) {
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(base, 'workload-map', `wasm-bindgen-${version}`, path.basename(wasmBindgenBin));
}

export function ensureWasmBindgen() {
  const version = lockedWasmBindgenVersion();
  const expected = `wasm-bindgen ${version}`;
  const current = existsSync(wasmBindgenBin) ? output(wasmBindgenBin, ['--version']) : null;
  if (current === expected) return;
  const cached = userCacheBin(version);
  if (existsSync(cached) && output(cached, ['--version']) === expected) {
    log(`using the cached wasm-bindgen ${version} from ${path.dirname(cached)}`);
    mkdirSync(path.dirname(wasmBindgenBin), { recursive: true });
    copyFileSync(cached, wasmBindgenBin);
    chmodSync(wasmBindgenBin, 0o755);
    return;
  }
  log(`installing wasm-bindgen-cli ${version} into .tools/ (a few minutes, once)`);
  // `cargo info` downloads the .crate into cargo's registry cache without building anything.
  let crate = findCrateFile('wasm-bindgen-cli', version);
  if (!crate) {
    run('cargo', ['info', `wasm-bindgen-cli@${version}`], { cwd: tmpdir(), stdio: ['ignore', 'ignore', 'inherit'] });
    crate = findCrateFile('wasm-bindgen-cli', version);
  }
  if (!crate) throw new Error(`wasm-bindgen-cli ${version} was not found in cargo's registry cache after \`cargo info\``);
  const work = path.join(toolsDir, 'src');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  run('tar', ['-xzf', crate, '-C', work]);
  const source = path.join(work, `wasm-bindgen-cli-${version}`);
  const pinned = output('cargo', ['update', '-p', 'webpki-roots', '--precise', WEBPKI_ROOTS_FALLBACK], { cwd: source });
  if (pinned === null) log(`could not pin webpki-roots ${WEBPKI_ROOTS_FALLBACK}; trying the lock file as published`);
  run('cargo', ['install', '--path', '.', '--locked', '--root', toolsDir, '--bin', 'wasm-bindgen'], {
    cwd: source,
    env: { ...process.env, CARGO_TARGET_DIR: path.join(toolsDir, 'target') },
  });
  rmSync(path.join(toolsDir, 'target'), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  const installed = output(wasmBindgenBin, ['--version']);
  if (installed !== expected) throw new Error(`installed wasm-bindgen reports "${installed}", expected ${version}`);
  try {
    mkdirSync(path.dirname(cached), { recursive: true });
    copyFileSync(wasmBindgenBin, cached);
  } catch (error) {
    log(`could not keep a copy in ${path.dirname(cached)} (${error.message}); later clones will build it again`);
  }
}

export function ensureNodeModules() {
  // Installed, and every dependency package.json names is there (a merge that adds one, e.g. the
  // server-bundle test's next, installs again).
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  const missing = names.filter((name) => !existsSync(path.join(root, 'node_modules', name, 'package.json')));
  if (existsSync(path.join(root, 'node_modules', '.package-lock.json')) && missing.length === 0) return;
  log(`installing npm dependencies (npm ci${missing.length > 0 && missing.length < names.length ? `: ${missing.join(', ')} missing` : ''})`);
  run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, shell: process.platform === 'win32' });
}

export function ensureWasmOpt() {
  if (!existsSync(wasmOptBin)) {
    throw new Error('node_modules/.bin/wasm-opt is missing: run `npm ci` (binaryen is a devDependency)');
  }
}

export function ensureChromium() {
  if (existsSync(chromiumBin)) return;
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`no Chromium at ${chromiumBin}: install one, or point CHROMIUM_PATH at it`);
  }
  log('installing Chromium from Debian (apt-get)');
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args]) : run('apt-get', args));
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  if (!existsSync(chromiumBin)) throw new Error(`apt-get installed chromium but ${chromiumBin} is still missing`);
}

/** Everything the build needs (not the browser). */
export function ensureBuildTools() {
  ensureNodeModules();
  ensureWasmTarget();
  ensureWasmBindgen();
  ensureWasmOpt();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureBuildTools();
    if (process.argv.includes('--browser')) ensureChromium();
    log('ready');
  } catch (error) {
    console.error(`[toolchain] ${error.message}`);
    process.exit(1);
  }
}
