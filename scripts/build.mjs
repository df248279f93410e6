// `npm run build`: builds the npm package into pkg/ (and nothing else).
//
//   1. cargo rustc -p workload-map-wasm --release --target wasm32-unknown-unknown --lib
//      --crate-type cdylib: the wasm crate (crates/wasm), which compiles the core into itself
//      (one crate, one fat-LTO unit), without CEL; then the same for the CEL module
//      (crates/cel-wasm: the core's CEL engine, loaded the first time a definition holds CEL)
//      (`cargo build` on an rlib+cdylib crate silently skips LTO; `cargo rustc` does not)
//   2. wasm-bindgen --target web on each module (ES module glue, wrapped in a factory so that
//      js/web-core.mjs, the one engine, can replace an instance that trapped).
//   3. wasm-opt -Oz on each .wasm.
//   4. write the entry points next to the glue: the browser files of js/ as they are; the Node
//      files generated as CommonJS by esbuild from their ES module sources (NODE_BUILDS below:
//      the engine js/node-engine.mjs + js/web-core.mjs + the glue as workload_map.cjs, and the
//      entries that require it); the .wasm inlined as base64 (for `workload-map/inline`, the
//      inline element and the Node engine inside a server bundle); and the one hand-written
//      js/index.d.ts as index.d.mts (import) and index.d.cts (require), with the union of
//      diagnostic codes read from bin/diagnostic-codes.json (generated from src/diagnostic.rs).
//      The CEL module is inlined too (workload_map_cel_bg.inline.mjs).
//   5. print raw and gzip sizes and check each module's gzip size against size-budget.json
//      (`maxGzipBytes`: the main module, what a page downloads before its first result;
//      `maxGzipBytesCel`: the CEL module, downloaded only for a definition that holds CEL).
//
// Steps 1 to 3 are compileModule and bindModule, which scripts/build-hot.mjs also runs for the
// `release-hot` variant that `npm run bench` measures.
//
// `node scripts/build.mjs --entries` redoes step 4 only, on the pkg/ of the last full build
// (for work on js/ alone).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { ensureBuildTools, root, wasmBindgenPath, wasmOptBin } from './toolchain.mjs';

const pkgDir = path.join(root, 'pkg');
// The package's file names (wasm-bindgen --out-name), and the wasm crate whose module they hold.
export const crateName = 'workload_map';
export const wasmCrate = { package: 'workload-map-wasm', file: 'workload_map_wasm' };
// The CEL module (crates/cel-wasm), named `workload_map_cel` in pkg/.
const celName = 'workload_map_cel';
const celCrate = { package: 'workload-map-cel-wasm', file: 'workload_map_cel_wasm' };
const budgetFile = path.join(root, 'size-budget.json');
const HARD_LIMIT_GZIP = 1024 * 1024;

// `quiet`: the command's output is kept, not shown; on failure it is the error's `output`.
function run(cmd, args, { quiet = false, ...options } = {}) {
  const stdio = quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit';
  const result = spawnSync(cmd, args, { stdio, cwd: root, encoding: 'utf8', maxBuffer: 256 << 20, ...options });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    const error = new Error(`${path.basename(cmd)} failed with exit code ${result.status}`);
    if (quiet) Object.assign(error, { output: `${result.stderr ?? ''}${result.stdout ?? ''}` });
    throw error;
  }
}

// scripts/element.mjs loads esbuild, a dev dependency: it is imported only after
// ensureBuildTools() has installed the dependencies (npm start on a fresh clone runs this first).
async function buildElement(dir) {
  const element = await import('./element.mjs');
  await element.buildElement(dir);
}

function step(title) {
  console.log(`[build] ${title}`);
}

/** Runs `action`, then says how long it took when that was long enough to notice. */
function took(title, action) {
  const started = Date.now();
  const result = action();
  const ms = Date.now() - started;
  if (ms >= 2000) step(`${title}: ${(ms / 1000).toFixed(0)} s`);
  return result;
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export function cargoTargetDir() {
  const result = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`cargo metadata failed: ${result.stderr}`);
  return JSON.parse(result.stdout).target_directory;
}

