// The Timeline card (issue 18, ★): the successive states of one object pasted as a stream, as
// `kubectl get jobset x -w -o yaml` prints it, read state by state with the definition in use;
// the states where a status matcher changed its answer are marked; every state can be saved as
// a test case. Expected phases and matcher answers come from the package's Node entry
// (pkg/node.mjs) on the same objects, never written here.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { parse, stringify } from 'yaml';

import { root, runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();
const entry = join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2');
/** A rollout: suspended, resumed, starting, running (with a degraded spell), then completed; and a failed end. */
const ORDER = [
  'suspended',
  'suspended',
  'resuming',
  'initializing',
  'starting',
  'starting',
  'running',
  'running',
  'running',
  'degraded',
  'degraded',
  'running',
  'running',
  'running',
  'suspending',
  'suspended',
  'resuming',
  'running',
  'running',
  'completed',
  'completed',
  'failed',
];

let states;
let expected;

before(async () => {
  const api = await import(join(root, 'pkg', 'node.mjs'));
  const definition = new api.Definition(readFileSync(join(entry, 'definition.yaml'), 'utf8'));
  states = ORDER.map((name, i) => {
    const object = structuredClone(parse(readFileSync(join(entry, 'tests', `${name}.yaml`), 'utf8')).object);
    object.metadata = { ...object.metadata, name: 'llm', namespace: 'ml', resourceVersion: String(1000 + i) };
    return object;
  });
  const views = states.map((object) => definition.resolve(object));
  const answers = (view) => new Map(view.status.mappings.flatMap((m) => m.matchers.map((matcher, i) => [`${m.status} matcher ${i + 1}`, matcher.matched])));
  expected = views.map((view, i) => {
    const changed = [];
    if (i > 0) {
      const was = answers(views[i - 1]);
      for (const [name, now] of answers(view)) if (was.has(name) && was.get(name) !== now) changed.push(name);
    }
    return { phases: view.phases.join(','), changed: changed.sort() };
  });
});

async function readStates(page, text) {
  await page.locator('#timeline-input').fill(text);
  await page.getByRole('button', { name: 'Read states' }).click();
  await page.waitForFunction((n) => new RegExp(`^${n} states`).test(document.getElementById('timeline-note').textContent), states.length);
}

async function shown(page) {
  return page.locator('#timeline li.state').evaluateAll((items) =>
    items.map((li) => ({
      phases: li.dataset.phases,
      marked: li.classList.contains('changed'),
      changed: Array.from(li.querySelectorAll('.state-changes li'), (c) => c.textContent.replace(/:.*$/, '')).sort(),
    })),
  );
}

test(`a stream of ${ORDER.length} states (kubectl get -w -o yaml) is read state by state, and the matcher changes are marked`, async () => {
  assert.ok(states.length >= 20);
  // The rollout does change matchers' answers, and not at every state.
  const withChanges = expected.filter((e) => e.changed.length > 0).length;
  assert.ok(withChanges > 3 && withChanges < states.length - 3, `${withChanges} states with changes`);
  const page = await playground.open();
  await readStates(page, states.map((object) => `---\n${stringify(object)}`).join(''));
  const got = await shown(page);
  assert.equal(got.length, states.length);
  got.forEach((state, i) => {
    assert.equal(state.phases, expected[i].phases, `state ${i + 1}: phases`);
    assert.deepEqual(state.changed, expected[i].changed, `state ${i + 1}: matchers that changed`);
    assert.equal(state.marked, expected[i].changed.length > 0 || (i > 0 && expected[i].phases !== expected[i - 1].phases), `state ${i + 1}: marked`);
  });
  assert.match(
    await page.locator('#timeline-note').textContent(),
    new RegExp(`of JobSet llm, read with definition .*: a matcher changed its answer at ${expected.filter((e) => e.changed.length > 0).length} of them`),
  );
  // The filled timeline keeps the page free of critical and serious axe violations.
  const found = await new AxeBuilder({ page }).include('#timeline-card').analyze();
  assert.deepEqual(
    found.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`),
    [],
  );
  await page.close();
});

test('the states are read with the definition in use: an empty custom definition gives no view for any state', async () => {
  const page = await playground.open();
  const before = await runId(page);
  await page.evaluate(() => window.playground.setDefinition(''));
  await settled(page, before);
  await readStates(page, states.map((object) => stringify(object)).join('---\n'));
  assert.deepEqual(
    await page.locator('#timeline li.state .state-error').allTextContents(),
    states.map(() => 'no view: the definition is empty'),
  );
  assert.equal(await page.getByRole('button', { name: 'Save every state as a test case' }).isDisabled(), true);
  await page.close();
});

test('JSON objects one after another (kubectl get -w -o json) read the same', async () => {
  const page = await playground.open();
  await readStates(page, states.map((object) => JSON.stringify(object, null, 2)).join('\n'));
  assert.deepEqual(
    (await shown(page)).map((s) => s.phases),
    expected.map((e) => e.phases),
  );
  await page.close();
});

test('every state of the timeline is saved as a test case with the phases its view showed', async () => {
  const page = await playground.open();
  await readStates(page, states.map((object) => stringify(object)).join('---\n'));
  await page.getByRole('button', { name: 'Save every state as a test case' }).click();
  const cases = page.locator('#cases li.case');
  await cases.nth(states.length - 1).waitFor();
  assert.equal(await cases.count(), states.length);
  const summaries = await cases.locator('.case-summary').allTextContents();
  summaries.forEach((summary, i) => assert.equal(summary.replace(/ · .*$/, ''), expected[i].phases.split(',').join(', '), `case ${i + 1}`));
  assert.equal(await cases.first().locator('.case-name').textContent(), 'tests/state-01.yaml');
  assert.match(await page.locator('#timeline-note').textContent(), new RegExp(`^Saved ${states.length} test cases`));
  await page.close();
});

test('the timeline made no request beyond the playground and raised no error', () => {
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
});
