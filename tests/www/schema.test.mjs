// The API schema in the playground (issue 23), end to end in real Chromium: a CRD pasted (the
// JobSet CRD, read from ../shared/crds at test time, never copied) or loaded from a .gz file
// completes the definition's paths with their types, shows a path's type on hover, underlines
// paths it does not have as the user types, and drafts a definition for a type the catalog does
// not know. The bundled index names the shared schemas and where upstream publishes them; it
// holds none of them.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { resolve } from 'workload-map';
import { runId, settled, results, root, sharedPlayground } from './browser.mjs';

const playground = sharedPlayground();

const CRDS = join(root, '..', 'shared', 'crds');
/** Without ../shared/crds the tests that read it are skipped, except under CI=true, where they fail. */
const noCrds = !existsSync(CRDS) && process.env.CI !== 'true';
const JOBSET_CRD = 'jobset.x-k8s.io_jobsets.yaml.gz';
const jobsetCrd = () => gunzipSync(readFileSync(join(CRDS, JOBSET_CRD))).toString('utf8');
const DEFAULT_MANIFEST = readFileSync(join(root, 'www', 'src', 'default-manifest.yaml'), 'utf8');
const INDEX = JSON.parse(readFileSync(join(root, 'www', 'src', 'schema-index.json'), 'utf8'));

const DEFINITION = `apiVersion: run.ai/v1alpha1
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
      instanceIdPath: .spec.replicatedJobs[]?.name
      specDefinition:
        podTemplateSpecPath: .spec.replicatedJobs[]?.template.spec.template
      scaleDefinition:
        replicasPath: .spec.replicatedJobs[].replicas
      podSelector:
        componentInstanceSelector: {idPath: .metadata.name}
`;

/** A small CRD of a type no catalog entry covers, with an array of pod templates. */
const TRAINRUN_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: trainruns.training.example.com}
spec:
  group: training.example.com
  names: {kind: TrainRun, plural: trainruns}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            properties:
              suspend: {type: boolean}
              roles:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    replicas: {type: integer}
                    template:
                      type: object
                      properties:
                        metadata: {type: object}
                        spec:
                          type: object
                          properties:
                            containers:
                              type: array
                              items:
                                type: object
                                required: [name]
                                properties:
                                  name: {type: string}
                                  image: {type: string}
                                  resources:
                                    type: object
                                    properties:
                                      limits: {type: object, additionalProperties: {x-kubernetes-int-or-string: true}}
                                      requests: {type: object, additionalProperties: {x-kubernetes-int-or-string: true}}
          status:
            type: object
            properties:
              phase: {type: string, enum: [Pending, Running, Succeeded, Failed]}
