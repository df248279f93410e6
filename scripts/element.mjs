// Builds `workload-map/element` into pkg/ (called by build.mjs after the entry points are
// written; `node scripts/element.mjs` rebuilds only this part):
//
//   pkg/element.mjs         <workload-map-view> and <workload-map-table> (js/element/index.mjs with
//                           the renderer the playground uses too, js/render/render.js, format.js, dom.js)
//   pkg/element-worker.mjs  the worker core (js/render/worker.js) for the elements
//   pkg/element-inline.mjs  `workload-map/element/inline`: the same elements with the worker's
//                           source inside (load-inline.mjs); they import web.mjs and the .wasm as
//                           base64 (workload_map_bg.inline.mjs), which a bundler takes in
//   pkg/element.d.mts       their types (js/element/element.d.mts)
//
// element.mjs and its worker import the package's own web entry (`./web.mjs`, left as an import
// so a page loads the engine glue once) and find the worker and the .wasm next to themselves.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

import { root } from './toolchain.mjs';

const source = path.join(root, 'js', 'element');

/** `workload-map` (in the worker core) and `../web.mjs` (in js/element) are the package's web entry beside the bundle. */
const webEntry = {
  name: 'web-entry',
  setup(build) {
    build.onResolve({ filter: /^(workload-map|\.\.\/web\.mjs)$/ }, () => ({ path: './web.mjs', external: true }));
  },
};

const common = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  loader: { '.css': 'text' },
  legalComments: 'none',
  // Whitespace and comments out (names kept): the shipped size does not follow how the sources
  // are laid out (esbuild keeps their line breaks otherwise).
  minifyWhitespace: true,
  // The package's `sideEffects` speaks for pkg/; these sources register elements and start a
  // worker when imported, which is all they are imported for.
  ignoreAnnotations: true,
  logLevel: 'warning',
};

/**
 * The inline build: load.mjs is load-inline.mjs; `element-worker-source` is the worker's source
 * as text, which bundles pkg/'s web entry (a blob: worker imports nothing); the elements import
 * the web entry and the inlined .wasm beside them, which the user's bundler takes in.
 */
function inlineFiles(pkgDir, workerSource) {
  return {
    name: 'inline-files',
    setup(build) {
      if (workerSource === undefined) {
        build.onResolve({ filter: /^(workload-map|\.\.\/web\.mjs)$/ }, () => ({ path: path.join(pkgDir, 'web.mjs') }));
      } else {
        build.onResolve({ filter: /^\.\.\/(web\.mjs|workload_map(_cel)?_bg\.inline\.mjs)$/ }, (args) => ({ path: args.path.slice(1), external: true }));
      }
      build.onResolve({ filter: /^\.\/load\.mjs$/ }, () => ({ path: path.join(source, 'load-inline.mjs') }));
      build.onResolve({ filter: /^element-worker-source$/ }, () => ({ path: 'element-worker-source', namespace: 'inline' }));
      build.onLoad({ filter: /.*/, namespace: 'inline' }, () => ({ contents: workerSource ?? '', loader: 'text' }));
    },
  };
}

export async function buildElement(pkgDir = path.join(root, 'pkg')) {
  await esbuild.build({
    ...common,
    entryPoints: { element: path.join(source, 'index.mjs'), 'element-worker': path.join(source, 'worker-entry.mjs') },
    outdir: pkgDir,
    outExtension: { '.js': '.mjs' },
    plugins: [webEntry],
  });
  const worker = await esbuild.build({
    ...common,
    entryPoints: [path.join(source, 'worker-inline-entry.mjs')],
    write: false,
    minify: true,
    plugins: [inlineFiles(pkgDir)],
  });
  await esbuild.build({
    ...common,
    entryPoints: [path.join(source, 'index.mjs')],
    outfile: path.join(pkgDir, 'element-inline.mjs'),
    plugins: [inlineFiles(pkgDir, worker.outputFiles[0].text)],
  });
  copyFileSync(path.join(source, 'element.d.mts'), path.join(pkgDir, 'element.d.mts'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildElement();
  console.log('[build] pkg/element.mjs, pkg/element-worker.mjs, pkg/element-inline.mjs, pkg/element.d.mts');
}