/**
 * Step 1 for one module: `cargo rustc` of the wasm crate `crate` (`{ package, file }`) with the
 * Cargo profile `profile`, into cargo's target dir or `targetDir`; returns the module's path.
 */
export function compileModule(crate, { profile = 'release', targetDir, quiet = false } = {}) {
  const cargoArgs = ['rustc', '-p', crate.package, ...(profile === 'release' ? ['--release'] : ['--profile', profile])];
  cargoArgs.push('--target', 'wasm32-unknown-unknown', '--lib', '--crate-type', 'cdylib', ...(targetDir ? ['--target-dir', targetDir] : []));
  const output = path.join(targetDir ?? cargoTargetDir(), 'wasm32-unknown-unknown', profile, `${crate.file}.wasm`);
  if (!quiet) {
    step(`cargo ${cargoArgs.join(' ')}`);
    // Cargo prints nothing for minutes while it links with LTO: say so, so nobody thinks it hangs.
    if (!existsSync(output)) step('  the first build of this module compiles every dependency for wasm32: several minutes on 2 cores, once');
  }
  took(`${crate.package} compiled`, () => run('cargo', [...cargoArgs, ...(quiet ? ['--quiet'] : [])], { quiet }));
  return output;
}

/**
 * Steps 2 and 3 for one module: wasm-bindgen's web glue for `rawWasm` into `staging` (the
 * package's file names: `name`), then the module optimised (wasm-opt -Oz) to `wasmOut`;
 * returns the path of the glue.
 */
export function bindModule(rawWasm, name, { staging, wasmOut, quiet = false }) {
  const out = path.join(staging, name);
  if (!quiet) step(`wasm-bindgen --target web (${name})`);
  // The web glue is always given the compiled module by web-core.mjs; without a default path a
  // bundler does not look for a file that is not there.
  run(wasmBindgenPath(), [rawWasm, '--target', 'web', '--out-dir', out, '--out-name', name, '--no-typescript', '--omit-default-module-path'], { quiet });
  if (!quiet) step(`wasm-opt -Oz (${name}; about 20 s for the main module)`);
  took(`wasm-opt -Oz (${name})`, () => run(wasmOptBin, ['-Oz', path.join(out, `${name}_bg.wasm`), '-o', wasmOut], { quiet }));
  for (const extra of readdirSync(out)) {
    if (extra === 'snippets') throw new Error('wasm-bindgen emitted JS snippets; the package layout does not ship them');
  }
  return path.join(out, `${name}.js`);
}

function packageVersion() {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
}

function cargoVersion() {
  const match = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(path.join(root, 'Cargo.toml'), 'utf8'));
  return match ? match[1] : null;
}

/**
 * Measures the two modules in pkg/ and checks each against its budget in size-budget.json
 * (the main module: `maxGzipBytes`; the CEL module: `maxGzipBytesCel`); returns the sizes.
 */
export function checkSize() {
  const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
  const measure = (name, max, what) => {
    const wasm = readFileSync(path.join(pkgDir, `${name}_bg.wasm`));
    const gzip = gzipSync(wasm, { level: 9 }).length;
    const limit = Math.min(max, HARD_LIMIT_GZIP);
    console.log(
      `[build] ${name}_bg.wasm (${what}): ${wasm.length} bytes raw (${kb(wasm.length)}), ${gzip} bytes gzip (${kb(gzip)}); budget ${limit} bytes gzip (${kb(limit)})`,
    );
    if (!(gzip <= limit)) {
      throw new Error(`the gzipped ${name}_bg.wasm (${gzip} bytes) exceeds its size budget of ${limit} bytes in size-budget.json`);
    }
    return { raw: wasm.length, gzip, limit };
  };
  const main = measure(crateName, budget.maxGzipBytes, 'the default download');
  const cel = measure(celName, budget.maxGzipBytesCel, 'CEL, loaded on first need');
  return { ...main, cel };
}

