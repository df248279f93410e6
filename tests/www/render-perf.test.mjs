// The renderer at size: a JobSet with 999 replicated jobs (about 1.1 MB of YAML) draws a bounded
// number of DOM rows (long instance lists collapsed to a count and "Show all"), its totals are
// right, an edit reuses the nodes already drawn, and the default manifest draws as before.
// Timing is not asserted (a loaded 2-core machine makes any bound either loose or flaky): the
// long tasks seen are reported as test diagnostics; www/README.md has the measured figures.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runId, settled, sharedPlayground } from './browser.mjs';
import { replicatedJobSet } from './generated-manifests.mjs';

// The renderer's limits (www/src/render.js): lists longer than COLLAPSE_OVER show PREVIEW items.
const COLLAPSE_OVER = 50;
const PREVIEW = 20;
const JOBS = 999;
const big = replicatedJobSet(JOBS);
const playground = sharedPlayground();

/** Runs `action` in the page and waits for the run it starts to be rendered. */
async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

const setManifest = (page, text) => andSettle(page, () => page.evaluate((t) => window.playground.setManifest(t), text));

/** A page showing the 999-job JobSet, recording long tasks from the start. */
async function withBigJobSet() {
  const page = await playground.open();
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask' });
  });
  await setManifest(page, big.text);
  return page;
}

const rows = (page) =>
  page.evaluate(() => ({
    treeInstances: document.querySelectorAll('#tree li.instance').length,
    tableInstances: document.querySelectorAll('#resources tr.instance-row').length,
    treeItems: document.querySelectorAll('#tree li').length,
    tableRows: document.querySelectorAll('#resources tr').length,
  }));

/**
 * A list shown in full draws a window of its items in the scroll box `box` (far fewer than all),
 * and scrolled to its end draws the item `last`.
 */
async function assertWindow(page, box, item, last) {
  const drawn = await page.locator(`${box} ${item}`).count();
  assert.ok(drawn >= 10 && drawn < JOBS / 4, `${drawn} items drawn`);
  assert.equal(await page.locator(`${box} ${item}[data-instance="${last}"]`).count(), 0);
  await page.locator(box).evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await page.locator(`${box} ${item}[data-instance="${last}"]`).waitFor();
  // Heights measured while scrolling settle the window at the end within a few frames.
  await page.locator(box).evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await page.locator(`${box} ${item}[data-instance="${last}"]`).waitFor();
  assert.ok((await page.locator(`${box} ${item}`).count()) < JOBS / 4);
}

test('999 replicated jobs: totals right, instance lists collapsed to a count with Show all', async (t) => {
  const page = await withBigJobSet();
  assert.equal(await page.locator('#total-gpus').textContent(), String(big.gpus));
  assert.equal(await page.locator('.resource-table .total-row .gpu').textContent(), String(big.gpus));
  const drawn = await rows(page);
  assert.equal(drawn.treeInstances, PREVIEW);
  assert.equal(drawn.tableInstances, PREVIEW);
  // Root, component, the preview and the "more" item; header, component, preview, more, total.
  assert.ok(drawn.treeItems <= PREVIEW + 3, `tree items: ${drawn.treeItems}`);
  assert.ok(drawn.tableRows <= PREVIEW + 5, `table rows: ${drawn.tableRows}`);
  assert.match(await page.locator('#tree li.more').textContent(), new RegExp(`${JOBS - PREVIEW} more instances \\(${JOBS} in all\\)`));
  assert.deepEqual(await page.locator('#tree li.instance .instance-label').evaluateAll((els) => els.slice(0, 3).map((e) => e.textContent)), [
    'job-0000',
    'job-0001',
    'job-0002',
  ]);

  // Show all: the list scrolls in its own box and only a window of it is drawn; scrolled to the
  // end it draws the last instances. The choice survives the next drawing of the same component.
  const showAll = page.locator('#tree .show-all');
  await showAll.click();
  assert.equal(await showAll.textContent(), 'Show fewer');
  await assertWindow(page, '#tree ul.windowed', 'li.instance', 'job-0998');
  assert.equal((await rows(page)).tableInstances, PREVIEW, 'the table keeps its own choice');
  await setManifest(page, big.text.replace('  name: generated', '  name: generated-again'));
  assert.equal(await page.locator('#headline .object-name').textContent(), 'JobSet/generated-again');
  assert.equal(await showAll.textContent(), 'Show fewer');
  assert.ok((await rows(page)).treeInstances < JOBS);
  await showAll.click();
  assert.equal((await rows(page)).treeInstances, PREVIEW);

  await page.locator('#resources tr.more-row button.show-all').click();
  await assertWindow(page, '#resources .table-box.windowed', 'tr.instance-row', 'job-0998');
  assert.equal(await page.locator('.resource-table .total-row .gpu').textContent(), String(big.gpus));
  t.diagnostic(`long tasks (ms): ${(await page.evaluate(() => window.longTasks)).join(' ') || 'none'}`);
  await page.close();
});

