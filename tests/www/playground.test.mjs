// End-to-end tests of the playground in real headless Chromium. They build www/dist/ from the
// built package (`npm run build` first), serve it, and drive the page as a user does.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { encodeShare } from '../../www/src/state.js';
import { editorText, runId, settled, results, root, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

/** Moves the cursor to the end of the first line containing `text` in an editor. */
async function endOfLine(page, editor, text) {
  await page.locator(`#${editor} .cm-line`, { hasText: text }).first().click();
  await page.keyboard.press('End');
}

async function typeAndSettle(page, keys) {
  const before = await runId(page);
  for (const key of keys) {
    if (key.length > 1 && !key.includes(' ')) await page.keyboard.press(key);
    else await page.keyboard.type(key);
  }
  await settled(page, before);
}

const gpuTotal = (page) => page.locator('#total-gpus').textContent();

test('default example shows 12 GPUs, the role tree and Running explained', async () => {
  const page = await playground.open();
  assert.equal(await gpuTotal(page), '12');
  assert.equal(await page.locator('.resource-table .total-row .gpu').textContent(), '12');
  const instances = await page.locator('#tree li.instance .instance-label').allTextContents();
  assert.deepEqual(instances, ['leader', 'workers']);
  assert.match(await page.locator('#tree').textContent(), /× 2/);
  assert.deepEqual(await page.locator('#headline .chip').allTextContents(), ['Running']);
  const running = page.locator('#phases li.mapping[data-status="Running"]');
  assert.match(await running.textContent(), /matched/);
  assert.match(await running.textContent(), /byExpression/);
  assert.match(await page.locator('#versions').textContent(), /engine \S+ · catalog \S+/);
  await page.screenshot({ path: join(results, 'playground-default.png'), fullPage: true });
  await page.close();
});

test('hovering a role tree node highlights the definition lines of its component', async () => {
  const page = await playground.open();
  await page.locator('#tree li.instance .node', { hasText: 'workers' }).hover();
  // A hover scrolls nothing (tree-hover.test.mjs): look for the highlighted lines down the
  // definition editor, the mouse staying on the node.
  await page.evaluate(async () => {
    const scroller = document.querySelector('#definition-editor .cm-scroller');
    while (!document.querySelector('#definition-editor .cm-source-highlight') && scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight) {
      scroller.scrollTop += scroller.clientHeight / 2;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
  });
  const highlighted = await page.locator('#definition-editor .cm-source-highlight').allTextContents();
  assert.ok(
    highlighted.some((line) => /name:\s*\S+/.test(line)),
    `highlighted: ${highlighted.join(' | ')}`,
  );
  assert.ok((await page.locator('#manifest-editor .cm-source-highlight').count()) > 0);
  // The keyboard walks the tree and selecting keeps the highlight.
  await page.locator('#tree li.instance .node', { hasText: 'leader' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#tree .node[aria-pressed="true"] .instance-label').textContent(), 'workers');
  assert.match((await page.locator('#manifest-editor .cm-source-highlight').allTextContents()).join('\n'), /name: workers/);
  await page.close();
});

test('editing a replica count updates the totals', async () => {
  const page = await playground.open();
  await endOfLine(page, 'manifest-editor', 'replicas: 2');
  await typeAndSettle(page, ['Backspace', '3']);
  assert.equal(await gpuTotal(page), '16');
  assert.equal(await page.locator('.resource-table .total-row .gpu').textContent(), '16');
  await page.close();
});

test('a YAML syntax error shows a marker on its line and in the list, which jumps to it', async () => {
  const page = await playground.open();
  await endOfLine(page, 'manifest-editor', 'namespace: research');
  await typeAndSettle(page, [': oops']);
  const marked = page.locator('#manifest-editor .cm-line', { has: page.locator('.cm-lintRange-error') });
  assert.deepEqual(await marked.allTextContents(), ['  namespace: research: oops']);
  const lineNumber = (await editorText(page, 'manifest-editor')).split('\n').indexOf('  namespace: research: oops') + 1;
  const entry = page.locator('#diagnostics li.error button').first();
  assert.equal(await entry.getAttribute('data-line'), String(lineNumber));
  assert.equal(await entry.getAttribute('data-source'), 'object');
  // The last result that could be computed stays visible, marked stale.
  assert.match(await page.locator('#banner').textContent(), new RegExp(`manifest cannot be read \\(line ${lineNumber}, column \\d+\\)`));
  assert.equal(await gpuTotal(page), '12');
  await page.locator('#definition-editor .cm-content').focus();
  await entry.click();
  assert.equal(await page.locator('#manifest-editor .cm-activeLine').textContent(), '  namespace: research: oops');
  await page.close();
});

test('a runaway expression is stopped and reported, and the page keeps responding', async () => {
  const page = await playground.open();
  const definition = await page.evaluate(() => window.playground.state.definition);
  const runaway = runawayDefinition(definition);
  const before = await runId(page);
  await page.evaluate((text) => window.playground.setDefinition(text), runaway);
  await page.waitForFunction(
    (after) => {
      const status = document.getElementById('run-status');
      if (status.dataset.state === 'stopped') return true;
      // The engine may end the runaway itself (a step budget) and report it as a diagnostic.
      return status.dataset.state === 'done' && Number(status.dataset.runId) > after && document.querySelector('#phases .check .error, #diagnostics li.error');
    },
    before,
    { timeout: 60_000 },
  );
  if ((await page.locator('#run-status').getAttribute('data-state')) === 'stopped') {
    assert.match(await page.locator('#banner').textContent(), /stopped/);
  }
  // Still responsive: the theme toggles, and fixing the definition evaluates again.
  await page.locator('#theme').click();
  assert.equal(await page.locator('#theme').textContent(), 'Theme: light');
  const afterRunaway = await runId(page);
  await page.evaluate((text) => window.playground.setDefinition(text), definition);
  await settled(page, afterRunaway);
  assert.equal(await gpuTotal(page), '12');
  await page.close();
});

/** The default manifest with about 1.8 MB of padding: bounded work that takes well over 100 ms. */
const DEFAULT_MANIFEST = readFileSync(join(root, 'www', 'src', 'default-manifest.yaml'), 'utf8');
const SLOW_MANIFEST = `${DEFAULT_MANIFEST}\npadding:\n${Array.from({ length: 60000 }, (_, i) => `- key${i}: value number ${i}`).join('\n')}\n`;

/** Waits for a rendered result newer than `after` (settled() also accepts a stopped page). */
async function resultAfter(page, after) {
  await page.waitForFunction(
    (id) => document.getElementById('run-status').dataset.state === 'done' && Number(document.getElementById('run-status').dataset.runId) > id,
    after,
    { timeout: 60_000 },
  );
}

/** Waits until the engine has been restarted `count` times and the page says it stopped. */
async function stopped(page, count) {
  await page.waitForFunction((n) => window.playground?.restarts >= n && document.getElementById('run-status').dataset.state === 'stopped', count, {
    timeout: 60_000,
  });
}

// Twice SLOW_MANIFEST's padding: about 1.1 s to evaluate on the 2-core machine (SLOW_MANIFEST
// about 0.8 s), where the default manifest's first run in a fresh worker takes 40-70 ms and, with
// both cores busy, sometimes more than 100 ms.
const SLOWER_MANIFEST = `${DEFAULT_MANIFEST}\npadding:\n${Array.from({ length: 120000 }, (_, i) => `- key${i}: value number ${i}`).join('\n')}\n`;

test('the watchdog terminates a run that overstays its time and restarts the engine', async () => {
  // A watchdog time and an input that takes several times longer than that to evaluate. The
  // watchdog is short only for that run: the page's first run and the restarted (cold) worker's
  // run of the default manifest get a time no load makes them miss, so a busy machine cannot
  // stop a run the test means to finish.
  const page = await playground.open('?timeout=60000');
  assert.equal(await page.evaluate(() => window.playground.timeoutMs), 60_000);
  const restartsBefore = await page.evaluate(() => window.playground.restarts);
  await page.evaluate(() => (window.playground.timeoutMs = 300));
  await page.evaluate((text) => window.playground.setManifest(text), SLOWER_MANIFEST);
  await stopped(page, restartsBefore + 1);
  assert.match(await page.locator('#banner').textContent(), /Evaluation stopped after .* engine was restarted/);
  const afterStop = await runId(page);
  await page.evaluate(() => (window.playground.timeoutMs = 60_000));
  await page.evaluate((text) => window.playground.setManifest(text), DEFAULT_MANIFEST);
  await resultAfter(page, afterStop);
  assert.equal(await gpuTotal(page), '12');
  await page.close();
});

test('a link whose run is stopped waits for an edit instead of restarting in a loop', async () => {
  const state = { definition: 'apiVersion: run.ai/v1alpha1\nkind: Karta\n', manifest: SLOW_MANIFEST, options: {} };
  const link = `?timeout=100#${await encodeShare(state, 'test')}`;
  const fresh = await playground.open(link, { settle: false });
  await stopped(fresh, 1);
  await fresh.waitForTimeout(800);
  assert.equal(await fresh.evaluate(() => window.playground.restarts), 1, 'stopped once, then waited');
  assert.equal(await fresh.locator('#run-status').getAttribute('data-state'), 'stopped');
  // Type where the manifest stays as slow to read (a comment at its very end), whatever the layout.
  // (Near its top: the centre of 1.8 MB of content is not a place a click can be scrolled to.)
  await fresh.locator('#manifest-editor .cm-content').click({ position: { x: 40, y: 8 } });
  await fresh.keyboard.press('Control+End');
  await fresh.keyboard.type('#');
  await stopped(fresh, 2);
  await fresh.close();
});

test('a link that inflates past 5 MB is refused in the worker and the notice stays until dismissed', async () => {
  const bomb = deflateRawSync(Buffer.concat([Buffer.from('{"definition":"'), Buffer.alloc(32 * 1024 * 1024, 0x20), Buffer.from('","manifest":""}')]));
  const page = await playground.open(`#s=${bomb.toString('base64url')}`);
  const notice = page.locator('#notice');
  assert.match(await notice.textContent(), /This link could not be read \(the link holds more than 5 MB of text\)/);
  // The page has settled on its first result, which used to hide the message: it stays.
  assert.equal(await gpuTotal(page), '12', 'the default is shown instead');
  assert.equal(await notice.isVisible(), true);
  await page.locator('#notice-dismiss').click();
  assert.equal(await notice.isHidden(), true);
  await page.close();
});

test('after a trap the worker is replaced, the page says so, and the next edit evaluates', async () => {
  const page = await playground.open();
  await page.evaluate(() => window.playground.trapForTests());
  await stopped(page, 1);
  assert.match(await page.locator('#banner').textContent(), /The engine stopped on this input and was restarted \(.*unreachable.*\)/);
  assert.equal(await page.locator('#run-status').textContent(), 'engine stopped');
  const before = await runId(page);
  await endOfLine(page, 'manifest-editor', 'replicas: 2');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('3');
  await resultAfter(page, before);
  assert.equal(await gpuTotal(page), '16');
  assert.equal(await page.evaluate(() => window.playground.restarts), 1);
  await page.close();
});

test('a shared link reproduces the state in a fresh browser', async () => {
  const page = await playground.open();
  await endOfLine(page, 'manifest-editor', 'replicas: 2');
  await typeAndSettle(page, ['Backspace', '5']);
  assert.equal(await gpuTotal(page), '24');
  await page.locator('#share').click();
  await page.waitForFunction(() => document.getElementById('share').dataset.url);
  const link = await page.locator('#share').getAttribute('data-url');
  assert.match(link, /#s=[A-Za-z0-9_-]+$/);
  const state = await page.evaluate(() => window.playground.state);
  await page.close();

  const fresh = await playground.open(link.slice(playground.url.length));
  assert.equal(await gpuTotal(fresh), '24');
  const reproduced = await fresh.evaluate(() => window.playground.state);
  assert.equal(reproduced.definition, state.definition);
  assert.equal(reproduced.manifest, state.manifest);
  await fresh.close();
});

test('drafts are kept across a reload', async () => {
  const page = await playground.open();
  await endOfLine(page, 'manifest-editor', 'replicas: 2');
  await typeAndSettle(page, ['Backspace', '4']);
  await page.waitForTimeout(600);
  await page.reload();
  await settled(page);
  assert.equal(await gpuTotal(page), '20');
  await page.close();
});

test('choosing a catalog example loads it, and the load can be undone', async () => {
  const page = await playground.open();
  const original = await page.evaluate(() => window.playground.state);
  await page.locator('#examples').click();
  const options = await page.locator('#gallery-list button').evaluateAll((all) => all.map((o) => o.dataset.example).filter((v) => /^\d+:\d+$/.test(v)));
  assert.ok(options.length > 0, 'the catalog provides examples');
  let before = await runId(page);
  await page.locator(`#gallery-list button[data-example="${options[0]}"]`).click();
  await settled(page, before);
  const loaded = await page.evaluate(() => window.playground.state);
  assert.notEqual(loaded.manifest, original.manifest);
  assert.equal(await page.locator('#run-status').getAttribute('data-state'), 'done');
  before = await runId(page);
  await page.locator('#undo-load').click();
  await settled(page, before);
  const restored = await page.evaluate(() => window.playground.state);
  assert.equal(restored.definition, original.definition);
  assert.equal(restored.manifest, original.manifest);
  assert.equal(await gpuTotal(page), '12');
  assert.equal(await page.locator('#undo-load').isHidden(), true);
  await page.close();
});

test("loading an example is also undone by the editor's own undo", async () => {
  const page = await playground.open();
  const original = await page.evaluate(() => window.playground.state.manifest);
  await page.locator('#examples').click();
  const options = await page.locator('#gallery-list button').evaluateAll((all) => all.map((o) => o.dataset.example).filter((v) => /^\d+:\d+$/.test(v)));
  let before = await runId(page);
  await page.locator(`#gallery-list button[data-example="${options[0]}"]`).click();
  await settled(page, before);
  assert.notEqual(await page.evaluate(() => window.playground.state.manifest), original);
  before = await runId(page);
  await page.locator('#manifest-editor .cm-content').click();
  await page.keyboard.press('Control+z');
  await settled(page, before);
  assert.equal(await page.evaluate(() => window.playground.state.manifest), original);
  await page.close();
});

test('GPUs requested through resourceClaims show n/a (never 0), and an unmapped phase is explained', async () => {
  const page = await playground.open();
  await page.locator('#examples').click();
  await page.locator('#gallery-search').fill('kind:pod version:v1 group:core');
  let before = await runId(page);
  await page.locator('#gallery-list .gallery-group[data-kind="Pod"] button', { hasText: /^definition only$/ }).click();
  await settled(page, before);
  before = await runId(page);
  await page.evaluate((text) => window.playground.setManifest(text), POD_WITH_CLAIM);
  await settled(page, before);
  assert.equal(await gpuTotal(page), 'n/a');
  assert.equal(await page.locator('.resource-table .total-row .gpu').textContent(), 'n/a');
  assert.equal(await page.locator('#total-cpu').textContent(), '2');
  // Its phase (Unknown) is mapped by nothing: Undefined, said in words.
  assert.deepEqual(await page.locator('#headline .chip').allTextContents(), ['Undefined']);
  assert.match(await page.locator('#phases .phase-summary').textContent(), /no mapping matched/);
  await page.close();
});

const POD_WITH_CLAIM = `apiVersion: v1
kind: Pod
metadata: {name: dra-trainer}
spec:
  resourceClaims:
    - name: gpus
      resourceClaimTemplateName: four-gpus
  containers:
    - name: trainer
      image: trainer:1
      resources:
        requests: {cpu: "2", memory: 4Gi}
        claims: [{name: gpus}]
status:
  phase: Unknown
`;

test('names, labels and messages from the manifest render as text, never as HTML', async () => {
  const page = await playground.open();
  const hostile = '<img src=x onerror=alert(1)>';
  const manifest = (await page.evaluate(() => window.playground.state.manifest))
    .replace('name: llm-pretrain', `name: "${hostile}"`)
    .replace('name: workers', `name: "${hostile}"`)
    .replace('message: all replicated jobs have started', `message: "${hostile}"`);
  const before = await runId(page);
  await page.evaluate((text) => window.playground.setManifest(text), manifest);
  await settled(page, before);
  assert.equal(await page.locator('#headline .object-name').textContent(), `JobSet/${hostile}`);
  assert.ok((await page.locator('#tree').textContent()).includes(hostile));
  assert.ok((await page.locator('#phases .conditions').textContent()).includes(hostile));
  assert.equal(await page.locator('.results img, #diagnostics img').count(), 0);
  assert.deepEqual(
    playground.errors.filter((e) => e.includes('dialog')),
    [],
  );
  await page.close();
});

test('dark mode follows the system and the toggle overrides it', async () => {
  const page = await playground.open('', { colorScheme: 'dark' });
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await background(), 'rgb(21, 23, 26)');
  await page.screenshot({ path: join(results, 'playground-dark.png') });
  await page.locator('#theme').click();
  assert.equal(await background(), 'rgb(247, 247, 245)');
  await page.close();
});

test('Ctrl+Enter runs at once and ? opens the shortcuts help', async () => {
  const page = await playground.open();
  const before = await runId(page);
  await page.locator('#manifest-editor .cm-content').click();
  await page.keyboard.press('Control+Enter');
  await settled(page, before);
  await page.locator('#tree').click();
  await page.keyboard.press('?');
  assert.equal(await page.locator('#help').isVisible(), true);
  assert.match(await page.locator('#help').textContent(), /Run now/);
  await page.close();
});

test('the page made no request beyond its own files and raised no error', () => {
  assert.deepEqual(playground.foreign, []);
  assert.deepEqual(playground.errors, []);
});

test('the playground sources never parse strings as HTML', () => {
  const sources = join(root, 'www', 'src');
  for (const file of readdirSync(sources).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(sources, file), 'utf8');
    assert.doesNotMatch(text, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser/, file);
  }
});

/** The definition with its first byExpression replaced by a jq recursion that never ends. */
function runawayDefinition(definition) {
  const lines = definition.split('\n');
  const at = lines.findIndex((line) => /^\s*expression:/.test(line));
  assert.ok(at >= 0, 'the default definition has a byExpression');
  const indent = lines[at].length - lines[at].trimStart().length;
  let end = at + 1;
  while (end < lines.length && (lines[end].trim() === '' || lines[end].length - lines[end].trimStart().length > indent)) end++;
  lines.splice(at, end - at, `${' '.repeat(indent)}expression: "def f: f + 1; f"`);
  return lines.join('\n');
}
