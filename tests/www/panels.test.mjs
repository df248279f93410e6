// End-to-end tests of the Pods, Gang and Edit panels: a List with a JobSet, its Jobs and Pods in
// the manifest editor (or the pods pasted in the Pods pane), evaluated in the worker.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { runId, settled, results, root, sharedPlayground } from './browser.mjs';

// kubectl's output for a JobSet, its two Jobs and four Pods (one Pending: Unschedulable, one of
// another application).
const listText = readFileSync(join(root, 'tests', 'node', 'fixtures', 'jobset-with-pods-list.yaml'), 'utf8');
const list = parse(listText);
const playground = sharedPlayground();

/** Runs `action` in the page and waits for the run it starts to be rendered. */
async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

/** A page whose manifest editor holds the List (the catalog's JobSet entry follows its JobSet). */
async function withList() {
  const page = await playground.open();
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), listText));
  return page;
}

const instanceNode = (page, id) => page.locator(`#tree li.instance[data-instance="${id}"]`);

/**
 * The JobSet's pods under its replicated jobs. The web pod (its ReplicaSet is not given) is
 * never placed in the JobSet: given apart in the Pods pane it is listed as not attributed; in
 * the manifest it is a workload of its own (`foreignInManifest`), not one of the JobSet's pods.
 */
async function assertPodsUnderJobs(page, { foreignInManifest = false } = {}) {
  assert.equal(await instanceNode(page, 'leader').locator('.pod-count').first().textContent(), '1/1 ready');
  assert.equal(await instanceNode(page, 'workers').locator('.pod-count').first().textContent(), '1/2 ready');
  assert.deepEqual(await instanceNode(page, 'leader').locator('.pod .pod-name').allTextContents(), ['train-leader-0-0-abcde']);
  assert.deepEqual(await instanceNode(page, 'workers').locator('.pod .pod-name').allTextContents(), ['train-workers-0-0-fghij', 'train-workers-0-1-klmno']);
  const pending = instanceNode(page, 'workers').locator('.pod.not-ready');
  assert.equal(await pending.locator('.pod-phase').textContent(), 'Pending');
  assert.equal(await pending.locator('.pod-reason').textContent(), 'Unschedulable');
  if (foreignInManifest) {
    assert.equal(await page.locator('#pods-attributed').textContent(), '3 of 3');
    assert.equal(await page.locator('#pods .unattributed li').count(), 0);
  } else {
    assert.equal(await page.locator('#pods-attributed').textContent(), '3 of 4');
    assert.deepEqual(await page.locator('#pods .unattributed li').allTextContents(), ['web-6f7d8-pqrst']);
  }
  assert.equal(await page.locator('#tree .pod-name', { hasText: 'web-6f7d8-pqrst' }).count(), 0);
}

test('a List with a JobSet, its Jobs and Pods shows the pods under their replicated jobs with ready counts', async () => {
  const page = await withList();
  await assertPodsUnderJobs(page, { foreignInManifest: true });
  // The workload is the JobSet: the view's headline names it, not the List or a Pod.
  assert.equal(await page.locator('#headline .object-name').textContent(), 'JobSet/train');
  // The core reads two workloads in the List (the web pod's owner is not in it): the page offers both.
  const choice = page.locator('#workload-choice');
  assert.equal(await page.locator('#workload-picker').isVisible(), true);
  assert.deepEqual(await choice.locator('option').allTextContents(), ['JobSet/train (ml)', 'Pod/web-6f7d8-pqrst (ml)']);
  await page.locator('#pods-card').screenshot({ path: join(results, 'panels-pods.png') });
  await page.locator('#tree-card').screenshot({ path: join(results, 'panels-tree-pods.png') });
  // Picking the pod shows it as the workload, with its own catalog entry; the JobSet comes back.
  await andSettle(page, () => choice.selectOption({ label: 'Pod/web-6f7d8-pqrst (ml)' }));
  assert.equal(await page.locator('#headline .object-name').textContent(), 'Pod/web-6f7d8-pqrst');
  assert.match(await page.locator('#definition-source').textContent(), /catalog entry v1 Pod/);
  assert.equal(await page.locator('#total-cpu').textContent(), '500m');
  await andSettle(page, () => choice.selectOption({ label: 'JobSet/train (ml)' }));
  assert.equal(await page.locator('#headline .object-name').textContent(), 'JobSet/train');
  await page.close();
});

