// Builds the playground into www/dist/: static files only (HTML, CSS, two JS bundles, the
// engine's .wasm). The examples picker is generated here from catalog/, so there is never a
// second hand-kept copy. Prints the JS + wasm sizes (raw and gzip) at the end.
//
//   node www/build.mjs            build once
//   node www/build.mjs --watch    rebuild on change (development)

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, copyFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { readCatalog } from './catalog.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const dist = join(here, 'dist');
const watch = process.argv.includes('--watch');

/** Picks the entry a browser gets from an `exports` condition tree. */
function pickCondition(target) {
  if (typeof target === 'string') return target;
  if (!target || typeof target !== 'object') return undefined;
  for (const condition of ['browser', 'import', 'default']) {
    const found = pickCondition(target[condition]);
    if (found && !found.endsWith('.d.ts')) return found;
  }
  return undefined;
}

/** Where the package's browser entry and its .wasm are, read from the root package.json. */
function locateEngine() {
  const override = process.env.WWW_ENGINE_ENTRY;
  if (override) {
    return { entry: resolve(override), wasm: resolve(process.env.WWW_ENGINE_WASM ?? '') };
  }
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const exportsMap = manifest.exports ?? {};
  const main = typeof exportsMap === 'string' ? exportsMap : pickCondition(exportsMap['.'] ?? exportsMap);
  const wasmKey = Object.keys(exportsMap).find((key) => key.endsWith('.wasm') || key === './wasm');
  const wasm = wasmKey ? pickCondition(exportsMap[wasmKey]) : findWasm(join(root, 'pkg'));
  const entry = main ?? manifest.browser ?? manifest.module;
  if (!entry || !wasm || !existsSync(join(root, entry)) || !existsSync(join(root, wasm))) {
    console.error(
      'www/build.mjs: the workload-map package is not built (no browser entry or .wasm found ' + 'through package.json "exports"). Run `npm run build` first.',
    );
    process.exit(1);
  }
  return { entry: join(root, entry), wasm: join(root, wasm) };
}

/** The package's CEL module, beside its main .wasm. */
function celWasm() {
  const path = join(dirname(engine.wasm), 'workload_map_cel_bg.wasm');
  if (!existsSync(path)) {
    console.error('www/build.mjs: the package has no workload_map_cel_bg.wasm beside its .wasm: run `npm run build` first.');
    process.exit(1);
  }
  return path;
}

function findWasm(dir) {
  if (!existsSync(dir)) return undefined;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      const found = findWasm(path);
      if (found) return found;
    } else if (name.endsWith('.wasm')) {
      return relative(root, path);
    }
  }
  return undefined;
}

const engine = locateEngine();
const catalog = readCatalog(resolve(process.env.WWW_CATALOG_DIR ?? join(root, 'catalog')));
const catalogVersion = createHash('sha256').update(JSON.stringify(catalog)).digest('hex').slice(0, 8);

// The page bundles only the picker's index and the default (JobSet) definition; the texts of all
// examples are fetched from examples.json when one is chosen.
const jobset = catalog.find((d) => d.kind === 'JobSet' && d.apiVersion.startsWith('jobset.x-k8s.io/'));
const examplesIndex = {
  catalogVersion,
  defaultDefinition: jobset?.text,
  definitions: catalog.map(({ name, dir, apiVersion, kind, examples }) => ({
    name,
    dir,
    apiVersion,
    kind,
    examples: examples.map(({ file, description }) => ({ file, description })),
  })),
};

/** `virtual:examples` is the catalog's index, read at build time. */
const examplesPlugin = {
  name: 'examples',
  setup(build) {
    build.onResolve({ filter: /^virtual:examples$/ }, () => ({ path: 'examples', namespace: 'virtual' }));
    build.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({
      contents: `export default ${JSON.stringify(examplesIndex)};`,
      loader: 'js',
    }));
  },
};

