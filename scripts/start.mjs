// `npm start`: builds pkg/ and serves the repository on http://127.0.0.1:PORT/ (PORT from the
// environment, 8080 by default). The playground extends this with its own build.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { build } from './build.mjs';
import { serve } from './serve.mjs';
import { root } from './toolchain.mjs';

try {
  build();
} catch (error) {
  console.error(`[start] ${error.message}`);
  process.exit(1);
}
const port = Number(process.env.PORT ?? 8080);
const { url } = await serve(root, { port });
const page = existsSync(path.join(root, 'www', 'index.html')) ? 'www/' : 'tests/browser/page/';
console.log(`[start] serving at ${url}${page} (Ctrl-C to stop)`);
