// Source links in the playground, end to end in real Chromium: the role tree and the Phase
// panel select where things came from (the view's source ranges, UTF-16 offsets even after
// emoji and CJK text), and the definition editor completes jq paths from the manifest and
// shows a path's value on hover.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runId, settled, results, root, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

const DEFINITION = `# JobSet 🚀 作業: non-ASCII text before the components
apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: jobset
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
        statusMappings:
          running:
          - byConditions:
            - {type: Completed, status: "False"}
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: .spec.replicatedJobs[].name
      specDefinition:
        podTemplateSpecPath: .spec.replicatedJobs[].template.spec.template
      scaleDefinition:
        replicasPath: .spec.replicatedJobs[].replicas
      podSelector:
        componentInstanceSelector: {idPath: .metadata.name}
`;

const MANIFEST = `# 🚀 学習 run
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
spec:
  replicatedJobs:
  - name: leader
    replicas: 1
    template:
      spec:
        template:
          spec:
            containers: [{name: main, resources: {limits: {nvidia.com/gpu: 4}}}]
  - name: workers
    replicas: 2
    template:
      spec:
        template:
          spec:
            containers: [{name: main, resources: {limits: {nvidia.com/gpu: 4}}}]
status:
  conditions: [{type: Completed, status: "False"}]
`;

/** 1-based number of the first line of `text` that starts (after indentation) with `start`. */
function lineOf(text, start) {
  return text.split('\n').findIndex((line) => line.trimStart().startsWith(start)) + 1;
}

/** A page showing DEFINITION and MANIFEST, settled. */
async function openWithTexts() {
  const page = await playground.open();
  const before = await runId(page);
  await page.evaluate(
    ([definition, manifest]) => {
      window.playground.setDefinition(definition);
      window.playground.setManifest(manifest);
      window.playground.runNow();
    },
    [DEFINITION, MANIFEST],
  );
  await settled(page, before);
  await page.waitForFunction(() => document.querySelector('#total-gpus')?.textContent === '12');
  return page;
}

const selection = (page, editor) => page.evaluate((which) => window.playground.selection(which), editor);

test('clicking a component selects its entry in the definition', async () => {
  const page = await openWithTexts();
  await page.locator('#tree li.component[data-component="replicatedjob"] > .node').click();
  const selected = await selection(page, 'definition');
  assert.equal(selected.fromLine, lineOf(DEFINITION, '- name: replicatedjob'));
  assert.equal(selected.toLine, lineOf(DEFINITION, 'componentInstanceSelector:'));
  assert.ok(selected.text.startsWith('name: replicatedjob'), selected.text);
  assert.ok(selected.text.endsWith('{idPath: .metadata.name}'), selected.text);
  // The lines stay highlighted while the node is selected.
  const highlighted = await page.locator('#definition-editor .cm-source-highlight').allTextContents();
  assert.ok(
    highlighted.some((line) => line.includes('name: replicatedjob')),
    highlighted.join(' | '),
  );
  await page.close();
});

test('clicking an instance selects its part of the manifest', async () => {
  const page = await openWithTexts();
  await page.locator('#tree li.instance[data-instance="workers"] > .node').click();
  const selected = await selection(page, 'manifest');
  assert.equal(selected.fromLine, lineOf(MANIFEST, '- name: workers'));
  assert.equal(selected.toLine, lineOf(MANIFEST, 'status:') - 1);
  assert.ok(selected.text.startsWith('name: workers\n    replicas: 2'), selected.text);
  // Hovering another instance highlights its lines instead.
  await page.locator('#tree li.instance[data-instance="leader"] > .node').hover();
  const highlighted = await page.locator('#manifest-editor .cm-source-highlight').allTextContents();
  assert.ok(highlighted[0].includes('name: leader'), highlighted.join(' | '));
  assert.ok(!highlighted.some((line) => line.includes('name: workers')), highlighted.join(' | '));
  await page.close();
});

test('an instance of a workload inside a List selects its part of the List', async () => {
  const page = await openWithTexts();
  const body = MANIFEST.replace(/^# .*\n/, '')
    .trimEnd()
    .split('\n')
    .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
    .join('\n');
  const list = `apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: stray}}\n${body}\n`;
  const before = await runId(page);
  await page.evaluate((text) => window.playground.setManifest(text), list);
  await settled(page, before);
  await page.locator('#tree li.instance[data-instance="workers"] > .node').click();
  const selected = await selection(page, 'manifest');
  assert.equal(selected.fromLine, lineOf(list, '- name: workers'));
  assert.ok(selected.text.startsWith('name: workers'), selected.text);
  await page.close();
});

test('clicking a phase reason selects its matcher in the definition', async () => {
  const page = await openWithTexts();
  const running = page.locator('#phases li.mapping[data-status="Running"]');
  assert.match(await running.textContent(), /matched/);
  await running.locator('button.matcher-head').first().click();
  const selected = await selection(page, 'definition');
  assert.equal(selected.fromLine, lineOf(DEFINITION, '- byConditions:'));
  assert.ok(selected.text.startsWith('byConditions:'), selected.text);
  assert.ok(selected.text.endsWith('{type: Completed, status: "False"}'), selected.text);
  await page.screenshot({ path: join(results, 'provenance-matcher.png') });
  await page.close();
});

test('the definition editor completes jq paths from the manifest', async () => {
  const page = await openWithTexts();
  await page.locator('#definition-editor .cm-line', { hasText: 'instanceIdPath' }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' // .spec.');
  const menu = page.locator('.cm-tooltip-autocomplete');
  await menu.waitFor();
  const options = await menu.locator('li').allTextContents();
  assert.ok(
    options.some((o) => o.startsWith('replicatedJobs[]')),
    options.join(' | '),
  );
  await menu.locator('li', { hasText: 'replicatedJobs[]' }).first().click();
  await page.keyboard.type('.');
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-autocomplete')?.textContent.includes('replicas'));
  const inner = await menu.locator('li').allTextContents();
  for (const key of ['name', 'replicas', 'template'])
    assert.ok(
      inner.some((o) => o.startsWith(key)),
      inner.join(' | '),
    );
  const line = await page.locator('#definition-editor .cm-activeLine').textContent();
  assert.ok(line.endsWith('.spec.replicatedJobs[].'), line);
  await page.screenshot({ path: join(results, 'provenance-completion.png') });
  await page.close();
});

test('hovering a jq path in the definition shows its value in the manifest', async () => {
  const page = await openWithTexts();
  await page.locator('#definition-editor .cm-line', { hasText: 'replicasPath' }).scrollIntoViewIfNeeded();
  // The screen place of the path's last character: the whole path, whose values are 1 and 2.
  const at = await page.evaluate(() => {
    const line = [...document.querySelectorAll('#definition-editor .cm-line')].find((l) => l.textContent.includes('replicasPath'));
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const i = node.textContent.indexOf('.replicas');
      if (i >= 0) {
        const range = document.createRange();
        range.setStart(node, i + '.replicas'.length - 1);
        range.setEnd(node, i + '.replicas'.length);
        const rect = range.getBoundingClientRect();
        return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
      }
    }
    return null;
  });
  assert.ok(at, 'the replicasPath line shows its path');
  await page.mouse.move(at.x, at.y);
  const tooltip = page.locator('.cm-tooltip-hover .cm-jq-value');
  await tooltip.waitFor();
  assert.equal(await tooltip.textContent(), '.spec.replicatedJobs[].replicas = 1\n2');
  await page.close();
});