/**
 * wasm-bindgen's web glue keeps its instance in module-level variables and initialises once, so
 * a module that trapped could never be replaced. Wrapped in `createGlue()`, each call gives a
 * fresh glue (its own instance, memory and finalizers); js/web.mjs makes a new one after a trap.
 * Only `export` keywords change; anything unexpected in the glue fails the build.
 */
export function glueFactory(text) {
  const names = [];
  let body = text.replace(/^export (?:async )?(?:class|function) ([A-Za-z_$][\w$]*)/gm, (declaration, name) => {
    names.push(name);
    return declaration.slice('export '.length);
  });
  body = body.replace(/^export \{([^}]*)\};?$/gm, (_, list) => {
    for (const item of list.split(',')) {
      const [local, exported = local] = item.trim().split(/\s+as\s+/);
      if (exported !== 'default') names.push(local);
    }
    return '';
  });
  if (/^\s*(?:import|export)\b|import\.meta/m.test(body) || !names.includes('initSync')) {
    throw new Error('the wasm-bindgen web glue has a shape scripts/build.mjs does not know (imports, import.meta or no initSync); update glueFactory()');
  }
  return `// Generated by scripts/build.mjs from wasm-bindgen's web glue: every createGlue() is a fresh copy.\nexport function createGlue() {\n${body}\nreturn { ${names.join(', ')} };\n}\n`;
}

/**
 * The stable diagnostic codes, in source order, from bin/diagnostic-codes.json (generated from
 * the `codes` module of src/diagnostic.rs by tests/it/catalog_generated.rs, which fails on drift).
 */
export function diagnosticCodes() {
  const { codes } = JSON.parse(readFileSync(path.join(root, 'bin', 'diagnostic-codes.json'), 'utf8'));
  if (!Array.isArray(codes) || codes.length === 0)
    throw new Error('bin/diagnostic-codes.json lists no codes; run UPDATE_GENERATED=1 cargo test --test it catalog_generated');
  return codes.map((entry) => entry.code);
}

const CODES_MARKER = 'string /* @generated diagnostic codes */';

/** js/index.d.ts with the union of diagnostic codes written in. */
function declarations() {
  const text = readFileSync(path.join(root, 'js', 'index.d.ts'), 'utf8');
  if (!text.includes(CODES_MARKER)) throw new Error(`js/index.d.ts lost the marker \`${CODES_MARKER}\` that the build replaces with the diagnostic codes`);
  const union = diagnosticCodes()
    .map((code) => `\n  | '${code}'`)
    .join('');
  return text.replace(CODES_MARKER, union);
}

/**
 * The Node files, each generated as CommonJS from an ES module source of js/ (output: source).
 * Only the engine bundles web-core.mjs and the glue; the others require it, so that every Node
 * entry shares one instance. Every require left in them is a literal bundlers follow.
 */
const NODE_BUILDS = {
  'workload_map.cjs': 'node-engine.mjs',
  'node.cjs': 'node-cjs.mjs',
  'test-hooks.cjs': 'test-hooks-cjs.mjs',
};
const NODE_SOURCES = new Set(Object.values(NODE_BUILDS));

