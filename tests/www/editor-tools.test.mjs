// The tools above each editor (issue 18, "what authors expect"): Format for YAML (comments kept,
// an unreadable text left alone with the place of its first error), loading from a file (picker
// and drop) or an address (a clear error when it fails or is not allowed, a bounded size), and
// Copy and Download for the definition, the JSON view and the Edit panel's patch and manifest.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { root, runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();
/** The other origin the URL test served from (its requests are the only ones off the page). */
let otherOrigin = 'none';
const ENTRY_TEXT = readFileSync(join(root, 'catalog', 'jobset-x-k8s-io-jobset-v1alpha2', 'definition.yaml'), 'utf8');

async function andSettle(page, action) {
  const before = await runId(page);
  await action();
  await settled(page, before);
}

const state = (page) => page.evaluate(() => window.playground.state);
const gpus = (page) => page.locator('#total-gpus').textContent();

/** The default manifest, badly indented (4 spaces, extra spaces) and with its comments. */
async function messy(page) {
  const manifest = (await state(page)).manifest;
  // Every indentation doubled (a sequence item's content too: "- " becomes "-   ").
  return manifest
    .replace(/^( *)/gm, (spaces) => spaces + spaces)
    .replace(/^( *)- /gm, '$1-   ')
    .replace('kind: JobSet', 'kind:     JobSet   # the kind');
}

test('Format re-indents the manifest, keeps its comments and is undone by Ctrl+Z', async () => {
  const page = await playground.open();
  const original = (await state(page)).manifest;
  const text = await messy(page);
  assert.match(text, /^ {4}name:/m);
  await andSettle(page, () => page.evaluate((t) => window.playground.setManifest(t), text));
  await andSettle(page, () => page.locator('#manifest-format').click());
  const formatted = (await state(page)).manifest;
  assert.doesNotMatch(formatted, /^ {4}name:/m);
  assert.match(formatted, /^kind: JobSet # the kind$/m);
  for (const comment of original.split('\n').filter((l) => l.startsWith('#'))) assert.ok(formatted.includes(comment), comment);
  assert.equal(await gpus(page), '12');
  assert.match(await page.locator('#manifest-note').textContent(), /Formatted the manifest/);
  await andSettle(page, async () => {
    await page.locator('#manifest-editor .cm-content').focus();
    await page.keyboard.press('Control+z');
  });
  assert.equal((await state(page)).manifest, text);
  await page.close();
});

test('Format on a YAML with an error changes nothing and says where the error is', async () => {
  const page = await playground.open();
  const broken = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: [a,\nspec: :\n';
  await andSettle(page, () => page.evaluate((t) => window.playground.setManifest(t), broken));
  await page.locator('#manifest-format').click();
  assert.equal((await state(page)).manifest, broken);
  assert.match(
    await page.locator('#manifest-note').textContent(),
    /^Not formatted: the manifest cannot be read at line \d+, column \d+: .+ Nothing was changed\.$/,
  );
  await page.close();
});

test('Format of the definition: off while it follows the catalog, keeps the comments once it is a copy', async () => {
  const page = await playground.open();
  assert.equal(await page.locator('#definition-format').isDisabled(), true);
  await andSettle(page, () => page.locator('#definition-fork').click());
  assert.equal(await page.locator('#definition-format').isDisabled(), false);
  await andSettle(page, () => page.evaluate((t) => window.playground.setDefinition(t.replace(/^( {6}name: jobset)$/m, '$1    # the root')), ENTRY_TEXT));
  await andSettle(page, () => page.locator('#definition-format').click());
  const formatted = (await state(page)).definition;
  assert.match(formatted, /^ {6}name: jobset # the root$/m);
  for (const comment of ENTRY_TEXT.split('\n').filter((l) => l.startsWith('#'))) assert.ok(formatted.includes(comment), comment);
  assert.equal(await gpus(page), '12');
  await page.close();
});

test('a file is loaded with Open… or dropped on an editor, and a file too large is refused', async () => {
  const page = await playground.open();
  const manifest = (await state(page)).manifest.replace('replicas: 2', 'replicas: 4');
  await andSettle(page, () =>
    page.locator('#manifest-tools input[type="file"]').setInputFiles({ name: 'big.yaml', mimeType: 'application/yaml', buffer: Buffer.from(manifest) }),
  );
  assert.equal((await state(page)).manifest, manifest);
  assert.equal(await gpus(page), '20');
  assert.equal(await page.locator('#undo-load').textContent(), 'Undo load (big.yaml)');
  // Dropped on the editor's text: the whole text is replaced (not inserted where it fell).
  const dropped = manifest.replace('replicas: 4', 'replicas: 1');
  await andSettle(page, () =>
    page.evaluate((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'dropped.yaml', { type: 'application/yaml' }));
      document
        .querySelector('#manifest-editor .cm-content')
        .dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true, clientX: 100, clientY: 300 }));
    }, dropped),
  );
  assert.equal((await state(page)).manifest, dropped);
  assert.equal(await gpus(page), '8');
  // A definition file pins it: custom mode, its origin named.
  await andSettle(page, () =>
    page.evaluate(
      (text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'mine.yaml'));
        document.querySelector('#definition-editor').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      },
      ENTRY_TEXT.replace('name: jobset-x-k8s-io-jobset-v1alpha2', 'name: mine'),
    ),
  );
  assert.equal(await page.evaluate(() => window.playground.mode), 'custom');
  assert.match(await page.locator('#definition-source').textContent(), /loaded from mine\.yaml/);
  // Larger than 16 MB: refused, nothing changed.
  const before = (await state(page)).manifest;
  await page
    .locator('#manifest-tools input[type="file"]')
    .setInputFiles({ name: 'huge.yaml', mimeType: 'application/yaml', buffer: Buffer.alloc(17 * 1024 * 1024, 0x20) });
  await page.waitForFunction(() => /not loaded/.test(document.getElementById('manifest-note').textContent));
  assert.equal(await page.locator('#manifest-note').textContent(), 'Not loaded: huge.yaml is larger than 16 MB: not loaded');
  assert.equal((await state(page)).manifest, before);
  await page.close();
});

