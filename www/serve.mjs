// Serves the built playground (www/dist/) on 127.0.0.1 and prints the URL. Static files only,
// nothing outside dist/. PORT picks the port (default 8080, falling back to any free port when
// 8080 is taken; 0 = any free port).
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serve as serveDirectory } from '../scripts/serve.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), 'dist');

export function serve(port = Number(process.env.PORT ?? 8080)) {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error('www/dist is not built: run `node www/build.mjs` first');
  }
  return serveDirectory(dist, { port });
}

export async function serveAndPrint() {
  const wanted = process.env.PORT;
  const { url } = await serve().catch((error) => {
    if (error.code === 'EADDRINUSE' && wanted === undefined) return serve(0);
    throw error;
  });
  console.log(`workload-map playground: ${url}`);
  return url;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  try {
    await serveAndPrint();
  } catch (error) {
    console.error(`www/serve.mjs: ${error.message}`);
    process.exit(1);
  }
}