`;

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

async function pasteManifest(page, text) {
  await andSettle(page, async () => {
    await page.locator('#manifest-editor .cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(text);
  });
}

/** Opens the schema panel and pastes a schema (through the clipboard, Ctrl+V) and loads it, as a user does. */
async function pasteSchema(page, text) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(playground.url).origin });
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.locator('#schema-panel > summary').click();
  await page.locator('#schema-text').click();
  await page.keyboard.press('Control+V');
  assert.equal(await page.locator('#schema-text').evaluate((t) => t.value.length), text.length);
  await page.locator('#schema-load').click();
  await page.waitForFunction(() => document.getElementById('schema-panel').dataset.loaded === 'true', null, { timeout: 60_000 });
}

async function withDefinition(page, text) {
  await andSettle(page, () => page.evaluate((t) => window.playground.setDefinition(t), text));
}

/** The screen place of the last character of `needle` on the definition line holding `lineText`. */
async function placeOf(page, lineText, needle) {
  await page.locator('#definition-editor .cm-line', { hasText: lineText }).scrollIntoViewIfNeeded();
  return page.evaluate(
    ([lineText, needle]) => {
      const line = [...document.querySelectorAll('#definition-editor .cm-line')].find((l) => l.textContent.includes(lineText));
      const at = line.textContent.indexOf(needle) + needle.length - 1;
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let seen = 0;
      let node;
      while ((node = walker.nextNode())) {
        if (seen + node.textContent.length > at) {
          const range = document.createRange();
          range.setStart(node, at - seen);
          range.setEnd(node, at - seen + 1);
          const rect = range.getBoundingClientRect();
          return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
        }
        seen += node.textContent.length;
      }
      return null;
    },
    [lineText, needle],
  );
}

/** The texts underlined as errors in the definition, one per line (CodeMirror splits a mark where highlighting spans begin). */
const errorUnderlines = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#definition-editor .cm-line')]
      .map((line) => [...line.querySelectorAll('.cm-lintRange-error')].map((mark) => mark.textContent).join(''))
      .filter((text) => text !== ''),
  );

// --- the index ----------------------------------------------------------------------------------

test('the bundled index names every shared schema and where upstream publishes it, and bundles none', { skip: noCrds }, () => {
  const files = readdirSync(CRDS).filter((f) => f.endsWith('.gz'));
  assert.ok(files.length >= 20, files.join(', '));
  for (const file of files) {
    const entries = INDEX.filter((e) => e.file === file);
    assert.ok(entries.length > 0, `${file} is in www/src/schema-index.json`);
    const text = gunzipSync(readFileSync(join(CRDS, file))).toString('utf8');
    for (const entry of entries) {
      assert.match(entry.url, /^https:\/\/raw\.githubusercontent\.com\//);
      assert.ok(text.includes(`kind: ${entry.kind}`) || text.includes(`"kind": "${entry.kind}"`), `${file} describes ${entry.kind}`);
      for (const version of entry.versions) assert.ok(text.includes(version), `${file} has ${version}`);
    }
  }
  // The built page holds names only: no schema text in any of its files.
  const dist = join(root, 'www', 'dist');
  for (const file of readdirSync(dist)) {
    if (!/\.(js|json|html)$/.test(file)) continue;
    assert.ok(!readFileSync(join(dist, file), 'utf8').includes('openAPIV3Schema'), `${file} bundles a schema`);
  }
});

test('the schema panel says where to get the manifest type’s schema, and fetches nothing', async () => {
  const page = await playground.open();
  await page.locator('#schema-panel > summary').click();
  const hint = page.locator('#schema-hint');
  assert.match(await hint.textContent(), /JobSet \(jobset\.x-k8s\.io, v1alpha2\) is published upstream: jobset\.x-k8s\.io_jobsets\.yaml/);
  const href = await hint.locator('a').first().getAttribute('href');
  assert.equal(href, INDEX.find((e) => e.kind === 'JobSet').url);
  // Any type of the index, from its picker.
  await page.locator('#schema-index').selectOption({ label: 'RayCluster (ray.io) v1, v1alpha1' });
  assert.match(await hint.textContent(), /RayCluster \(ray\.io, v1, v1alpha1\) is published upstream: ray\.io_rayclusters\.yaml/);
  assert.deepEqual(playground.foreign, []);
  await page.close();
});

// --- a pasted CRD ---------------------------------------------------------------------------------

test('a pasted CRD completes the definition’s paths from the schema, with their types', { skip: noCrds }, async () => {
  const page = await playground.open();
  await withDefinition(page, DEFINITION);
  await pasteSchema(page, jobsetCrd());
  assert.match(await page.locator('#schema-status').textContent(), /pasted schema \(\d+ KB\): JobSet jobset\.x-k8s\.io\/v1alpha2/);
  await page.waitForFunction(() => /Every path the definition reads is in it/.test(document.getElementById('schema-status').textContent));

  // A field the manifest does not have: only the schema can offer it.
  assert.ok(!DEFAULT_MANIFEST.includes('ttlSecondsAfterFinished'));
  await page.locator('#definition-editor .cm-line', { hasText: 'instanceIdPath' }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' // .spec.ttl');
  const menu = page.locator('.cm-tooltip-autocomplete');
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-autocomplete')?.textContent.includes('ttlSecondsAfterFinished'));
  const options = await menu.locator('li').allTextContents();
  assert.ok(
    options.some((o) => o.startsWith('ttlSecondsAfterFinished') && o.includes('an integer')),
    options.join(' | '),
  );
  await page.screenshot({ path: join(results, 'schema-completion.png') });
  await page.keyboard.press('Escape');

  // Inside a list of templates, through `[]?`: the Job spec's fields.
  await page.keyboard.type(' // .spec.replicatedJobs[]?.template.spec.backoff');
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-autocomplete')?.textContent.includes('backoffLimit'));
  const inner = await menu.locator('li').allTextContents();
  assert.ok(
    inner.some((o) => o.startsWith('backoffLimit') && o.includes('an integer')),
    inner.join(' | '),
  );
  await page.close();
});

test('a pasted CRD underlines an unknown path as the user types, with a did-you-mean, and clears it when fixed', { skip: noCrds }, async () => {
  const page = await playground.open();
  await withDefinition(page, DEFINITION);
  await pasteSchema(page, jobsetCrd());
  assert.deepEqual(await errorUnderlines(page), []);

  // A typo typed into the replica path: underlined without pressing Run.
  await page.locator('#definition-editor .cm-line', { hasText: 'replicasPath' }).click();
  await page.keyboard.press('End');
  for (let i = 0; i < '[].replicas'.length; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  await page.waitForFunction(() => document.querySelector('#definition-editor .cm-lintRange-error'), null, { timeout: 60_000 });
  // The finding is located at the path that reads the missing field.
  assert.deepEqual(await errorUnderlines(page), ['.spec.replicatedJob[].replicas']);
  const listed = page.locator('#diagnostics li', { hasText: 'schema/unknown-field' });
  await listed.first().waitFor();
  assert.match(await listed.first().textContent(), /has no field "replicatedJob"/);
  assert.match(await listed.first().textContent(), /did you mean "replicatedJobs"\?/);
  assert.match(await page.locator('#schema-status').textContent(), /1 path of the definition is not in it/);
  await page.screenshot({ path: join(results, 'schema-underline.png') });

  // Fixed again: the underline goes.
  await page.keyboard.type('s');
  await page.waitForFunction(() => !document.querySelector('#definition-editor .cm-lintRange-error'), null, { timeout: 60_000 });
  assert.equal(await page.locator('#diagnostics li', { hasText: 'schema/unknown-field' }).count(), 0);
  await page.close();
});

test('hovering a path shows its type from the schema beside its value in the manifest', { skip: noCrds }, async () => {
  const page = await playground.open();
  await withDefinition(page, DEFINITION);
  await pasteSchema(page, jobsetCrd());
  const at = await placeOf(page, 'replicasPath', '.replicas');
  await page.mouse.move(at.x, at.y);
  const tooltip = page.locator('.cm-tooltip-hover .cm-jq-value');
  await tooltip.waitFor();
  const text = await tooltip.textContent();
  assert.match(text, /^\.spec\.replicatedJobs\[\]\.replicas: an integer \(JobSet jobset\.x-k8s\.io\/v1alpha2\)\n/);
  assert.match(text, /\.spec\.replicatedJobs\[\]\.replicas = 1\n2$/);
  // The template path is a pod template.
  await page.mouse.move(0, 0);
  const template = await placeOf(page, 'podTemplateSpecPath', '.spec.template');
  await page.mouse.move(template.x, template.y);
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-hover .cm-jq-value')?.textContent.includes('template.spec.template: a pod template'));
  await page.close();
});

// --- a file, and a type the catalog does not know -------------------------------------------------

test('a .gz schema file loads, and a type the catalog does not know is offered a draft from it', async () => {
  const page = await playground.open();
  await pasteManifest(page, TRAINRUN);
  assert.equal(await page.locator('#offer-draft-schema').count(), 0, 'no schema: no draft from one');
  await page.locator('#schema-panel > summary').click();
  await page.locator('#schema-file').setInputFiles({ name: 'trainruns.yaml.gz', mimeType: 'application/gzip', buffer: gzipSync(TRAINRUN_CRD) });
  await page.waitForFunction(() => document.getElementById('schema-panel').dataset.loaded === 'true');
  assert.match(await page.locator('#schema-panel > summary').textContent(), /trainruns\.yaml\.gz \(TrainRun training\.example\.com\/v1\)/);

  const offer = page.locator('#offer-draft-schema');
  await offer.waitFor();
  await andSettle(page, () => offer.click());
  const drafted = await page.evaluate(() => window.playground.state);
  assert.equal(drafted.mode, 'custom');
  assert.match(drafted.definition, /^# Drafted from the API schema of training\.example\.com\/v1 TrainRun/);
  assert.match(await page.locator('#definition-source').textContent(), /drafted from the API schema of training\.example\.com\/v1 TrainRun/);
  const expected = resolve(drafted.definition, TRAINRUN);
  assert.equal(expected.resources.gpus, 14, 'chief 1 × 2 + worker 3 × 4');
  assert.equal(await page.locator('#total-gpus').textContent(), '14');
  // The draft checks cleanly against its own schema.
  await page.waitForFunction(() => /Every path the definition reads is in it/.test(document.getElementById('schema-status').textContent));
  assert.deepEqual(await errorUnderlines(page), []);
  await page.close();
});
