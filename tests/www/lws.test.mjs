// A LeaderWorkerSet shows its groups (issue 18, point 2): the `group` node of the role tree says
// "× N" and the resources table has no row of dashes for it. The numbers come from the core (the
// package's Node entry on the same object), never written here.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { parse } from 'yaml';
import { root, runId, settled, sharedPlayground } from './browser.mjs';

const entry = join(root, 'catalog', 'leaderworkerset-x-k8s-io-leaderworkerset-v1');
const playground = sharedPlayground();
let object;
let view;

before(async () => {
  const api = await import(join(root, 'pkg', 'node.mjs'));
  object = parse(readFileSync(join(entry, 'tests', 'initializing.yaml'), 'utf8')).object;
  view = new api.Definition(readFileSync(join(entry, 'definition.yaml'), 'utf8')).resolve(object);
});

test('a LeaderWorkerSet shows "× N" on its group node and no row of dashes in the resources table', async () => {
  const group = view.root.instances[0].children.find((c) => c.name === 'group');
  assert.equal(group.replicas.unit, 'groups');
  assert.ok(group.replicas.desired > 1);
  const page = await playground.open();
  const start = await runId(page);
  await page.evaluate((text) => window.playground.setManifest(text), JSON.stringify(object, null, 2));
  await settled(page, start);
  const node = page.locator('#tree li.component[data-component="group"] .node').first();
  assert.equal(await node.locator('.replicas').first().textContent(), `× ${group.replicas.text}`);
  const rows = await page.locator('#resources tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (td) => td.textContent.trim())));
  assert.equal(rows.length, view.table.rows.length);
  for (const cells of rows)
    assert.ok(
      cells.slice(1).some((text) => text !== '—' && text !== ''),
      `a row of dashes: ${cells.join(' | ')}`,
    );
  // Each row's pods are the groups times the pods per group, as the core counts them.
  assert.deepEqual(
    rows.map((cells) => cells[1]),
    view.table.rows.map((row) => row.pods.text),
  );
  await page.close();
});
