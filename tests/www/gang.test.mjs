// The Gang panel says whether a group's minAvailable is met by its ready pods (issue 18, point
// 9): 2 of 3 ready against a minimum of 3 reads as not schedulable as a gang. Which pods are
// ready comes from the fixture's own Ready conditions, never written here.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { runId, settled, root, sharedPlayground } from './browser.mjs';

const listText = readFileSync(join(root, 'tests', 'node', 'fixtures', 'jobset-with-pods-list.yaml'), 'utf8');
const playground = sharedPlayground();

const isReady = (pod) => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

async function withManifest(text) {
  const page = await playground.open();
  const before = await runId(page);
  await page.evaluate((t) => window.playground.setManifest(t), text);
  await settled(page, before);
  return page;
}

test('a gang with fewer ready pods than minAvailable reads as not schedulable as a gang', async () => {
  const list = parse(listText);
  const page = await withManifest(listText);
  const group = page.locator('#gang li.group');
  const names = await group.locator('.group-pods code').allTextContents();
  const ready = list.items.filter((o) => o.kind === 'Pod' && names.includes(o.metadata.name) && isReady(o)).length;
  assert.equal(names.length, 3);
  assert.equal(ready, 2);
  const line = group.locator('.group-ready');
  assert.equal(await line.textContent(), '2 of 3 pods ready, minAvailable 3: not schedulable as a gang');
  assert.equal(await line.getAttribute('data-met'), 'false');
  await page.close();
});

test('a gang whose pods are all ready meets its minAvailable', async () => {
  const list = parse(listText);
  for (const pod of list.items.filter((o) => o.kind === 'Pod' && !isReady(o))) {
    pod.spec.nodeName = 'gpu-node-3';
    pod.status = {
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
    };
  }
  const page = await withManifest(stringify(list));
  const line = page.locator('#gang li.group .group-ready');
  assert.equal(await line.textContent(), '3 of 3 pods ready, minAvailable 3: the gang is met');
  assert.equal(await line.getAttribute('data-met'), 'true');
  await page.close();
});

test('without pods the Gang panel says nothing about readiness', async () => {
  const list = parse(listText);
  list.items = list.items.filter((o) => o.kind !== 'Pod' && o.kind !== 'Job');
  const page = await withManifest(stringify(list));
  await page.locator('#gang li.group').first().waitFor();
  assert.equal(await page.locator('#gang .group-ready').count(), 0);
  await page.close();
});

test('the gang tests raised no error', () => {
  assert.deepEqual(playground.errors, []);
});
