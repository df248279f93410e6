// Installs, once, every tool the build and the tests need, on a machine that has only rustup and
// Node. Only package registries are reachable, so each tool comes from one:
//   - the wasm32 rust-std through rustup;
//   - the wasm-bindgen CLI from crates.io, at exactly the version of the `wasm-bindgen` crate in
//     Cargo.lock, built once into the user's cache folder (cacheRoot(), below);
//   - wasm-opt from npm's `binaryen` (a devDependency; Debian's older wasm-opt breaks modules);
//   - Chromium from Debian (`apt-get install chromium`), only for the browser tests.
// Each step checks first and does nothing when the tool is already there.
//
// Every tool this project builds for itself lives under one folder, cacheRoot(): the wasm-bindgen
// CLI here, the test control plane in scripts/control-plane.mjs. `XDG_CACHE_HOME` pointed at an
// empty folder (with `CARGO_TARGET_DIR` likewise) therefore rebuilds everything as on a new
// machine: CONTRIBUTING.md, "A cold run".
//
// A crate is never built inside this repository: the root Cargo.toml is a workspace, and cargo
// takes any package below it for an undeclared member and refuses to update or install it. Tool
// sources are unpacked under cacheRoot()/build/, and ownWorkspace() checks, before anything is
// built there, that cargo sees that folder as a package of its own.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const exe = (name) => (process.platform === 'win32' ? `${name}.exe` : name);
export const wasmOptBin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'wasm-opt.cmd' : 'wasm-opt');
export const chromiumBin = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// The crates.io version of the CLI's lock file pins a webpki-roots release the registry mirror
// may lack; this one is known to be there and is API compatible.
const WEBPKI_ROOTS_FALLBACK = '1.0.10';

function log(message) {
  console.log(`[toolchain] ${message}`);
}

