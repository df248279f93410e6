// `npm start`: installs what it needs, builds pkg/ and the playground, serves www/dist/ on
// 127.0.0.1 and prints the URL (PORT from the environment, 8080 by default). Each phase says how
// long it took: on a new machine the first one builds tools for minutes (CONTRIBUTING.md, "A
// cold run", has the figures).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { build } from './build.mjs';
import { ensureBuildTools, root } from './toolchain.mjs';

const started = Date.now();
const phases = [];

async function phase(title, action) {
  console.log(`[start] ${title}`);
  const begun = Date.now();
  await action();
  phases.push(`${title} ${((Date.now() - begun) / 1000).toFixed(0)} s`);
}

try {
  await phase('tools (npm dependencies, the wasm32 target, the wasm-bindgen CLI: minutes on a new machine, nothing after)', () => ensureBuildTools());
  await phase('package (pkg/: the two .wasm modules, their glue and entries)', () => build());
  await phase('playground (www/dist)', () => {
    const playground = spawnSync(process.execPath, [path.join(root, 'www', 'build.mjs')], {
      cwd: root,
      stdio: 'inherit',
    });
    if (playground.status !== 0) throw new Error('www/build.mjs failed');
  });
  const { serveAndPrint } = await import('../www/serve.mjs');
  console.log(`[start] ready in ${((Date.now() - started) / 1000).toFixed(0)} s: ${phases.join(', ')}`);
  await serveAndPrint();
  console.log('(Ctrl-C to stop)');
} catch (error) {
  console.error(`[start] ${error.message}`);
  process.exit(1);
}
