// axe-core on the playground (issue 18, point 5): no critical or serious violation on the default
// page, with a List with pods and the Edit preview open, and in dark mode; also with the examples
// gallery open and the editors' URL rows shown. CodeMirror's own
// scroller is exempt from `scrollable-region-focusable`: its content (the editor) takes focus.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { root, runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

const PODS_LIST = readFileSync(join(root, 'tests', 'node', 'fixtures', 'jobset-with-pods-list.yaml'), 'utf8');

/** The critical and serious violations, one line per rule with where it is. */
async function violations(page) {
  const found = await new AxeBuilder({ page }).analyze();
  return found.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({
      ...v,
      nodes: v.nodes.filter((n) => !(v.id === 'scrollable-region-focusable' && n.html.includes('class="cm-scroller"'))),
    }))
    .filter((v) => v.nodes.length > 0)
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`).join('; ')}`,
    );
}

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

test('the default page has no critical or serious axe violation', async () => {
  const page = await playground.open();
  assert.deepEqual(await violations(page), []);
  await page.close();
});

test('a List with pods and the Edit preview open have no critical or serious axe violation', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), PODS_LIST));
  await page.locator('#tree li.pod').first().waitFor();
  await andSettle(page, () => page.locator('#edit-suspend').click());
  await page.locator('#edit-result pre').first().waitFor();
  assert.deepEqual(await violations(page), []);
  await page.close();
});

test('dark mode has no critical or serious axe violation', async () => {
  const page = await playground.open('', { colorScheme: 'dark' });
  assert.deepEqual(await violations(page), []);
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), PODS_LIST));
  await andSettle(page, () => page.locator('#edit-suspend').click());
  assert.deepEqual(await violations(page), []);
  await page.close();
});

test('the examples gallery, open and searched, and the URL rows have no critical or serious axe violation, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await playground.open('', { colorScheme });
    for (const id of ['definition-url', 'manifest-url']) await page.locator(`#${id}`).click();
    assert.deepEqual(await violations(page), [], `${colorScheme}, URL rows open`);
    await page.locator('#examples').click();
    await page.locator('#gallery-search').fill('group:ray.io');
    assert.deepEqual(await violations(page), [], `${colorScheme}, gallery open`);
    await page.close();
  }
});
