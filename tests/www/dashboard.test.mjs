// The dashboard example (www/dashboard.html) as `npm start` serves it: a List file picked in the
// page becomes the workloads table, and the playground links to it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { parse } from 'yaml';

import { settled, startPlayground } from './browser.mjs';
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

// Issue 18, point 10: rows that line up, an Age of "—" when unknown, a text search and a link
// to the playground per row.

/** A List: the generated workloads, the JobSet `llm` of the catalog's pods case with its Jobs and pods, and one workload without a creation time. */
function listWithPods() {
  const list = generatedList(12);
  const podsCase = parse(readFileSync(join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'tests', 'pods.yaml'), 'utf8'));
  const running = parse(readFileSync(join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'tests', podsCase.objectFrom), 'utf8')).object;
  const timeless = structuredClone(list.items[0]);
  timeless.metadata = { name: 'no-age', namespace: 'team-x' };
  list.items[1].metadata.name = `w001-${'a-very-long-workload-name-'.repeat(4)}end`;
  return { list: { ...list, items: [...list.items, running, ...podsCase.related, timeless] }, related: podsCase.related };
}

async function openWith(list) {
  const page = await playground.open('dashboard.html', { settle: false });
  await page.locator('#file').setInputFiles({ name: 'workloads.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(list)) });
  await page.waitForFunction(() => /^\d+ workloads/.test(document.getElementById('status').textContent));
  await page.locator('#table tr.row').nth(12).waitFor();
  return page;
}

test('dashboard rows line up: every cell of a row has the same top and height, and an unknown Age reads "—"', async () => {
  const page = await openWith(listWithPods().list);
  const rows = await page.locator('#table tr.row').evaluateAll((trs) =>
    trs.map((tr) => ({
      name: tr.dataset.name,
      cells: Array.from(tr.children, (td) => {
        const r = td.getBoundingClientRect();
        return { top: r.top, height: r.height, text: td.textContent };
      }),
    })),
  );
  const api = await import(join(root, 'pkg', 'node.mjs'));
  const expected = api.resolveAll(listWithPods().list, { catalog: true });
  assert.equal(rows.length, expected.items.length + expected.unowned.length);
  for (const row of rows) {
    const [first] = row.cells;
    for (const cell of row.cells) {
      assert.ok(
        Math.abs(cell.top - first.top) < 0.5 && Math.abs(cell.height - first.height) < 0.5,
        `${row.name}: cell "${cell.text}" at ${cell.top}+${cell.height}, first at ${first.top}+${first.height}`,
      );
    }
  }
  const timeless = rows.find((row) => row.name === 'no-age');
  assert.equal(timeless.cells.at(-1).text, '—');
  // A long name is cut, never its playground link: the link stays inside its cell.
  const fits = await page.locator('#table tr.row td.name').evaluateAll((cells) =>
    cells.map((td) => {
      const link = td.querySelector('a.open');
      if (!link) return true;
      const [cell, box] = [td.getBoundingClientRect(), link.getBoundingClientRect()];
      return box.width > 0 && box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5;
    }),
  );
  assert.deepEqual(
    fits,
    fits.map(() => true),
  );
  assert.match(rows.find((row) => row.name.startsWith('w000')).cells.at(-1).text, /^\d+[smhdy]$/);
  await page.close();
});

test('the dashboard search filters rows by name, namespace, kind and phase, from the keyboard', async () => {
  const { list } = listWithPods();
  const api = await import(join(root, 'pkg', 'node.mjs'));
  const expected = api.resolveAll(list, { catalog: true }).items;
  const page = await openWith(list);
  const search = page.getByRole('searchbox', { name: /Search workloads/ });
  // Reached with Tab from the file picker, before the filters.
  await page.locator('#file').focus();
  await page.keyboard.press('Tab');
  assert.equal(await search.evaluate((el) => el.getRootNode().activeElement === el), true);
  const names = () => page.locator('#table tr.row').evaluateAll((trs) => trs.map((tr) => tr.dataset.name).sort());
  const cases = [
    ['team-3', (i) => i.namespace === 'team-3'],
    ['w005', (i) => i.name.startsWith('w005')],
    ['pytorchjob', (i) => i.kind === 'PyTorchJob'],
    ['failed', (i) => (i.view?.phases ?? []).includes('Failed')],
    ['jobset running', (i) => i.kind === 'JobSet' && (i.view?.phases ?? []).includes('Running')],
  ];
  for (const [text, keep] of cases) {
    await search.fill('');
    await page.keyboard.type(text);
    const want = expected
      .filter(keep)
      .map((i) => i.name)
      .sort();
    assert.ok(want.length > 0 && want.length < expected.length, `${text}: a search that keeps some rows`);
    assert.deepEqual(await names(), want, text);
  }
  await search.fill('');
  assert.equal((await names()).length, expected.length);
  await page.close();
});

test('a dashboard row opens the playground with its manifest, its related objects and its catalog definition', async () => {
  const { list } = listWithPods();
  // What belongs to the JobSet, as the package reads the List (not its stray pod, nor the other rows).
  const api = await import(join(root, 'pkg', 'node.mjs'));
  const reading = api.readManifest(list.items);
  const llm = reading.workloads.find((w) => w.name === 'llm');
  const related = llm.related.map((i) => list.items[i]);
  assert.ok(related.some((o) => o.kind === 'Pod') && related.length < list.items.length - 13);
  const page = await openWith(list);
  const link = page.locator('#table tr.row[data-name="llm"] a.open');
  assert.equal(await link.getAttribute('aria-label'), 'Open llm in the playground');
  const [opened] = await Promise.all([page.context().waitForEvent('page'), link.focus().then(() => page.keyboard.press('Enter'))]);
  await opened.waitForLoadState();
  await settled(opened);
  const state = await opened.evaluate(() => window.playground.state);
  const manifest = JSON.parse(state.manifest);
  assert.equal(manifest.metadata.name, 'llm');
  assert.equal(manifest.kind, 'JobSet');
  // Only its own objects: the other rows' are not in it.
  assert.deepEqual(
    JSON.parse(state.pods)
      .items.map((o) => o.metadata.name)
      .sort(),
    related.map((o) => o.metadata.name).sort(),
  );
  assert.equal(state.mode, 'catalog');
  assert.match(state.definition, /kind: JobSet/);
  assert.match(await opened.locator('#definition-source').textContent(), /jobset/i);
  // The playground read it: the JobSet's pods are in its view.
  assert.match(await opened.locator('#headline').textContent(), /llm/);
  await opened.close();
  await page.close();
});

test('the dashboard made no request beyond its own files and raised no error', () => {
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
});
