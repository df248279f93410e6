// States with no view (issue 18, point 8): the view's cards are hidden instead of showing empty
// headers, the Edit panel drops the previous manifest's components and says why it cannot edit
// (its buttons disabled) instead of doing nothing, an empty manifest is not offered a draft, and
// an emptied copy of a catalog entry is no longer called a copy.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();
const VIEW_CARDS = ['#resources-card', '#tree-card', '#phase-card', '#pods-card', '#gang-card'];

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

test('without a view its five cards are hidden and the Edit panel has no component and says why', async () => {
  const page = await playground.open();
  // The default manifest has a view, with components to edit.
  for (const card of VIEW_CARDS) assert.equal(await page.locator(card).isVisible(), true, card);
  assert.ok((await page.locator('#edit-component option').count()) > 0);
  await andSettle(page, () => page.evaluate(() => window.playground.setManifest('')));
  for (const card of VIEW_CARDS) assert.equal(await page.locator(card).isVisible(), false, card);
  assert.equal(await page.locator('#edit-component option').count(), 0);
  for (const button of ['#edit-suspend', '#edit-resume', '#edit-apply']) assert.equal(await page.locator(button).isDisabled(), true, button);
  assert.match(await page.locator('#edit-result').textContent(), /^No view: there is nothing to suspend/);
  // A manifest again: the cards and the edits come back.
  await andSettle(page, () =>
    page.evaluate(() =>
      window.playground.setManifest(
        'apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: a}\nspec:\n  replicatedJobs:\n  - name: w\n    template: {spec: {template: {spec: {containers: [{name: c}]}}}}\n',
      ),
    ),
  );
  for (const card of VIEW_CARDS) assert.equal(await page.locator(card).isVisible(), true, card);
  assert.equal(await page.locator('#edit-suspend').isDisabled(), false);
  await page.close();
});

test('an empty definition is offered a draft only when the manifest holds an object, and is not called a copy', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.locator('#definition-fork').click());
  assert.match(await page.locator('#definition-source').textContent(), /a copy of catalog entry/);
  await andSettle(page, () => page.evaluate(() => window.playground.setDefinition('')));
  assert.equal(await page.locator('#definition-offer').isVisible(), true);
  assert.equal(await page.locator('#offer-draft').count(), 1);
  assert.doesNotMatch(await page.locator('#definition-source').textContent(), /copy/);
  assert.match(await page.locator('#definition-source').textContent(), /custom, empty/);
  await andSettle(page, () => page.evaluate(() => window.playground.setManifest('')));
  assert.equal(await page.locator('#definition-offer').isVisible(), true);
  assert.equal(await page.locator('#offer-draft').count(), 0);
  assert.equal(await page.locator('#offer-catalog').count(), 1);
  await page.close();
});

test('a forbidden function in a replicas path is one problem, with no follow-on count mismatch', async () => {
  const page = await playground.open();
  await andSettle(page, () => page.locator('#definition-fork').click());
  const definition = await page.evaluate(() => window.playground.state.definition);
  const forbidden = definition.replace(/replicasPath: .*/, "replicasPath: '[range(2)][]'");
  assert.notEqual(forbidden, definition);
  await andSettle(page, () => page.evaluate((text) => window.playground.setDefinition(text), forbidden));
  const problems = await page.locator('#diagnostics').textContent();
  assert.match(problems, /expr\/forbidden/);
  assert.doesNotMatch(problems, /instance ids count|instance-count-mismatch/);
  await page.close();
});

test('the no-view pages raised no error', () => {
  assert.deepEqual(playground.errors, []);
});
