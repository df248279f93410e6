// CEL in the playground: the worker fetches the CEL module (engine-cel.wasm) only when the
// definition holds CEL, before that definition compiles, and the CEL matchers then decide the
// phase. The default example (jq only, from the catalog) never fetches it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runId, settled, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

const DEFINITION = `apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: cel-playground
spec:
  structureDefinition:
    rootComponent:
      name: w
      kind: {group: example.com, version: v1, kind: W}
      statusDefinition:
        statusMappings:
          running:
            - byExpression:
                expression: object.status.ready > 1
                expectedResult: "true"
                language: cel
          failed:
            - byExpression:
                expression: size(object.status.failed) > 0
                expectedResult: "true"
                language: cel
`;

const MANIFEST = `apiVersion: example.com/v1
kind: W
metadata: {name: w}
status:
  ready: 0
  failed: [oom]
`;

test('the worker fetches the CEL module only for a definition that holds CEL, and CEL decides the phase', async () => {
  const page = await playground.open('', { settle: false });
  const fetched = [];
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop();
    if (name.endsWith('.wasm')) fetched.push(name);
  });
  await settled(page);
  assert.deepEqual(await page.locator('#headline .chip').allTextContents(), ['Running']);
  assert.ok(!fetched.includes('engine-cel.wasm'), `the default (jq) example fetched ${fetched.join(', ')}`);

  let before = await runId(page);
  await page.evaluate((text) => window.playground.setManifest(text), MANIFEST);
  await settled(page, before);
  before = await runId(page);
  await page.evaluate((text) => window.playground.setDefinition(text), DEFINITION);
  await settled(page, before);
  assert.deepEqual(await page.locator('#headline .chip').allTextContents(), ['Failed']);
  assert.deepEqual(
    fetched.filter((name) => name === 'engine-cel.wasm'),
    ['engine-cel.wasm'],
  );
  assert.equal(await page.locator('#diagnostics li.error').count(), 0);
  assert.deepEqual(playground.errors, []);
  await page.close();
});
