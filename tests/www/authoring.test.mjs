// The authoring loop in the playground: the definition follows the manifest's type through the
// catalog (the default), an unknown type is offered a drafted definition, "Edit a copy" pins a
// custom one until the user switches back, share links carry the mode, and the view becomes
// test cases exported as a folder that `workload-map test` runs. The expected values come from
// the package itself (the same engine, in Node), never typed in here.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { catalog, resolve } from 'workload-map';
import { parse, stringify } from 'yaml';
import { encodeShare } from '../../www/src/state.js';
import { toYaml } from '../../www/src/testcases.js';
import { crc32, zip } from '../../www/src/zip.js';
import { editorText, runId, settled, results, root, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

// --- fixtures -----------------------------------------------------------------------------------

/** The object of a catalog case file, as YAML text. */
function catalogObject(entry, file) {
  const text = readFileSync(join(root, 'catalog', entry, 'tests', file), 'utf8');
  return stringify(parse(text).object);
}

const RAYCLUSTER = catalogObject('ray-io-raycluster-v1', 'two-worker-groups.yaml');
const RAY_ENTRY = catalog.find('ray.io/v1', 'RayCluster');
const JOBSET_ENTRY = catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet');
const DEFAULT_MANIFEST = readFileSync(join(root, 'www', 'src', 'default-manifest.yaml'), 'utf8');
const PODS_LIST = readFileSync(join(root, 'tests', 'node', 'fixtures', 'jobset-with-pods-list.yaml'), 'utf8');

/** A type no catalog knows, with its pod templates in an array of roles. */
const TRAINRUN = `apiVersion: training.example.com/v1
kind: TrainRun
metadata: {name: demo, namespace: ml}
spec:
  roles:
    - name: chief
      replicas: 1
      template:
        spec:
          containers: [{name: c, image: chief:1, resources: {limits: {nvidia.com/gpu: 2}}}]
    - name: worker
      replicas: 3
      template:
        spec:
          containers: [{name: w, image: worker:1, resources: {limits: {nvidia.com/gpu: 4}}}]
status:
  phase: Running
`;

// --- helpers ------------------------------------------------------------------------------------

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

/** Pastes a text over the manifest editor's content, as a user does. */
async function pasteManifest(page, text) {
  await andSettle(page, async () => {
    await page.locator('#manifest-editor .cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(text);
  });
}

const state = (page) => page.evaluate(() => window.playground.state);
const gpuTotal = (page) => page.locator('#total-gpus').textContent();
const sourceLine = (page) => page.locator('#definition-source').textContent();
const treeComponents = (page) => page.locator('#tree li.component > .node .label').allTextContents();
const treeInstances = (page) => page.locator('#tree li.instance .instance-label').allTextContents();

// --- catalog mode ---------------------------------------------------------------------------------

test('a RayCluster pasted into a fresh page shows its catalog view without a click, and says which entry it follows', async () => {
  const expected = resolve(RAY_ENTRY.text, RAYCLUSTER);
  const page = await playground.open();
  assert.equal(await page.locator('#definition-mode').inputValue(), 'catalog', 'catalog mode is the default');
  await pasteManifest(page, RAYCLUSTER);
  assert.equal(await gpuTotal(page), String(expected.resources.gpus));
  assert.deepEqual(await page.locator('#headline .chip').allTextContents(), expected.phases);
  assert.match(await page.locator('#headline').textContent(), new RegExp(`definition: ${RAY_ENTRY.name}`));
  assert.deepEqual(await treeComponents(page), ['raycluster', 'head', 'worker']);
  assert.deepEqual(await treeInstances(page), ['gpu', 'cpu']);
  assert.match(await sourceLine(page), /Definition: catalog entry ray\.io\/v1 RayCluster, follows the manifest/);
  // The editor shows the entry followed, read-only.
  assert.equal((await state(page)).definition, RAY_ENTRY.text);
  await page.locator('#definition-editor .cm-content').focus();
  await page.keyboard.type('typed');
  assert.equal((await state(page)).definition, RAY_ENTRY.text, 'typing changes nothing in catalog mode');
  assert.equal(await page.locator('#definition-fork').isVisible(), true);
  await page.screenshot({ path: join(results, 'authoring-catalog-mode.png') });
  await page.close();
});

test('an unknown type is offered a draft, not an error and 0 GPUs, and the draft resolves its roles and GPUs', async () => {
  const page = await playground.open();
  await pasteManifest(page, TRAINRUN);
  const offer = page.locator('#definition-offer');
  assert.equal(await offer.isVisible(), true);
  assert.match(await offer.textContent(), /no definition for training\.example\.com\/v1 TrainRun/);
  assert.equal(await page.locator('#total-gpus').count(), 0, 'no GPU total is shown without a definition');
  assert.match(await page.locator('#run-status').textContent(), /no catalog entry for training\.example\.com\/v1 TrainRun/);
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.match(await sourceLine(page), /no catalog entry for training\.example\.com\/v1 TrainRun/);
  assert.equal((await state(page)).definition, '', 'the editor shows no unrelated entry');
  await page.locator('#definition-offer').screenshot({ path: join(results, 'authoring-offer.png') });

  await andSettle(page, () => page.locator('#offer-draft').click());
  const drafted = await state(page);
  assert.equal(drafted.mode, 'custom');
  assert.match(drafted.definition, /^# Drafted by workload-map/);
  const expected = resolve(drafted.definition, TRAINRUN);
  assert.equal(expected.resources.gpus, 14, 'chief 1 × 2 + worker 3 × 4');
  assert.equal(await gpuTotal(page), '14');
  assert.deepEqual(await treeInstances(page), ['chief', 'worker']);
  assert.deepEqual(await page.locator('#headline .chip').allTextContents(), expected.phases);
  assert.equal(await offer.isHidden(), true);
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.match(await sourceLine(page), /custom \(drafted from training\.example\.com\/v1 TrainRun\), pinned/);
  await page.close();
});

test('writing a definition for an unknown type starts from an empty custom one', async () => {
  const page = await playground.open();
  await pasteManifest(page, TRAINRUN);
  await andSettle(page, () => page.locator('#offer-custom').click());
  assert.equal(await page.evaluate(() => window.playground.mode), 'custom');
  assert.match(await page.locator('#definition-offer').textContent(), /The definition is empty/);
  await page.close();
});

test('Draft works in any mode, from the manifest shown', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.locator('#definition-draft').click());
  const drafted = await state(page);
  assert.equal(drafted.mode, 'custom');
  assert.match(drafted.definition, /Drafted by workload-map from one jobset\.x-k8s\.io\/v1alpha2 JobSet object/);
  assert.equal(await gpuTotal(page), String(resolve(drafted.definition, DEFAULT_MANIFEST).resources.gpus));
  await page.close();
});

test('an empty custom definition says what to do instead of an error and 0 GPUs', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.evaluate(() => window.playground.setDefinition('# nothing yet\n')));
  assert.equal(await page.evaluate(() => window.playground.mode), 'custom');
  assert.match(await page.locator('#definition-offer').textContent(), /The definition is empty/);
  assert.equal(await page.locator('#total-gpus').count(), 0);
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.match(await page.locator('#run-status').textContent(), /empty definition/);
  // "follow the catalog" from the message goes back to the default.
  await andSettle(page, () => page.locator('#offer-catalog').click());
  assert.equal(await gpuTotal(page), '12');
  assert.equal((await state(page)).definition, JOBSET_ENTRY.text);
  await page.close();
});

