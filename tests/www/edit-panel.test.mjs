// The Edit panel's outputs (issue 18, point 3): a ready-made `kubectl patch` command, a Copy
// button for the command, the JSON Patch and the edited manifest, the edited manifest in the
// manifest's own format (YAML or JSON), and a refused edit that shows no `[]` and no `null`.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { root, runId, settled, sharedPlayground } from './browser.mjs';

const listText = readFileSync(join(root, 'tests', 'node', 'fixtures', 'jobset-with-pods-list.yaml'), 'utf8');
const list = parse(listText);
const jobset = list.items[0];
const playground = sharedPlayground();

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

async function withManifest(text) {
  const page = await playground.open();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await andSettle(page, () => page.evaluate((t) => window.playground.setManifest(t), text));
  return page;
}

/** The words a POSIX shell reads from a command line (the shell itself splits and unquotes them). */
function shellWords(command) {
  return JSON.parse(
    execFileSync('sh', ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${command.replace(/^kubectl /, '')}`], { encoding: 'utf8' }),
  );
}

test('Suspend gives a kubectl patch command that a shell reads back as the JSON Patch shown, and Copy copies it', async () => {
  const page = await withManifest(listText);
  await andSettle(page, () => page.locator('#edit-suspend').click());
  const operations = JSON.parse(await page.locator('#edit-patch').textContent());
  assert.ok(operations.length > 0);
  const command = await page.locator('#edit-command').textContent();
  const group = jobset.apiVersion.split('/')[0];
  assert.deepEqual(shellWords(command), [
    'patch',
    `${jobset.kind.toLowerCase()}.${group}`,
    jobset.metadata.name,
    '-n',
    jobset.metadata.namespace,
    '--type',
    'json',
    '-p',
    JSON.stringify(operations),
  ]);
  await page.getByRole('button', { name: 'Copy the kubectl patch command' }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), command);
  await page.getByRole('button', { name: 'Copy the edited manifest' }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.locator('#edit-object').textContent());
  await page.close();
});

test('a value with a quote is quoted for the shell', async () => {
  const page = await withManifest(listText);
  await page.locator('#edit-component').selectOption('replicatedjob');
  await page.locator('#edit-merge').fill(`{"schedulerName": "it's-mine"}`);
  await andSettle(page, () => page.locator('#edit-apply').click());
  const operations = JSON.parse(await page.locator('#edit-patch').textContent());
  assert.ok(JSON.stringify(operations).includes("it's-mine"));
  assert.equal(shellWords(await page.locator('#edit-command').textContent()).at(-1), JSON.stringify(operations));
  await page.close();
});

test('the edited manifest is YAML for a YAML manifest and JSON for a JSON one', async () => {
  const yamlPage = await withManifest(listText);
  await andSettle(yamlPage, () => yamlPage.locator('#edit-suspend').click());
  const yamlText = await yamlPage.locator('#edit-object').textContent();
  assert.doesNotMatch(yamlText, /^\s*\{/);
  assert.equal(parse(yamlText).spec.suspend, true);
  assert.match(await yamlPage.locator('#edit-card h3').nth(2).textContent(), /Edited manifest \(YAML\)/);
  await yamlPage.close();

  const jsonPage = await withManifest(JSON.stringify(jobset, null, 2));
  await andSettle(jsonPage, () => jsonPage.locator('#edit-suspend').click());
  const edited = JSON.parse(await jsonPage.locator('#edit-object').textContent());
  assert.equal(edited.spec.suspend, true);
  assert.deepEqual(edited.spec.replicatedJobs, jobset.spec.replicatedJobs);
  await jsonPage.close();
});

test('a refused edit shows why, and no empty patch, null manifest or command', async () => {
  const page = await withManifest(listText);
  await page.locator('#edit-merge').fill('{"schedulerName": ');
  await andSettle(page, () => page.locator('#edit-apply').click());
  assert.match(await page.locator('#edit-result .edit-verdict').textContent(), /refused, nothing to apply/);
  assert.match(await page.locator('#edit-result .edit-error').textContent(), /not JSON/);
  assert.equal(await page.locator('#edit-patch, #edit-object, #edit-command').count(), 0);
  assert.doesNotMatch(await page.locator('#edit-result').textContent(), /\[\]|null/);
  await page.close();
});

test('the Edit panel tests raised no error', () => {
  assert.deepEqual(playground.errors, []);
});