test('an edit that changes one replica count keeps the drawn nodes and changes only their numbers', async (t) => {
  const page = await withBigJobSet();
  const job = 'job-0005'; // replicas 3, 2 GPUs per pod (see generated-manifests.mjs)
  await page.evaluate((id) => {
    window.kept = {
      instance: document.querySelector(`#tree li.instance[data-instance="${id}"]`),
      label: document.querySelector(`#tree li.instance[data-instance="${id}"] .instance-label`),
      row: document.querySelector(`#resources tr.instance-row[data-instance="${id}"]`),
      other: document.querySelector('#tree li.instance[data-instance="job-0006"] .replicas').firstChild,
      total: document.getElementById('total-gpus'),
    };
  }, job);
  const edited = big.text.replace(`- name: ${job}\n      replicas: 3`, `- name: ${job}\n      replicas: 4`);
  assert.notEqual(edited, big.text);
  await setManifest(page, edited);
  assert.equal(await page.locator('#total-gpus').textContent(), String(big.gpus + 2));
  const same = await page.evaluate(
    (id) => ({
      instance: window.kept.instance === document.querySelector(`#tree li.instance[data-instance="${id}"]`),
      label: window.kept.label === document.querySelector(`#tree li.instance[data-instance="${id}"] .instance-label`),
      row: window.kept.row === document.querySelector(`#resources tr.instance-row[data-instance="${id}"]`),
      other: window.kept.other === document.querySelector('#tree li.instance[data-instance="job-0006"] .replicas').firstChild,
      total: window.kept.total === document.getElementById('total-gpus'),
      connected: window.kept.instance.isConnected && window.kept.row.isConnected,
    }),
    job,
  );
  assert.deepEqual(same, { instance: true, label: true, row: true, other: true, total: true, connected: true });
  assert.equal(await page.locator(`#tree li.instance[data-instance="${job}"] > .node .replicas`).textContent(), '× 4');
  assert.equal(await page.locator(`#resources tr.instance-row[data-instance="${job}"] td.gpu`).textContent(), '8');
  t.diagnostic(`long tasks (ms): ${(await page.evaluate(() => window.longTasks)).join(' ') || 'none'}`);
  await page.close();
});

test('the default manifest draws as before: every instance, no collapsed list, the same totals', async () => {
  const page = await playground.open();
  assert.equal(await page.locator('#total-gpus').textContent(), '12');
  assert.deepEqual(await page.locator('#tree li.instance .instance-label').allTextContents(), ['leader', 'workers']);
  // The table's rows are the view's (`view.table.rows`), one per instance, labelled as the view says.
  assert.deepEqual(await page.locator('#resources tr.instance-row').evaluateAll((rows) => rows.map((r) => r.dataset.instance)), ['leader', 'workers']);
  assert.deepEqual(await page.locator('#resources tr.instance-row td.name').allTextContents(), ['replicatedjob[leader]', 'replicatedjob[workers]']);
  assert.equal(await page.locator('.show-all, li.more, tr.more-row').count(), 0);
  await page.close();
});

test(`a list of ${COLLAPSE_OVER} instances is drawn whole; one more collapses it`, async () => {
  const page = await playground.open();
  await setManifest(page, replicatedJobSet(COLLAPSE_OVER).text);
  assert.equal((await rows(page)).treeInstances, COLLAPSE_OVER);
  assert.equal(await page.locator('.show-all').count(), 0);
  await setManifest(page, replicatedJobSet(COLLAPSE_OVER + 1).text);
  assert.deepEqual(await rows(page).then((r) => [r.treeInstances, r.tableInstances]), [PREVIEW, PREVIEW]);
  assert.equal(await page.locator('#tree .show-all').textContent(), `Show all ${COLLAPSE_OVER + 1}`);
  await page.close();
});
