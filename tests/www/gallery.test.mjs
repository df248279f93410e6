// The examples gallery (issue 18, "what authors expect"): the catalog's definitions and examples
// in a searchable dialog instead of a select of every item. Searched by kind, group, type and
// name, operated from the keyboard, clean under axe-core, and usable at the three widths.
// What is expected is read from catalog/ with the build's own reader, never written here.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { readCatalog } from '../../www/catalog.mjs';
import { root, runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();
const catalog = readCatalog(join(root, 'catalog'));
const TOTAL = 1 + catalog.reduce((sum, d) => sum + 1 + d.examples.length, 0);

const shownKinds = (page) => page.locator('#gallery-list .gallery-group[data-kind]').evaluateAll((all) => [...new Set(all.map((g) => g.dataset.kind))].sort());
const shownItems = (page) => page.locator('#gallery-list button.gallery-item').count();

test('the gallery replaces the select and is searched by group, kind, type and name', async () => {
  const page = await playground.open();
  assert.equal(await page.locator('select#examples').count(), 0);
  await page.locator('#examples').click();
  assert.equal(await page.locator('#gallery').evaluate((d) => d.open), true);
  assert.equal(await shownItems(page), TOTAL);
  assert.equal(await page.locator('#gallery-count').textContent(), `${TOTAL} examples and definitions`);

  const ray = catalog.filter((d) => d.apiVersion.startsWith('ray.io/'));
  assert.ok(ray.length >= 2);
  await page.locator('#gallery-search').fill('group:ray.io');
  assert.deepEqual(await shownKinds(page), ray.map((d) => d.kind).sort());
  assert.equal(
    await shownItems(page),
    ray.reduce((sum, d) => sum + 1 + d.examples.length, 0),
  );
  assert.equal(await page.locator('#gallery-count').textContent(), `${await shownItems(page)} of ${TOTAL} match`);

  // A plain word looks in every field, and words narrow each other down.
  const rayJob = ray.find((d) => d.kind === 'RayJob') ?? ray[0];
  await page.locator('#gallery-search').fill(`ray.io ${rayJob.kind}`);
  assert.deepEqual(await shownKinds(page), [rayJob.kind]);
  await page.locator('#gallery-search').fill(`type:${rayJob.apiVersion}/${rayJob.kind}`);
  assert.deepEqual(await shownKinds(page), [rayJob.kind]);

  // By name: an example's file name.
  const example = rayJob.examples[0];
  await page.locator('#gallery-search').fill(`kind:${rayJob.kind} name:${example.file}`);
  const labels = await page.locator('#gallery-list button.gallery-item').allTextContents();
  assert.ok(
    labels.some((l) => l.includes(example.description)),
    labels.join('\n'),
  );
  assert.ok(labels.length < 1 + rayJob.examples.length, `${labels.length} items for one file name`);

  await page.locator('#gallery-search').fill('kind:NoSuchKindAnywhere');
  assert.equal(await shownItems(page), 0);
  assert.equal(await page.locator('#gallery-count').textContent(), 'Nothing matches "kind:NoSuchKindAnywhere"');
  await page.close();
});

test('the gallery is operated from the keyboard: open, search, arrows, Enter loads, Esc closes', async () => {
  const page = await playground.open();
  const entry = catalog.find((d) => d.kind === 'RayCluster' && d.examples.length >= 2) ?? catalog.find((d) => d.examples.length >= 2);
  await page.locator('#examples').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'gallery-search');
  await page.keyboard.type(`kind:${entry.kind} group:${entry.apiVersion.split('/')[0]}`);
  // ↓ to the first item (the definition only), ↓ again to the first example.
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'definition only');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  const before = await runId(page);
  await page.keyboard.press('Enter');
  await settled(page, before);
  assert.equal(await page.locator('#gallery').evaluate((d) => d.open), false);
  assert.equal(await page.evaluate(() => window.playground.state.manifest), entry.examples[0].text);
  assert.equal(await page.evaluate(() => window.playground.mode), 'catalog');
  // Enter in the field loads the first match; Esc closes without loading.
  await page.locator('#examples').click();
  await page.keyboard.type('kind:NoSuchKindAnywhere');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#gallery').evaluate((d) => d.open), false);
  assert.equal(await page.evaluate(() => window.playground.state.manifest), entry.examples[0].text);
  await page.close();
});

test('the open gallery has no critical or serious axe violation, in light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await playground.open('', { colorScheme });
    await page.locator('#examples').click();
    await page.locator('#gallery-search').fill('ray');
    const found = await new AxeBuilder({ page }).include('#gallery').analyze();
    assert.deepEqual(
      found.violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`),
      [],
      colorScheme,
    );
    await page.close();
  }
});

for (const [width, height] of [
  [390, 844],
  [768, 1024],
  [1440, 900],
]) {
  test(`at ${width}×${height} the open gallery fits the window and its controls are reachable`, async () => {
    const page = await playground.open();
    await page.setViewportSize({ width, height });
    await page.locator('#examples').click();
    const box = await page.locator('#gallery').evaluate((d) => {
      const r = d.getBoundingClientRect();
      const list = document.getElementById('gallery-list');
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, listOverflow: list.scrollWidth - list.clientWidth };
    });
    assert.ok(box.left >= 0 && box.right <= width && box.top >= 0 && box.bottom <= height, JSON.stringify(box));
    assert.ok(box.listOverflow <= 0, `the list is ${box.listOverflow} px too wide`);
    for (const selector of ['#gallery-search', '#gallery-close', '#gallery-list button.gallery-item >> nth=5']) {
      const control = page.locator(selector);
      await control.scrollIntoViewIfNeeded();
      const hit = await control.evaluate((e) => {
        const r = e.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return at === e || e.contains(at);
      });
      assert.ok(hit, `${selector} is covered`);
    }
    await page.close();
  });
}

test('the gallery made no request beyond the playground and raised no error', () => {
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
});
