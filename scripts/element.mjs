// Builds `workload-map/element` into pkg/ (called by build.mjs after the entry points are
// copied; `node scripts/element.mjs` rebuilds only this part):
//
//   pkg/element.mjs         <workload-map-view> and <workload-map-table> (js/element/index.mjs with
//                           the renderer the playground uses too, js/render/render.js, format.js, dom.js)
//   pkg/element-worker.mjs  the worker core (js/render/worker.js) for the elements
//   pkg/element.d.ts        their types (js/element/element.d.ts)
//
// Both bundles import the package's own web entry (`./web.mjs`, left as an import so a page
// loads the engine glue once) and find the .wasm next to themselves.
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

export async function buildElement(pkgDir = path.join(root, 'pkg')) {
  await esbuild.build({
    entryPoints: { element: path.join(source, 'index.mjs'), 'element-worker': path.join(source, 'worker-entry.mjs') },
    outdir: pkgDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    loader: { '.css': 'text' },
    plugins: [webEntry],
    legalComments: 'none',
    // The package's `sideEffects` speaks for pkg/; these sources register elements and start a
    // worker when imported, which is all they are imported for.
    ignoreAnnotations: true,
    logLevel: 'warning',
  });
  copyFileSync(path.join(source, 'element.d.ts'), path.join(pkgDir, 'element.d.ts'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildElement();
  console.log('[build] pkg/element.mjs, pkg/element-worker.mjs, pkg/element.d.ts');
}
