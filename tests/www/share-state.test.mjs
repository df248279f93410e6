// A share link keeps the page state besides the texts (issue 18, point 7): the tab shown, the
// selected role tree node, the Edit panel's preview and where a custom definition came from.
// The part of a link that holds it is untrusted input: only known fields of known types are kept.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runId, settled, sharedPlayground } from './browser.mjs';

const { decodeShare, encodeShare } = await import('../../www/src/state.js');
const playground = sharedPlayground();

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

test('a share link reopens on the same tab, node, edit preview and definition origin', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.locator('#definition-fork').click());
  const origin = await page.locator('#definition-source').textContent();
  assert.match(origin, /a copy of catalog entry/);
  await andSettle(page, () => page.locator('#edit-suspend').click());
  const verdict = await page.locator('#edit-result .edit-verdict').textContent();
  assert.match(verdict, /^Suspend: \d+ operation/);
  // A run draws the tree again (without a selection): the node is selected after the last one.
  const nodes = page.locator('#tree .node');
  assert.ok((await nodes.count()) > 2);
  await nodes.nth(2).click();
  assert.equal(await nodes.nth(2).getAttribute('aria-pressed'), 'true');
  await page.getByRole('tab', { name: 'JSON' }).click();
  await page.locator('#share').click();
  await page.waitForFunction(() => document.getElementById('share').dataset.url);
  const url = await page.locator('#share').getAttribute('data-url');
  await page.close();

  const opened = await playground.open(url.slice(playground.url.length));
  assert.equal(await opened.getByRole('tab', { name: 'JSON' }).getAttribute('aria-selected'), 'true');
  assert.equal(await opened.locator('#tab-overview').isHidden(), true);
  assert.equal(await opened.locator('#definition-source').textContent(), origin);
  assert.equal(await opened.locator('#edit-result .edit-verdict').textContent(), verdict);
  await opened.waitForFunction(() => document.querySelectorAll('#tree .node')[2]?.getAttribute('aria-pressed') === 'true');
  assert.equal(await opened.locator('#tree .node[aria-pressed="true"]').count(), 1);
  await opened.close();
});

test('a link keeps only the known page state fields, of the known types', async () => {
  const state = { definition: 'kind: Karta\n', manifest: '', mode: 'custom', options: {} };
  const hostile = { tab: '"]<img>', node: -1, origin: 42, merge: { no: 1 }, edit: { action: 'delete', component: 'x' }, extra: 'x' };
  const read = await decodeShare(`#${await encodeShare({ ...state, ui: hostile }, '1')}`);
  assert.deepEqual(read.ui, {});
  const good = { tab: 'json', node: 3, origin: 'drafted from Foo', merge: '{}', edit: { action: 'pod', component: 'w', instance: 'a', merge: '{}', other: 1 } };
  const kept = await decodeShare(`#${await encodeShare({ ...state, ui: good }, '1')}`);
  assert.deepEqual(kept.ui, { ...good, edit: { action: 'pod', component: 'w', instance: 'a', merge: '{}' } });
  // A link made before the page state travelled has none.
  assert.equal((await decodeShare(`#${await encodeShare(state, '1')}`)).ui, undefined);
});

test('the share links raised no error', () => {
  assert.deepEqual(playground.errors, []);
});
