// What a keystroke costs on the page (issue 21, item 6): the local draft is written to IndexedDB
// off the keystroke (not a synchronous localStorage write of both texts), and the JSON tab writes
// the view out only when it is shown.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

test('the draft is kept in IndexedDB, not localStorage, and an older localStorage draft is read and moved', async () => {
  const page = await playground.open();
  const manifest = (await page.evaluate(() => window.playground.state.manifest)).replace('replicas: 2', 'replicas: 5');
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), manifest));
  const stored = () =>
    page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const open = indexedDB.open('workload-map');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('drafts')) return resolve(null);
            const get = db.transaction('drafts').objectStore('drafts').get('workload-map:draft');
            get.onsuccess = () => resolve(get.result?.manifest ?? null);
          };
        }),
    );
  await page.waitForTimeout(700);
  assert.equal(await stored(), manifest);
  assert.equal(await page.evaluate(() => localStorage.getItem('workload-map:draft')), null);
  await page.reload();
  await settled(page);
  assert.equal(await page.evaluate(() => window.playground.state.manifest), manifest);

  // A page from before kept its draft in localStorage: it is shown, then moved.
  const context = page.context();
  const older = await context.newPage();
  await older.goto(`${playground.url}dashboard.html`);
  await older.evaluate(() => indexedDB.deleteDatabase('workload-map'));
  const legacy = manifest.replace('replicas: 5', 'replicas: 7');
  await older.evaluate(
    (text) => localStorage.setItem('workload-map:draft', JSON.stringify({ v: 1, definition: '', manifest: text, mode: 'catalog', options: {} })),
    legacy,
  );
  await older.close();
  await page.reload();
  await settled(page);
  assert.equal(await page.evaluate(() => window.playground.state.manifest), legacy);
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), legacy.replace('replicas: 7', 'replicas: 6')));
  await page.waitForTimeout(700);
  assert.equal(await page.evaluate(() => localStorage.getItem('workload-map:draft')), null);
  await page.close();
});

test('the JSON tab writes the view out when it is shown, not at every result', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.evaluate(() => window.playground.setManifest(window.playground.state.manifest.replace('replicas: 2', 'replicas: 3'))));
  assert.equal(await page.locator('#json').evaluate((e) => e.textContent), '');
  await page.getByRole('tab', { name: 'JSON' }).click();
  const view = JSON.parse(await page.locator('#json').textContent());
  assert.equal(view.resources.gpus, 16);
  // While it is shown, a new result is written at once.
  await andSettle(page, () => page.evaluate(() => window.playground.setManifest(window.playground.state.manifest.replace('replicas: 3', 'replicas: 1'))));
  assert.equal(JSON.parse(await page.locator('#json').textContent()).resources.gpus, 8);
  await page.close();
});

test('no error was raised', () => {
  assert.deepEqual(playground.errors, []);
});