test('pods pasted in the Pods pane are placed like pods in the manifest List', async () => {
  const page = await playground.open();
  const [jobset, ...related] = list.items;
  const jobsetOnly = JSON.stringify(jobset, null, 2);
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), jobsetOnly));
  assert.equal(await page.locator('#tree .pod-count').count(), 0, 'no pods given: no counts');
  const relatedText = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: related });
  await andSettle(page, () => page.evaluate((text) => window.playground.setPods(text), relatedText));
  await assertPodsUnderJobs(page);
  await page.close();
});

test('the Gang panel shows one group holding the pods', async () => {
  const page = await withList();
  const groups = page.locator('#gang li.group');
  assert.equal(await groups.count(), 1);
  assert.equal(await groups.locator('.group-name').textContent(), 'pg-7c1e-jobset-train');
  assert.equal(await groups.locator('.group-min').textContent(), 'minAvailable 3');
  assert.match(await groups.locator('.group-members').textContent(), /replicatedjob/);
  assert.deepEqual(await groups.locator('.group-pods code').allTextContents(), [
    'train-leader-0-0-abcde',
    'train-workers-0-0-fghij',
    'train-workers-0-1-klmno',
  ]);
  await page.close();
});

test('the Gang panel shows a podGroup with its sub-groups, topology and pods', async () => {
  // The core's own fixture: definition, object and related pods.
  const fixture = parse(readFileSync(join(root, 'tests', 'fixtures', 'groups', 'podgroup-subgroups-and-topology.yaml'), 'utf8'));
  const [expected] = fixture.expect.groups;
  const page = await playground.open();
  await andSettle(page, () =>
    page.evaluate(
      ([definition, manifest, pods]) => {
        window.playground.setDefinition(definition);
        window.playground.setManifest(manifest);
        window.playground.setPods(pods);
      },
      [
        JSON.stringify(fixture.definition, null, 2),
        JSON.stringify(fixture.object, null, 2),
        JSON.stringify({ apiVersion: 'v1', kind: 'List', items: fixture.related }),
      ],
    ),
  );
  const group = page.locator('#gang li.group');
  assert.equal(await group.count(), 1);
  assert.equal(await group.locator('.group-name').textContent(), expected.name);
  assert.equal(await group.locator('.group-min').textContent(), `minAvailable ${expected.minAvailable}`);
  const t = expected.topology;
  assert.equal(
    await group.locator('.group-topology').textContent(),
    `topology: ${t.topologyName} (preferred ${t.preferredTopologyLevel}, required ${t.requiredTopologyLevel})`,
  );
  const subGroups = await group.locator('.subgroups li').allTextContents();
  assert.deepEqual(
    subGroups.map((text) => text.split(' ')[0]),
    expected.subGroups.map((sub) => sub.name),
  );
  expected.subGroups.forEach((sub, i) => assert.match(subGroups[i], new RegExp(`minAvailable ${sub.minAvailable}\\b`)));
  assert.deepEqual(await group.locator('.group-pods code').allTextContents(), expected.pods);
  await page.close();
});

test('Suspend shows the JSON Patch and the suspended manifest', async () => {
  const page = await withList();
  await andSettle(page, () => page.locator('#edit-suspend').click());
  const patch = JSON.parse(await page.locator('#edit-patch').textContent());
  assert.deepEqual(patch, [{ op: 'add', path: '/spec/suspend', value: true }]);
  // The manifest was YAML: so is the edited manifest.
  assert.equal(await page.locator('#edit-object').getAttribute('data-format'), 'yaml');
  const edited = parse(await page.locator('#edit-object').textContent());
  assert.equal(edited.kind, 'JobSet');
  assert.equal(edited.spec.suspend, true);
  assert.deepEqual(edited.spec.replicatedJobs, list.items[0].spec.replicatedJobs);
  await page.locator('#edit-card').screenshot({ path: join(results, 'panels-edit-suspend.png') });
  await page.close();
});

