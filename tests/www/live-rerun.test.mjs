// Saved test cases and the timeline follow the definition (issue 18, "what authors expect"):
// every saved case runs again whenever the definition in use changes and says whether it passes
// (the core's runCase, as `workload-map test`), the timeline's states are read again, and a new
// result keeps the role tree node selected.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { parse, stringify } from 'yaml';
import { root, runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();
const entry = join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2');
const ENTRY_TEXT = readFileSync(join(entry, 'definition.yaml'), 'utf8');
/** The same entry whose root component has another name: every component expectation fails. */
const RENAMED = ENTRY_TEXT.replace(/^( {6}name: )jobset$/m, '$1renamed');
/** The same entry where Completed never matches. */
const NEVER_COMPLETED = ENTRY_TEXT.replace('byConditions: [{type: Completed, status: "True"}]', 'byConditions: [{type: NeverCompleted, status: "True"}]');

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

const verdicts = (page) => page.locator('#cases li.case .case-verdict').evaluateAll((all) => all.map((v) => v.dataset.verdict));

test('a saved case runs again when the definition changes: it fails with the failed expectations, then passes again', async () => {
  assert.notEqual(RENAMED, ENTRY_TEXT);
  const page = await playground.open();
  await page.locator('#case-save').click();
  await page.locator('#cases li.case').first().waitFor();
  await page.waitForFunction(() => document.querySelector('#cases .case-verdict')?.dataset.verdict === 'pass');
  // Pinned to the entry's text: the same definition, still passing.
  await andSettle(page, () => page.locator('#definition-fork').click());
  await andSettle(page, () => page.evaluate((text) => window.playground.setDefinition(text), RENAMED));
  await page.waitForFunction(() => document.querySelector('#cases .case-verdict')?.dataset.verdict === 'fail');
  const failures = await page.locator('#cases .case-failures li').allTextContents();
  assert.ok(failures.length > 0);
  assert.ok(
    failures.some((f) => /jobset/.test(f) && /expected/.test(f)),
    failures.join('\n'),
  );
  // The verdicts and the failures keep the card free of critical and serious axe violations.
  const found = await new AxeBuilder({ page }).include('#cases-card').analyze();
  assert.deepEqual(
    found.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`),
    [],
  );
  // Not struck out: a case made with another definition is run, not only marked.
  assert.equal(await page.locator('#cases .other-definition .case-name').evaluate((e) => getComputedStyle(e).textDecorationLine), 'none');
  await andSettle(page, () => page.evaluate((text) => window.playground.setDefinition(text), ENTRY_TEXT));
  await page.waitForFunction(() => document.querySelector('#cases .case-verdict')?.dataset.verdict === 'pass');
  assert.deepEqual(await verdicts(page), ['pass']);
  await page.close();
});

test("the timeline's states are read again when the definition changes", async () => {
  const page = await playground.open();
  await andSettle(page, () => page.locator('#definition-fork').click());
  const names = ['running', 'completed'];
  const stream = names.map((name) => stringify(parse(readFileSync(join(entry, 'tests', `${name}.yaml`), 'utf8')).object)).join('---\n');
  await page.locator('#timeline-input').fill(stream);
  await page.getByRole('button', { name: 'Read states' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#timeline li.state').length === 2);
  const phases = () => page.locator('#timeline li.state').evaluateAll((all) => all.map((li) => li.dataset.phases));
  const [, completedBefore] = await phases();
  assert.match(completedBefore, /Completed/);
  await andSettle(page, () => page.evaluate((text) => window.playground.setDefinition(text), NEVER_COMPLETED));
  await page.waitForFunction(() => !/Completed/.test(document.querySelectorAll('#timeline li.state')[1]?.dataset.phases ?? 'Completed'));
  assert.doesNotMatch((await phases())[1], /Completed/);
  await page.close();
});

test('a new result keeps the role tree node selected, with its source lines', async () => {
  const page = await playground.open();
  await page.locator('#tree li.instance[data-instance="workers"] > .node').click();
  assert.equal(await page.locator('#tree .node[aria-pressed="true"] .instance-label').textContent(), 'workers');
  const manifest = await page.evaluate(() => window.playground.state.manifest);
  await andSettle(page, () => page.evaluate((text) => window.playground.setManifest(text), manifest.replace('replicas: 2', 'replicas: 3')));
  assert.equal(await page.locator('#tree .node[aria-pressed="true"]').count(), 1);
  assert.equal(await page.locator('#tree .node[aria-pressed="true"] .instance-label').textContent(), 'workers');
  // Its lines in the manifest stay highlighted, read from the new result.
  assert.match((await page.locator('#manifest-editor .cm-source-highlight').allTextContents()).join('\n'), /name: workers/);
  await page.close();
});

test('re-running made no request beyond the playground and raised no error', () => {
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
});