/** Runs `action`, then logs how long `what` took. */
function timed(what, action) {
  const started = Date.now();
  action();
  log(`${what} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
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
  log('adding the wasm32-unknown-unknown target (rustup downloads its rust-std: seconds)');
  timed('added the wasm32 target', () => run('rustup', ['target', 'add', 'wasm32-unknown-unknown']));
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

/**
 * The one folder every tool this project builds for itself is kept in:
 * `$XDG_CACHE_HOME/workload-map` (`~/.cache/workload-map` without it). Kept across clones, so
 * that a fresh clone on the same machine (CI clones afresh for every run) builds nothing again.
 */
export function cacheRoot(env = process.env) {
  const base = env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(base, 'workload-map');
}

/** The wasm-bindgen CLI of `version`, as installed by ensureWasmBindgen(). */
export function wasmBindgenPath(version = lockedWasmBindgenVersion(), env = process.env) {
  return path.join(cacheRoot(env), `wasm-bindgen-${version}`, 'bin', exe('wasm-bindgen'));
}

/**
 * Where a tool's crate source is unpacked and built: a folder of its own under cacheRoot(),
 * outside this repository's Cargo workspace (see the head of this file).
 */
export function toolBuildDir(name, env = process.env) {
  return path.join(cacheRoot(env), 'build', name);
}

/**
 * Whether cargo, run in `dir` (which holds a Cargo.toml), takes that package for a workspace of
 * its own: `cargo locate-project --workspace` names the package's own manifest. When a workspace
 * above claims it, cargo refuses to update or install it ("current package believes it's in a
 * workspace when it's not"). Returns `{ ok, workspace }`.
 */
export function ownWorkspace(dir) {
  const result = spawnSync('cargo', ['locate-project', '--workspace', '--message-format', 'plain'], { cwd: dir, encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    const said = (result.stderr ?? result.error?.message ?? '').trim().split('\n').slice(0, 3).join(' ');
    return { ok: false, workspace: null, said };
  }
  const found = result.stdout.trim();
  return { ok: path.resolve(found) === path.resolve(path.join(dir, 'Cargo.toml')), workspace: found, said: '' };
}

/** What ownWorkspace() found, for an error message. */
function workspaceProblem(dir, own) {
  const where = own.workspace ? `a member of the workspace at ${own.workspace}` : `a member of a workspace it is not declared in (cargo: ${own.said})`;
  return `cargo takes the package in ${dir} for ${where}: point XDG_CACHE_HOME at a folder outside any Cargo workspace`;
}

/**
 * Builds the binary `bin` of the crate file `crate` (a crates.io `.crate`) into `installRoot`
 * (`installRoot/bin/bin`): unpacked under toolBuildDir(), checked with ownWorkspace(), each
 * `pins` entry (`[package, version]`) applied with `cargo update --precise` where it can be, then
 * `cargo install --path . --locked` with a target dir of its own. The build folder is removed
 * afterwards, whatever happened.
 */
export function installCrateBinary(crate, { bin, installRoot, pins = [], env = process.env }) {
  const name = path.basename(crate).replace(/\.crate$/, '');
  const work = toolBuildDir(name, env);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    run('tar', ['-xzf', crate, '-C', work]);
    const source = path.join(work, name);
    const own = ownWorkspace(source);
    if (!own.ok) {
      throw new Error(workspaceProblem(source, own));
    }
    for (const [pkg, version] of pins) {
      if (output('cargo', ['update', '-p', pkg, '--precise', version], { cwd: source, env }) === null) {
        log(`could not pin ${pkg} ${version}; trying the lock file as published`);
      }
    }
    run('cargo', ['install', '--path', '.', '--locked', '--root', installRoot, '--bin', bin], {
      cwd: source,
      env: { ...env, CARGO_TARGET_DIR: path.join(work, 'target') },
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return path.join(installRoot, 'bin', exe(bin));
}

/**
 * Writes a package with no dependencies, `name` 0.1.0 with one binary of that name, into `dir`
 * (created); returns `dir`. The probe of checkToolBuildDir() and the tests' stand-in for a
 * tool's crate.
 */
export function writeTinyCrate(dir, name) {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'Cargo.toml'), `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n`);
  writeFileSync(path.join(dir, 'src', 'main.rs'), `fn main() {\n    println!("${name} 0.1.0");\n}\n`);
  writeFileSync(path.join(dir, 'Cargo.lock'), `# generated by cargo\nversion = 4\n\n[[package]]\nname = "${name}"\nversion = "0.1.0"\n`);
  return dir;
}

/**
 * Fails unless a crate unpacked where the tools are built (toolBuildDir()) is a package of its
 * own for cargo: one `cargo locate-project` on a probe package, a few tens of milliseconds, run
 * before every build of the tools, so that a cache folder inside a workspace is named at once
 * instead of after a download.
 */
export function checkToolBuildDir(env = process.env) {
  const probe = toolBuildDir('workspace-probe', env);
  rmSync(probe, { recursive: true, force: true });
  try {
    writeTinyCrate(probe, 'workspace-probe');
    const own = ownWorkspace(probe);
    if (!own.ok) {
      throw new Error(`tools are built in ${path.dirname(probe)}, but ${workspaceProblem(probe, own)}`);
    }
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

export function ensureWasmBindgen() {
  const version = lockedWasmBindgenVersion();
  const expected = `wasm-bindgen ${version}`;
  const bin = wasmBindgenPath(version);
  if (existsSync(bin) && output(bin, ['--version']) === expected) return;
  checkToolBuildDir();
  const started = Date.now();
  log(`building wasm-bindgen-cli ${version} from crates.io into ${path.dirname(path.dirname(bin))} (once; about 3 minutes on 2 cores)`);
  // `cargo info` downloads the .crate into cargo's registry cache without building anything.
  let crate = findCrateFile('wasm-bindgen-cli', version);
  if (!crate) {
    run('cargo', ['info', `wasm-bindgen-cli@${version}`], { cwd: tmpdir(), stdio: ['ignore', 'ignore', 'inherit'] });
    crate = findCrateFile('wasm-bindgen-cli', version);
  }
  if (!crate) throw new Error(`wasm-bindgen-cli ${version} was not found in cargo's registry cache after \`cargo info\``);
  installCrateBinary(crate, { bin: 'wasm-bindgen', installRoot: path.dirname(path.dirname(bin)), pins: [['webpki-roots', WEBPKI_ROOTS_FALLBACK]] });
  const installed = output(bin, ['--version']);
  if (installed !== expected) throw new Error(`installed wasm-bindgen reports "${installed}", expected ${version}`);
  log(`wasm-bindgen ${version} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export function ensureNodeModules() {
  // Installed, and every dependency package.json names is there (a merge that adds one, e.g. the
  // server-bundle test's next, installs again).
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  const missing = names.filter((name) => !existsSync(path.join(root, 'node_modules', name, 'package.json')));
  if (existsSync(path.join(root, 'node_modules', '.package-lock.json')) && missing.length === 0) return;
  log(`installing npm dependencies (npm ci${missing.length > 0 && missing.length < names.length ? `: ${missing.join(', ')} missing` : ''})`);
  timed('installed the npm dependencies', () => run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, shell: process.platform === 'win32' }));
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
  log('installing Chromium from Debian (apt-get; under a minute)');
  const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args]) : run('apt-get', args));
  timed('installed Chromium', () => {
    apt(['update', '-qq']);
    apt(['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  });
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