/** Generates the CommonJS files of NODE_BUILDS into `dir` (esbuild, a dev dependency). */
export async function writeNodeEntries(dir = pkgDir) {
  const esbuild = await import('esbuild');
  const version = packageVersion();
  // The sources import the glue and the inlined .wasm from pkg/ (they are built there), and
  // each other by their pkg/ names.
  const pkgFiles = {
    name: 'pkg-files',
    setup(build) {
      build.onResolve({ filter: /^\.\/workload_map(_cel)?\.web\.mjs$/ }, (args) => ({ path: path.join(dir, args.path.slice(2)) }));
      build.onResolve({ filter: /^\.\/(workload_map\.cjs|workload_map(_cel)?_bg\.inline\.mjs)$/ }, (args) => ({ path: args.path, external: true }));
    },
  };
  for (const [output, source] of Object.entries(NODE_BUILDS)) {
    const result = await esbuild.build({
      entryPoints: [path.join(root, 'js', source)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      plugins: [pkgFiles],
      legalComments: 'none',
      logLevel: 'warning',
    });
    const banner = `// Generated by scripts/build.mjs from js/${source} (CommonJS).\n`;
    writeFileSync(path.join(dir, output), banner + result.outputFiles[0].text.replaceAll('__WORKLOAD_MAP_VERSION__', version));
  }
}

/**
 * Step 4: the entry points, the inlined module and the declarations, next to the glue and the
 * optimised .wasm already in pkg/.
 */
export async function writeEntries() {
  const version = packageVersion();
  for (const file of readdirSync(path.join(root, 'js'))) {
    // js/element/ is bundled by scripts/element.mjs (buildElement); the Node sources by writeNodeEntries.
    if (file.endsWith('.d.ts') || NODE_SOURCES.has(file) || statSync(path.join(root, 'js', file)).isDirectory()) continue;
    const text = readFileSync(path.join(root, 'js', file), 'utf8');
    writeFileSync(path.join(pkgDir, file), text.replaceAll('__WORKLOAD_MAP_VERSION__', version));
  }
  // One text for both: ES `export` declarations in a .d.cts describe module.exports, which is
  // what node.cjs gives; the .d.mts has no default export, as node.mjs and web.mjs have none.
  const types = `// Generated by scripts/build.mjs from js/index.d.ts.\n${declarations()}`;
  writeFileSync(path.join(pkgDir, 'index.d.mts'), types);
  writeFileSync(path.join(pkgDir, 'index.d.cts'), types);
  const wasm = readFileSync(path.join(pkgDir, `${crateName}_bg.wasm`));
  writeFileSync(
    path.join(pkgDir, `${crateName}_bg.inline.mjs`),
    `// Generated by scripts/build.mjs: ${crateName}_bg.wasm (${wasm.length} bytes) as base64, for inline.mjs, element-inline.mjs and the Node engine inside a bundle.\nexport const wasmBase64 = '${wasm.toString('base64')}';\n`,
  );
  const cel = readFileSync(path.join(pkgDir, `${celName}_bg.wasm`));
  writeFileSync(
    path.join(pkgDir, `${celName}_bg.inline.mjs`),
    `// Generated by scripts/build.mjs: ${celName}_bg.wasm (${cel.length} bytes) as base64, for inline.mjs, element-inline.mjs and the Node engine inside a bundle.\nexport const celWasmBase64 = '${cel.toString('base64')}';\n`,
  );
  await writeNodeEntries(pkgDir);
}

export async function build() {
  const started = Date.now();
  if (packageVersion() !== cargoVersion()) {
    throw new Error(`package.json version ${packageVersion()} differs from Cargo.toml version ${cargoVersion()}`);
  }
  ensureBuildTools();

  const staging = path.join(root, 'target', 'pkg-staging');
  rmSync(staging, { recursive: true, force: true });
  const modules = [
    { crate: wasmCrate, name: crateName },
    { crate: celCrate, name: celName },
  ];
  const compiled = modules.map(({ crate }) => compileModule(crate));
  rmSync(pkgDir, { recursive: true, force: true });
  mkdirSync(pkgDir, { recursive: true });
  modules.forEach(({ name }, i) => {
    const glue = bindModule(compiled[i], name, { staging, wasmOut: path.join(pkgDir, `${name}_bg.wasm`) });
    writeFileSync(path.join(pkgDir, `${name}.web.mjs`), glueFactory(readFileSync(glue, 'utf8')));
  });

  step('write the entry points, the inlined module and the types');
  await writeEntries();
  rmSync(staging, { recursive: true, force: true });
  step('bundle workload-map/element (scripts/element.mjs)');
  await buildElement(pkgDir);

  const sizes = checkSize();
  console.log(`[build] pkg/ built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return sizes;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('--entries')) {
      await writeEntries();
      await buildElement(pkgDir);
      console.log('[build] pkg/ entry points and types rewritten from js/');
    } else {
      await build();
    }
  } catch (error) {
    console.error(`[build] ${error.message}`);
    process.exit(1);
  }
}
