// The same numbers in every front end: the playground's DOM and the <workload-map-view> element's
// DOM show the resources table of the view's `table` (the core's rows and totals), for every
// catalog case, and the rows of each table add up to its TOTAL. Also: a LeaderWorkerSet's
// `group` shows "× 3" in both, and the dashboard shows an orphan JobSet and a foreign pod as rows
// of their own. Expected values come from the package (pkg/node.mjs), never written here.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { root, runId, settled, sharedPlayground } from './browser.mjs';
import { assertAddsUp, expectedTable, readResourceTable } from './resource-table.mjs';

const playground = sharedPlayground();
let api;
before(async () => {
  api = await import(join(root, 'pkg', 'node.mjs'));
});

/**
 * Every catalog case: its definition's text, the manifest (the case's object) and the related
 * objects, as texts; and two Lists with pods in the manifest.
 */
function catalogCases() {
  const cases = [];
  for (const dir of readdirSync(join(root, 'catalog')).sort()) {
    const tests = join(root, 'catalog', dir, 'tests');
    if (!existsSync(join(root, 'catalog', dir, 'definition.yaml')) || !existsSync(tests)) continue;
    const definition = readFileSync(join(root, 'catalog', dir, 'definition.yaml'), 'utf8');
    for (const file of readdirSync(tests)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()) {
      const found = parse(readFileSync(join(tests, file), 'utf8'));
      const object = found.object ?? (found.objectFrom ? parse(readFileSync(join(tests, found.objectFrom), 'utf8')).object : undefined);
      if (object === undefined) throw new Error(`catalog/${dir}/tests/${file} has neither object nor objectFrom`);
      const manifest = typeof object === 'string' ? object : stringify(object);
      const pods = Array.isArray(found.related) && found.related.length ? stringify({ apiVersion: 'v1', kind: 'List', items: found.related }) : '';
      cases.push({ name: `${dir}/tests/${file}`, definition, manifest, pods });
    }
  }
  // Lists with pods in the manifest: the core picks the JobSet and gives it its own pods.
  const jobset = readFileSync(join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'definition.yaml'), 'utf8');
  cases.push({
    name: 'tests/node/fixtures/jobset-with-pods-list.yaml',
    definition: jobset,
    manifest: readFileSync(join(root, 'tests', 'node', 'fixtures', 'jobset-with-pods-list.yaml'), 'utf8'),
    pods: '',
  });
  cases.push({ name: 'tests/fixtures/batch/foreign-pod.yaml', definition: jobset, manifest: stringify(fixtureList('foreign-pod')), pods: '' });
  return cases;
}

/** The view the package gives for a case, read as the front ends read it (the related objects from their text). */
function packageView(definition, { manifest, pods }) {
  const related = pods ? api.parseObjects(pods).objects : undefined;
  return definition.resolve(manifest, related ? { related } : undefined);
}

/** Runs `action` in the playground and waits for the run it starts to be rendered. */
async function andSettle(page, action) {
  const previous = await runId(page);
  await action();
  await settled(page, previous);
}

const lws = readFileSync(join(root, 'catalog', 'leaderworkerset-x-k8s-io-leaderworkerset-v1', 'tests', 'three-groups-of-two.yaml'), 'utf8');

/**
 * A page with `<workload-map-view>` elements, one per input, evaluated on the page (`sync`)
 * unless the input says `worker`; resolves when all have drawn.
 */
async function elementPage(inputs) {
  const page = await playground.open('dashboard.html', { settle: false });
  await page.waitForFunction(() => customElements.get('workload-map-view'));
  const outcomes = await page.evaluate(
    (inputs) =>
      Promise.all(
        inputs.map(
          (input, i) =>
            new Promise((done) => {
              const view = document.createElement('workload-map-view');
              view.id = `case-${i}`;
              if (!input.worker) view.setAttribute('sync', '');
              view.setAttribute('sections', input.sections ?? 'resources');
              view.addEventListener('wm-diagnostics', (event) => done({ error: event.detail.error }), { once: true });
              if (input.definition) view.definition = input.definition;
              if (input.pods) view.pods = input.pods;
              view.object = input.manifest;
              document.body.append(view);
            }),
        ),
      ),
    inputs,
  );
  return { page, outcomes };
}

