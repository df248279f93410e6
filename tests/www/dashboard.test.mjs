// The dashboard example (www/dashboard.html) as `npm start` serves it: a List file picked in the
// page becomes the workloads table, and the playground links to it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { startPlayground } from './browser.mjs';
import { generatedList, root } from './element-checks.mjs';

let playground;

before(async () => {
  execFileSync(process.execPath, [join(root, 'www', 'build.mjs')], { stdio: 'inherit' });
  playground = await startPlayground();
});
after(() => playground?.close());

test('a picked List file is shown as the workloads table', async () => {
  const page = await playground.open('dashboard.html', { settle: false });
  const list = generatedList(12);
  await page.locator('#file').setInputFiles({ name: 'workloads.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(list)) });
  await page.locator('#table tr.row').nth(11).waitFor();
  assert.equal(await page.locator('#table tr.row').count(), 12);
  assert.match(await page.locator('#status').textContent(), /^12 workloads/);
  await page.close();
});

test('the playground links to the dashboard', async () => {
  const page = await playground.open('');
  await page.locator('a[href="dashboard.html"]').click();
  await page.locator('#table').waitFor({ state: 'attached' });
  assert.match(await page.title(), /dashboard/);
  await page.close();
});

test('the dashboard made no request beyond its own files and raised no error', () => {
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
});