test('Edit a copy pins the definition across manifest changes until the user switches back to the catalog', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.locator('#definition-fork').click());
  assert.equal(await page.locator('#definition-mode').inputValue(), 'custom');
  assert.match(await sourceLine(page), /custom \(a copy of catalog entry jobset\.x-k8s\.io\/v1alpha2 JobSet\), pinned/);
  // Editable now: a comment typed at the very start is kept.
  await andSettle(page, async () => {
    await page.locator('#definition-editor .cm-content').focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('# mine\n');
  });
  const custom = (await state(page)).definition;
  assert.equal(custom, `# mine\n${JOBSET_ENTRY.text}`);

  // A RayCluster does not replace the pinned JobSet definition.
  await pasteManifest(page, RAYCLUSTER);
  assert.equal((await state(page)).definition, custom);
  assert.match(await page.locator('#headline').textContent(), new RegExp(`definition: ${JOBSET_ENTRY.name}`));

  // Back to the catalog: the RayCluster entry is followed again.
  await andSettle(page, () => page.locator('#definition-mode').selectOption('catalog'));
  assert.equal((await state(page)).definition, RAY_ENTRY.text);
  assert.equal(await gpuTotal(page), String(resolve(RAY_ENTRY.text, RAYCLUSTER).resources.gpus));
  // And custom again restores the text put aside.
  await andSettle(page, () => page.locator('#definition-mode').selectOption('custom'));
  assert.equal((await state(page)).definition, custom);
  await page.close();
});

/** The share link of the page's state. */
async function shareLink(page) {
  // A link made earlier stays on the button until the new one replaces it.
  await page.evaluate(() => delete document.getElementById('share').dataset.url);
  await page.locator('#share').click();
  await page.waitForFunction(() => document.getElementById('share').dataset.url);
  const link = await page.locator('#share').getAttribute('data-url');
  return link.slice(playground.url.length);
}

