// <workload-map-view> and <workload-map-table> in a plain HTML page with no bundler: the page
// (tests/www/element/index.html) loads /pkg/element.mjs as the package ships it, from a tiny
// static server on the repository root. Needs `npm run build` (pkg/). Checks: element-checks.mjs.
import assert from 'node:assert/strict';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

import { test } from 'node:test';

import { chromium } from 'playwright-core';
import { parse } from 'yaml';

import { elementChecks, root } from './element-checks.mjs';

const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

/** The README's embedding example as a page; the import map stands in for a bundler resolving the package name. */
function readmePage() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const example = /### Embedding in a page[\s\S]*?```html\n([\s\S]*?)```/.exec(readme);
  if (!example) throw new Error('README.md has no embedding example');
  const importMap = JSON.stringify({ imports: { 'workload-map/element': '/pkg/element.mjs' } });
  return `<!doctype html><meta charset="utf-8"><script type="importmap">${importMap}</script>\n${example[1]}`;
}

/** The object the README example fetches: the catalog's running JobSet. */
const jobset = parse(readFileSync(join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'tests', 'running.yaml'), 'utf8')).object;

/** `/` is the test page; `/pkg/...` the built package; `/readme/` the README's example. Nothing else is served. */
function start() {
  if (!existsSync(join(root, 'pkg', 'element.mjs'))) throw new Error('pkg/element.mjs is missing: run `npm run build` first');
  const server = createServer((request, response) => {
    const pathname = new URL(request.url, 'http://localhost').pathname;
    if (pathname === '/readme/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(readmePage());
      return;
    }
    if (pathname === '/readme/jobset.json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jobset));
      return;
    }
    const file = pathname === '/' ? join(root, 'tests', 'www', 'element', 'index.html') : resolve(root, `.${pathname}`);
    if (!(pathname === '/' || file.startsWith(join(root, 'pkg') + sep)) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((closed) => server.close(closed)) }),
    ),
  );
}

elementChecks(start);

test('the README embedding example works as written', async () => {
  const served = await start();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${served.url}readme/`);
    const chip = page.locator('#view .headline .chip').first();
    await chip.waitFor();
    assert.deepEqual(await page.locator('#view section:not([hidden])').evaluateAll((s) => s.map((e) => e.dataset.section)), ['resources', 'tree', 'phase']);
    assert.equal(await page.locator('#view .stat-gpu .value').evaluate((e) => getComputedStyle(e).color), 'rgb(102, 51, 153)');
    assert.equal(await chip.evaluate((e) => getComputedStyle(e).borderTopLeftRadius), '4px');
    const logged = page.waitForEvent('console');
    await page.locator('#view .tree .component > .node').first().click();
    assert.match((await logged).text(), /^jobset\b/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await served.close();
  }
});
