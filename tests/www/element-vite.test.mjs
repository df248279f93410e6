// <workload-map-view> and <workload-map-table> inside a page built by Vite, as an app that
// depends on the package builds it: tests/www/element-vite/ (`import 'workload-map/element'`) is
// copied into a fresh project whose node_modules/workload-map links to this repository, built
// with `vite build`, and served. Needs `npm run build` (pkg/). Checks: element-checks.mjs.
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { build } from 'vite';

import { serve } from '../../scripts/serve.mjs';
import { elementChecks, root } from './element-checks.mjs';

async function start() {
  if (!existsSync(join(root, 'pkg', 'element.mjs'))) throw new Error('pkg/element.mjs is missing: run `npm run build` first');
  const app = join(root, 'test-results', 'element-vite-app');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  cpSync(join(root, 'tests', 'www', 'element-vite'), app, { recursive: true });
  symlinkSync(root, join(app, 'node_modules', 'workload-map'), 'dir');
  await build({ root: app, configFile: false, logLevel: 'warn', build: { outDir: join(app, 'dist'), emptyOutDir: true } });
  const { url, close } = await serve(join(app, 'dist'));
  return { url, close };
}

elementChecks(start);