test('an address is loaded, and a refusal, a missing CORS header or a size past the bound is said clearly', async () => {
  const page = await playground.open();
  const manifest = (await state(page)).manifest.replace('replicas: 2', 'replicas: 3');
  // Another origin (another port): the browser applies CORS to it as to any other site.
  const other = createServer((request, response) => {
    const cors = { 'access-control-allow-origin': '*' };
    if (request.url === '/ok.yaml') response.writeHead(200, cors).end(manifest);
    else if (request.url === '/no-cors.yaml') response.writeHead(200).end(manifest);
    else if (request.url === '/huge.yaml') response.writeHead(200, cors).end(Buffer.alloc(17 * 1024 * 1024, 0x20));
    else response.writeHead(404, 'Not Found', cors).end('no');
  });
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (other.address()).port}`;
  otherOrigin = base;
  const load = async (address) => {
    await page.locator('#manifest-url-input').fill(address);
    await page.locator('#manifest-url-load').click();
    await page.waitForFunction(() => !/^Loading /.test(document.getElementById('manifest-note').textContent));
    return page.locator('#manifest-note').textContent();
  };
  await page.locator('#manifest-url').click();
  assert.equal(await page.locator('#manifest-url-input').evaluate((e) => e === document.activeElement), true);
  const original = (await state(page)).manifest;
  const host = new URL(base).host;
  assert.equal(await load(`${base}/missing.yaml`), `Not loaded: ${host} answered HTTP 404 Not Found`);
  const refused = await load(`${base}/no-cors.yaml`);
  assert.ok(
    refused.startsWith(`Not loaded: ${host} could not be read from this page: `) &&
      /CORS/.test(refused) &&
      refused.endsWith('Download the file and open it instead.'),
    refused,
  );
  assert.equal(await load(`${base}/huge.yaml`), 'Not loaded: huge.yaml is larger than 16 MB: not loaded');
  assert.equal(await load('ftp://manifests.example/x.yaml'), 'Not loaded: only http and https addresses can be loaded, not ftp:');
  assert.equal(await load('not an address'), 'Not loaded: "not an address" is not an address (it must start with https://)');
  assert.equal((await state(page)).manifest, original);
  const before = await runId(page);
  assert.equal(await load(`${base}/ok.yaml`), `Loaded ${base}/ok.yaml.`);
  await settled(page, before);
  assert.equal((await state(page)).manifest, manifest);
  assert.equal(await gpus(page), '16');
  await page.close();
  other.close();
});

test('Copy and Download: the definition alone, the JSON view, the patch and the edited manifest', async () => {
  const page = await playground.open();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(playground.url).origin });
  const definition = (await state(page)).definition;
  await page.locator('#definition-copy').click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), definition);
  const saved = async (click) => {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
  };
  assert.deepEqual(await saved(() => page.locator('#definition-download').click()), { name: 'jobset-x-k8s-io-jobset-v1alpha2.yaml', text: definition });
  await page.getByRole('tab', { name: 'JSON' }).click();
  const json = await page.locator('#json').textContent();
  assert.deepEqual(await saved(() => page.locator('#download-json').click()), { name: 'llm-pretrain.view.json', text: json });
  assert.equal(JSON.parse(json).name, 'llm-pretrain');
  await page.getByRole('tab', { name: 'Overview' }).click();
  await andSettle(page, () => page.locator('#edit-suspend').click());
  const patch = await page.locator('#edit-patch').textContent();
  assert.deepEqual(await saved(() => page.locator('#download-edit-patch').click()), { name: 'llm-pretrain.patch.json', text: patch });
  const edited = await page.locator('#edit-object').textContent();
  assert.deepEqual(await saved(() => page.locator('#download-edit-object').click()), { name: 'llm-pretrain.edited.yaml', text: edited });
  assert.match(edited, /suspend: true/);
  await page.close();
});

test('the tools raised no error', () => {
  assert.deepEqual(playground.errors, []);
  // The only requests off the page are the addresses the URL test asked for.
  assert.deepEqual(
    playground.foreign.filter((url) => !url.startsWith(otherOrigin)),
    [],
  );
});