test('a share link carries the mode; an old link with a definition and no mode stays pinned', async () => {
  const page = await playground.open();
  await pasteManifest(page, RAYCLUSTER);
  const catalogLink = await shareLink(page);
  await andSettle(page, () => page.locator('#definition-fork').click());
  const customLink = await shareLink(page);
  await page.close();

  const followed = await playground.open(catalogLink);
  assert.equal(await followed.evaluate(() => window.playground.mode), 'catalog');
  assert.match(await sourceLine(followed), /catalog entry ray\.io\/v1 RayCluster/);
  await followed.close();

  const pinned = await playground.open(customLink);
  assert.equal(await pinned.evaluate(() => window.playground.mode), 'custom');
  assert.equal((await state(pinned)).definition, RAY_ENTRY.text);
  await pasteManifest(pinned, DEFAULT_MANIFEST);
  assert.match(await pinned.locator('#headline').textContent(), new RegExp(`definition: ${RAY_ENTRY.name}`), 'still pinned');
  await pinned.close();

  // A link made before the mode existed: its definition text is pinned, whatever the manifest.
  const old = `#${await encodeShare({ definition: RAY_ENTRY.text, manifest: DEFAULT_MANIFEST, options: {} }, 'old')}`;
  const legacy = await playground.open(old);
  assert.equal(await legacy.evaluate(() => window.playground.mode), 'custom');
  assert.match(await legacy.locator('#headline').textContent(), new RegExp(`definition: ${RAY_ENTRY.name}`));
  await legacy.close();
});

test('the local draft keeps the mode', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.locator('#definition-fork').click());
  await pasteManifest(page, RAYCLUSTER);
  await page.waitForTimeout(600);
  await page.reload();
  await settled(page);
  assert.equal(await page.evaluate(() => window.playground.mode), 'custom');
  assert.equal((await state(page)).definition, JOBSET_ENTRY.text);
  await page.close();
});

// --- test cases -----------------------------------------------------------------------------------

/** The files of a zip archive of stored entries, each checked against its CRC-32. */
function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 22;
  assert.equal(view.getUint32(end, true), 0x06054b50, 'end of central directory');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    assert.equal(view.getUint32(at, true), 0x02014b50, 'central directory record');
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    assert.equal(view.getUint32(local, true), 0x04034b50, `${name}: local header`);
    assert.equal(view.getUint16(local + 8, true), 0, `${name}: stored`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    assert.equal(zlibCrc32(data), crc, `${name}: CRC-32`);
    files.set(name, new TextDecoder().decode(data));
    at += 46 + nameLength + skip;
  }
  return files;
}

test('Save as test case and Export folder give definition.yaml and cases that expect what the view showed', async () => {
  const page = await playground.open();
  const shown = { gpus: await gpuTotal(page), phases: await page.locator('#headline .chip').allTextContents() };
  await page.locator('#case-name').fill('default jobset');
  await page.locator('#case-save').click();
  await page.locator('#cases li.case').first().waitFor();
  // A second case, with the workload's Jobs and Pods in the manifest.
  await pasteManifest(page, PODS_LIST);
  await page.locator('#case-save').click();
  await page.locator('#cases li.case').nth(1).waitFor();
  // A third, removed again.
  await page.locator('#case-save').click();
  await page.locator('#cases li.case').nth(2).waitFor();
  assert.deepEqual(await page.locator('#cases .case-name').allTextContents(), [
    'tests/default-jobset.yaml',
    'tests/initializing.yaml',
    'tests/initializing-2.yaml',
  ]);
  await page.locator('#cases li.case').nth(2).locator('.case-remove').click();
  assert.equal(await page.locator('#cases li.case').count(), 2);
  await page.locator('#cases-card').screenshot({ path: join(results, 'authoring-cases.png') });

  const downloading = page.waitForEvent('download');
  await page.locator('#case-export').click();
  const download = await downloading;
  assert.equal(download.suggestedFilename(), `${JOBSET_ENTRY.name}.zip`);
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  const files = unzip(new Uint8Array(Buffer.concat(chunks)));
  assert.deepEqual([...files.keys()], ['definition.yaml', 'tests/default-jobset.yaml', 'tests/initializing.yaml']);
  const definition = files.get('definition.yaml');
  assert.equal(definition, JOBSET_ENTRY.text);

  const first = parse(files.get('tests/default-jobset.yaml'));
  assert.deepEqual(first.object, parse(DEFAULT_MANIFEST));
  assert.deepEqual(first.expect.phases, shown.phases);
  assert.equal(String(first.expect.resources.gpus), shown.gpus);
  // Every component and every instance of one with several, by the format's paths.
  assert.deepEqual(
    first.expect.components.map((c) => c.path),
    ['jobset', 'jobset/replicatedjob', 'jobset/replicatedjob[leader]', 'jobset/replicatedjob[workers]'],
  );
  const second = parse(files.get('tests/initializing.yaml'));
  assert.equal(second.object.kind, 'JobSet');
  // The case carries what the core's reading gives the JobSet: its Jobs and Pods. The web pod
  // (its ReplicaSet is not in the List) is a workload of its own, not one of the JobSet's.
  assert.deepEqual(
    second.related.map((o) => `${o.kind}/${o.metadata.name}`),
    ['Job/train-leader-0', 'Job/train-workers-0', 'Pod/train-leader-0-0-abcde', 'Pod/train-workers-0-0-fghij', 'Pod/train-workers-0-1-klmno'],
  );
  assert.deepEqual(second.expect.pods, { total: 3, attributed: 3, unattributed: [] });
  // The exported folder is what `workload-map test` takes: both cases pass through it.
  const folder = join(root, 'target', 'authoring-export', JOBSET_ENTRY.name);
  rmSync(folder, { recursive: true, force: true });
  for (const [name, text] of files) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  const report = JSON.parse(execFileSync(process.execPath, [join(root, 'bin', 'workload-map.mjs'), 'test', folder, '-o', 'json'], { encoding: 'utf8' }));
  assert.equal(report.summary.failed, 0, JSON.stringify(report, null, 1));
  assert.equal(report.summary.passed, 2);

  // The cases are kept in the local draft.
  await page.waitForTimeout(600);
  await page.reload();
  await settled(page);
  assert.deepEqual(await page.locator('#cases .case-name').allTextContents(), ['tests/default-jobset.yaml', 'tests/initializing.yaml']);
  await page.close();
});