/**
 * `workload-map/test-hooks`: the package's internal test hooks beside its web entry (not in its
 * `exports`; the worker traps the engine with them when an end-to-end test asks).
 */
const testHooksPlugin = {
  name: 'test-hooks',
  setup(build) {
    build.onResolve({ filter: /^workload-map\/test-hooks$/ }, () => ({ path: join(dirname(engine.entry), 'test-hooks.mjs') }));
  },
};

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
copyFileSync(join(here, 'index.html'), join(dist, 'index.html'));
copyFileSync(join(here, 'src', 'style.css'), join(dist, 'style.css'));
copyFileSync(engine.wasm, join(dist, 'engine.wasm'));
// The CEL module, beside the engine's: the worker fetches it only for a definition that holds CEL.
copyFileSync(celWasm(), join(dist, 'engine-cel.wasm'));
writeFileSync(join(dist, 'examples.json'), JSON.stringify({ catalogVersion, definitions: catalog }));
copyDashboard();

const options = {
  entryPoints: { main: join(here, 'src', 'main.js'), worker: join(here, 'src', 'worker.js') },
  outdir: dist,
  bundle: true,
  format: 'esm',
  minify: !watch,
  sourcemap: watch,
  target: 'es2022',
  alias: { 'workload-map': engine.entry },
  loader: { '.yaml': 'text' },
  plugins: [examplesPlugin, testHooksPlugin],
  logLevel: 'warning',
  // The engine's glue may mention Node modules behind runtime checks; a browser never loads them.
  external: ['fs', 'path', 'url', 'module', 'node:*'],
};

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log('www/build.mjs: watching for changes');
} else {
  await esbuild.build(options);
  report();
}

function report() {
  const files = ['main.js', 'worker.js', 'engine.wasm'];
  const examplesBytes = readFileSync(join(dist, 'examples.json'));
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(join(dist, file));
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += zipped;
    console.log(`  ${file.padEnd(12)} ${kb(bytes.length).padStart(10)} ${kb(zipped).padStart(10)} gzip`);
  }
  console.log(`  ${'JS + wasm'.padEnd(12)} ${kb(raw).padStart(10)} ${kb(gzip).padStart(10)} gzip`);
  console.log(
    `  ${'examples'.padEnd(12)} ${kb(examplesBytes.length).padStart(10)} ${kb(gzipSync(examplesBytes, { level: 9 }).length).padStart(10)} gzip (fetched when an example is chosen)`,
  );
  const examples = catalog.reduce((sum, d) => sum + d.examples.length, 0);
  console.log(`www/dist built: ${catalog.length} catalog definitions, ${examples} examples (catalog ${catalogVersion})`);
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * The dashboard example (dashboard.html): the package's element as it ships (pkg/element.mjs,
 * its worker, the web entry and the .wasm) in dist/element/, loaded without a bundler.
 */
function copyDashboard() {
  const pkg = dirname(engine.wasm);
  const files = ['element.mjs', 'element-worker.mjs', 'web.mjs', 'web-core.mjs', 'workload_map.web.mjs', 'workload_map_cel.web.mjs'];
  const missing = files.filter((file) => !existsSync(join(pkg, file)));
  if (missing.length) {
    console.error(`www/build.mjs: the package has no ${missing.join(', ')}: run \`npm run build\` first.`);
    process.exit(1);
  }
  mkdirSync(join(dist, 'element'), { recursive: true });
  for (const file of files) copyFileSync(join(pkg, file), join(dist, 'element', file));
  copyFileSync(engine.wasm, join(dist, 'element', 'workload_map_bg.wasm'));
  copyFileSync(celWasm(), join(dist, 'element', 'workload_map_cel_bg.wasm'));
  copyFileSync(join(here, 'dashboard.html'), join(dist, 'dashboard.html'));
  copyFileSync(join(here, 'src', 'dashboard.css'), join(dist, 'dashboard.css'));
  copyFileSync(join(here, 'src', 'dashboard.js'), join(dist, 'dashboard.js'));
}