test('a merge patch on one instance touches only that instance pod spec; bad JSON is refused', async () => {
  const page = await withList();
  await page.locator('#edit-component').selectOption('replicatedjob');
  await page.locator('#edit-instance').selectOption('workers');
  await page.locator('#edit-merge').fill('{"schedulerName": "kai-scheduler"}');
  await andSettle(page, () => page.locator('#edit-apply').click());
  const patch = JSON.parse(await page.locator('#edit-patch').textContent());
  assert.deepEqual(patch, [{ op: 'add', path: '/spec/replicatedJobs/1/template/spec/template/spec/schedulerName', value: 'kai-scheduler' }]);
  // The manifest was YAML: so is the edited manifest.
  assert.equal(await page.locator('#edit-object').getAttribute('data-format'), 'yaml');
  const edited = parse(await page.locator('#edit-object').textContent());
  assert.equal(edited.spec.replicatedJobs[1].template.spec.template.spec.schedulerName, 'kai-scheduler');
  assert.equal(edited.spec.replicatedJobs[0].template.spec.template.spec.schedulerName, undefined);

  await page.locator('#edit-merge').fill('{"schedulerName": ');
  await andSettle(page, () => page.locator('#edit-apply').click());
  assert.match(await page.locator('#edit-result .edit-verdict').textContent(), /refused/);
  assert.match(await page.locator('#edit-result .edit-error').textContent(), /not JSON/);
  // Refused: no patch and no manifest are shown, only why.
  assert.equal(await page.locator('#edit-patch, #edit-object, #edit-command').count(), 0);
  // The view itself still stands.
  assert.equal(await instanceNode(page, 'workers').locator('.pod-count').first().textContent(), '1/2 ready');
  await page.close();
});

test('the edit re-runs with the manifest, and a refused edit shows its diagnostic and an empty patch', async () => {
  const page = await withList();
  await page.locator('#edit-component').selectOption('replicatedjob');
  await page.locator('#edit-instance').selectOption('workers');
  await page.locator('#edit-merge').fill('{"schedulerName": "kai-scheduler"}');
  await andSettle(page, () => page.locator('#edit-apply').click());
  assert.match(await page.locator('#edit-result .edit-verdict').textContent(), /1 operation/);
  // The instance the edit names disappears from the manifest: the engine refuses the edit.
  const renamed = listText.replace('- name: workers', '- name: trainers');
  assert.notEqual(renamed, listText);
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), renamed));
  assert.match(await page.locator('#edit-result .edit-verdict').textContent(), /refused/);
  assert.deepEqual(await page.locator('#edit-result .edit-diagnostics li.error code').allTextContents(), ['edit/unknown-instance']);
  // Refused: no patch and no manifest are shown, only why.
  assert.equal(await page.locator('#edit-patch, #edit-object, #edit-command').count(), 0);
  // Clear drops the edit from later runs.
  await andSettle(page, () => page.locator('#edit-clear').click());
  assert.match(await page.locator('#edit-result').textContent(), /to preview the change/);
  await page.close();
});

test('the panels build no markup from user data and load nothing from elsewhere', async () => {
  const page = await playground.open();
  const hostile = JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: '<img src=x onerror=alert(1)>', namespace: 'ml' }, spec: { containers: [] } }],
  });
  await andSettle(page, () => page.evaluate((text) => window.playground.setPods(text), hostile));
  assert.deepEqual(await page.locator('#pods .unattributed li').allTextContents(), ['<img src=x onerror=alert(1)>']);
  assert.equal(await page.locator('#pods img').count(), 0);
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
  await page.close();
});
