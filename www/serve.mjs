// Serves www/dist/ on 127.0.0.1 and prints the URL. Static files only; no directory listings,
// nothing outside dist/. PORT picks the port (default 8080; 0 = any free port).

import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), 'dist');
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

export function serve(port = Number(process.env.PORT ?? 8080)) {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error('www/dist is not built: run `node www/build.mjs` first');
  }
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(dist, pathname === '/' ? 'index.html' : pathname));
    if (!file.startsWith(dist + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolvePromise({ server, url: `http://127.0.0.1:${address.port}/` });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  try {
    const wanted = process.env.PORT;
    const { url } = await serve().catch((error) => {
      // 8080 taken and no port asked for: any free port will do.
      if (error.code === 'EADDRINUSE' && wanted === undefined) return serve(0);
      throw error;
    });
    console.log(`workload-map playground: ${url}`);
  } catch (error) {
    console.error(`www/serve.mjs: ${error.message}`);
    process.exit(1);
  }
}
