// `npm start`: installs what it needs, builds pkg/ and the playground, serves www/dist/ on
// 127.0.0.1 and prints the URL (PORT from the environment, 8080 by default).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { build } from './build.mjs';
import { root } from './toolchain.mjs';

try {
  await build();
  const playground = spawnSync(process.execPath, [path.join(root, 'www', 'build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (playground.status !== 0) throw new Error('www/build.mjs failed');
  const { serveAndPrint } = await import('../www/serve.mjs');
  await serveAndPrint();
  console.log('(Ctrl-C to stop)');
} catch (error) {
  console.error(`[start] ${error.message}`);
  process.exit(1);
}