test('a LeaderWorkerSet with 3 groups shows "× 3" for group in the playground and in <workload-map-view>', async () => {
  const object = parse(lws).object;
  assert.equal(object.spec.replicas, 3, 'the case has 3 groups');
  const manifest = stringify(object);
  const page = await playground.open();
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), manifest));
  assert.equal(await page.locator('#headline .object-name').textContent(), `LeaderWorkerSet/${object.metadata.name}`);
  assert.equal(await page.locator('#tree li.component[data-component="group"] > .node .replicas').textContent(), '× 3');
  const played = await page.evaluate(readResourceTable, { selector: '#resources .resource-table' });
  await page.close();

  // The element, in its worker (catalog: resolveAll) and on the page's thread.
  const { page: elements, outcomes } = await elementPage([
    { manifest, sections: 'resources,tree', worker: true },
    { manifest, sections: 'resources,tree' },
  ]);
  assert.deepEqual(outcomes, [{ error: null }, { error: null }]);
  for (const host of ['#case-0', '#case-1'])
    assert.equal(await elements.locator(`${host} .tree li.component[data-component="group"] > .node .replicas`).textContent(), '× 3');
  const drawn = await elements.evaluate(readResourceTable, { host: '#case-0' });
  assert.deepEqual(await elements.evaluate(readResourceTable, { host: '#case-1' }), drawn);
  await elements.close();

  // The rows are per pod over the 3 groups, and add up to the TOTAL (24 GPUs, not 8).
  const expected = expectedTable(
    api.resolve(readFileSync(join(root, 'catalog', 'leaderworkerset-x-k8s-io-leaderworkerset-v1', 'definition.yaml'), 'utf8'), manifest),
  );
  assert.equal(expected.total.gpus, '24');
  assert.deepEqual(played, expected);
  assert.deepEqual(drawn, expected);
  assertAddsUp(played, 'playground');
});