test('a case made with another definition is listed as such and left out of the export', async () => {
  const page = await playground.open();
  await page.locator('#case-save').click();
  await page.locator('#cases li.case').first().waitFor();
  await pasteManifest(page, RAYCLUSTER);
  assert.match(await page.locator('#cases li.case').first().textContent(), /made with another definition/);
  await page.locator('#case-export').click();
  assert.match(await page.locator('#case-note').textContent(), /No saved case was made with the definition in use/);
  await page.close();
});

test('nothing is saved when there is no view', async () => {
  const page = await playground.open();
  await pasteManifest(page, TRAINRUN);
  await page.locator('#case-save').click();
  await page.waitForFunction(() => document.getElementById('case-note').textContent !== '');
  assert.match(await page.locator('#case-note').textContent(), /Nothing saved: no catalog entry for training\.example\.com\/v1 TrainRun/);
  assert.equal(await page.locator('#cases li.case').count(), 0);
  await page.close();
});

// --- the writers, in Node ---------------------------------------------------------------------

test('crc32 gives the check value of the CRC-32 catalogue and agrees with zlib', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
  const bytes = new TextEncoder().encode('apiVersion: run.ai/v1alpha1\nkind: Karta\n€\n');
  assert.equal(crc32(bytes), zlibCrc32(bytes));
});

test('zip writes stored entries with UTF-8 names that read back', () => {
  const files = unzip(
    zip([
      { name: 'definition.yaml', data: 'kind: Karta\n' },
      { name: 'tests/ünïcode.yaml', data: new Uint8Array([1, 2, 3]) },
    ]),
  );
  assert.deepEqual([...files.keys()], ['definition.yaml', 'tests/ünïcode.yaml']);
  assert.equal(files.get('definition.yaml'), 'kind: Karta\n');
  assert.throws(() => zip([{ name: '../x', data: '' }]), TypeError);
  assert.throws(
    () =>
      zip([
        { name: 'a', data: '' },
        { name: 'a', data: '' },
      ]),
    TypeError,
  );
});

test('toYaml writes values that YAML reads back unchanged', () => {
  const value = {
    plain: 'Running',
    reserved: ['true', 'no', 'null', '~', 'y'],
    numbers: ['1', '1e3', '0x10', '.5', '-1', '+1'],
    punctuation: ['a: b', 'a #b', '- a', '[x]', '{x}', '*a', '&a', '!a', '%a', '@a', '`a', "'a'", '"a"', '|', '>', '?', ',', ''],
    spaces: [' lead', 'trail ', 'two  spaces', 'line\nbreak', 'tab\there'],
    keys: { 'nvidia.com/gpu': 4, 1: 'one', 'a: b': 'c', '': 'empty' },
    scalars: [0, -3, 1.5, true, false, null],
    nested: [[1, [2, []]], [{ a: {} }], { list: [{ x: 1, y: [{ z: 'deep' }] }] }],
    unicode: 'ünïcode ✓ 😀',
    empty: { map: {}, list: [] },
  };
  assert.deepEqual(parse(toYaml(value)), value);
});