test('every catalog case, and Lists with pods: the playground and the element show the view’s table, and its rows add up to the TOTAL', async (t) => {
  const cases = catalogCases();
  assert.ok(cases.length > 100, `${cases.length} cases`);
  const definitions = new Map();
  const expected = cases.map((c) => {
    if (!definitions.has(c.definition)) definitions.set(c.definition, new api.Definition(c.definition));
    return expectedTable(packageView(definitions.get(c.definition), c));
  });
  for (const [i, table] of expected.entries()) assertAddsUp(table, `${cases[i].name} (package)`);

  // The playground: one page, the texts of each case in its editors (the definition pinned).
  const started = Date.now();
  const page = await playground.open();
  const played = [];
  for (const c of cases) {
    await andSettle(page, () =>
      page.evaluate(({ definition, manifest, pods }) => {
        window.playground.setDefinition(definition);
        window.playground.setManifest(manifest);
        window.playground.setPods(pods);
        window.playground.runNow();
      }, c),
    );
    played.push(await page.evaluate(readResourceTable, { selector: '#resources .resource-table' }));
  }
  await page.close();
  const playgroundMs = Date.now() - started;

  // The element: one page, one <workload-map-view> per case.
  const { page: elements, outcomes } = await elementPage(cases.map(({ definition, manifest, pods }) => ({ definition, manifest, pods })));
  const drawn = [];
  for (const i of cases.keys()) drawn.push(await elements.evaluate(readResourceTable, { host: `#case-${i}` }));
  await elements.close();
  t.diagnostic(`${cases.length} cases: playground ${playgroundMs} ms, whole test ${Date.now() - started} ms`);

  const wrong = [];
  for (const [i, c] of cases.entries()) {
    assert.equal(outcomes[i].error, null, c.name);
    for (const [front, table] of [
      ['playground', played[i]],
      ['element', drawn[i]],
    ]) {
      try {
        assert.deepEqual(table, expected[i]);
        assertAddsUp(table, `${c.name} (${front})`);
      } catch (error) {
        wrong.push(`${c.name} (${front}): ${error.message}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

/** The fixtures of the core's reading (tests/fixtures/batch), as one List. */
function fixtureList(...names) {
  const items = names.flatMap((name) => parse(readFileSync(join(root, 'tests', 'fixtures', 'batch', `${name}.yaml`), 'utf8')).objects);
  return { apiVersion: 'v1', kind: 'List', items };
}

test('the dashboard shows an orphan JobSet and a foreign pod as rows of their own, and objects of no workload with the reason', async () => {
  const list = fixtureList('foreign-pod', 'owner-missing-is-a-workload', 'owner-cycle');
  const batch = api.resolveAll(list, { catalog: true });
  const page = await playground.open('dashboard.html', { settle: false });
  await page.locator('#file').setInputFiles({ name: 'workloads.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(list)) });
  const rows = page.locator('#table tr.row');
  await rows.nth(batch.items.length + batch.unowned.length - 1).waitFor();
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => `${tr.dataset.kind}/${tr.dataset.name}${tr.dataset.unowned ? ` ${tr.dataset.unowned}` : ''}`));
  // The JobSet whose TrainJob is absent is a workload; the pod of another JobSet stands on its
  // own (not in llm-pretrain); the JobSet and Pod that own each other are rows with the reason.
  assert.deepEqual(
    shown.sort(),
    ['JobSet/llm-pretrain', 'JobSet/loop object/owner-cycle', 'JobSet/trainer', 'Job/plain', 'Pod/loop-pod object/owner-cycle', 'Pod/other-workers-0-0'].sort(),
  );
  assert.equal(await rows.count(), batch.items.length + batch.unowned.length);
  assert.match(await page.locator('#status').textContent(), /^4 workloads · 2 objects of no workload/);
  // llm-pretrain counts its own two pods only (1 ready).
  const pretrain = page.locator('#table tr.row[data-name="llm-pretrain"]');
  assert.equal(await pretrain.locator('td').nth(5).textContent(), '1/2');
  await pretrain.locator('button.expand').click();
  const inner = page.locator('#table tr.detail workload-map-view');
  assert.equal(await inner.locator('#pods-attributed').textContent(), '2 of 2');
  assert.equal(await inner.locator('.tree .pod-name', { hasText: 'other-workers-0-0' }).count(), 0);
  assert.equal(await inner.locator('.tree .pod-name').count(), 2);
  // An object of no workload says why when expanded.
  const loop = page.locator('#table tr.row[data-name="loop"]');
  assert.equal(await loop.locator('.chip').textContent(), 'Not attributed');
  await loop.locator('button.expand').click();
  const reason = batch.unowned.find((u) => u.name === 'loop').diagnostic.message;
  assert.match(
    await page.locator('#table tr.row[data-name="loop"] + tr.detail p.message').textContent(),
    new RegExp(reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  );
  await page.close();
});

test('the playground and the elements keep no copy of workload selection or of amount formatting', () => {
  const sources = [
    ...readdirSync(join(root, 'www', 'src'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => join('www', 'src', f)),
    ...readdirSync(join(root, 'js', 'element'))
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => join('js', 'element', f)),
  ];
  const forbidden = [
    [/ownerReferences/, 'reads ownerReferences (which object is a workload, and whose pods, is the core’s reading)'],
    [/\.kind\s*[!=]==?\s*['"](Pod|List)['"]/, 'recognises a Pod or a List by its kind'],
    [/['"](Ki|Mi|Gi|Ti)['"]/, 'has a table of memory units (amounts are the view’s text)'],
    [/\bfunction\s+(cpu|memory|gpus|count|addScaled|ownResources|instanceResources)\b/, 'formats or sums amounts'],
  ];
  const found = [];
  for (const file of sources) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [pattern, what] of forbidden) if (pattern.test(text)) found.push(`${file} ${what}`);
  }
  assert.deepEqual(found, []);
});

test('the pages raised no error and made no request beyond their own files', () => {
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
});
