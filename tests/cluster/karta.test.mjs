// The Karta CRD against a real kube-apiserver (scripts/control-plane.mjs): the shipped
// crd/kartas.run.ai.yaml is accepted and Established; every catalog definition applies as a
// Karta (server-side apply, strict field validation, as `kubectl apply --server-side` sends it)
// and reads back unchanged (nothing pruned); a definition with a misspelt field, a wrong type, a
// value outside an enum or a missing required field is refused by the server, naming the field.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { parse } from 'yaml';

import { versions } from '../../scripts/control-plane.mjs';
import { controlPlane, eventually, readText } from './cluster.mjs';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const KARTAS = '/apis/run.ai/v1alpha1/kartas';
const crd = parse(readText('crd/kartas.run.ai.yaml'));
const catalog = readdirSync(new URL('../../catalog/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => [entry.name, parse(readText(`catalog/${entry.name}/definition.yaml`))]);

let cp;
let skip;

/** Server-side apply of a Karta, with strict field validation (kubectl's default). */
function apply(karta) {
  return cp.request('PATCH', `${KARTAS}/${karta.metadata.name}?fieldManager=workload-map-test&fieldValidation=Strict`, karta, {
    headers: { 'Content-Type': 'application/apply-patch+yaml' },
  });
}

/** Creation, as `kubectl create` and `kubectl apply` (client-side) send a new object: strict field validation. */
function create(karta) {
  return cp.request('POST', `${KARTAS}?fieldManager=workload-map-test&fieldValidation=Strict`, karta);
}

/** The catalog's Job definition under another name, changed by `edit`. */
function brokenJob(name, edit) {
  const karta = structuredClone(catalog.find(([dir]) => dir === 'batch-job-v1')[1]);
  karta.metadata.name = name;
  edit(karta.spec.structureDefinition.rootComponent);
  return karta;
}

before(async () => {
  ({ cp, skip } = await controlPlane());
  if (!cp) return;
  const created = await cp.request('POST', CRDS, crd);
  assert.ok([201, 409].includes(created.status), `creating the CRD: ${created.status} ${created.body}`);
  await eventually('the Karta CRD is Established', async () => {
    const res = await cp.request('GET', `${CRDS}/kartas.run.ai`);
    return res.json?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
  });
  // Discovery serves the new group only a moment after Established.
  await eventually('run.ai/v1alpha1 is served', async () => (await cp.request('GET', KARTAS)).status === 200);
});

after(async () => {
  await cp?.stop();
});

describe('the Karta CRD on a real kube-apiserver', () => {
  test('the_shipped_crd_is_accepted_established_and_structural', { skip }, async () => {
    const res = await cp.request('GET', `${CRDS}/kartas.run.ai`);
    assert.equal(res.status, 200);
    const conditions = Object.fromEntries(res.json.status.conditions.map((c) => [c.type, c.status]));
    assert.equal(conditions.Established, 'True');
    assert.equal(conditions.NamesAccepted, 'True');
    assert.equal(conditions.NonStructuralSchema, undefined, 'the schema is structural');
    assert.deepEqual(res.json.status.acceptedNames.shortNames, ['krt']);
    const version = await cp.request('GET', '/version');
    assert.equal(version.json.gitVersion, versions().kubernetes, 'the pinned release answers');
  });

  test('a_wrong_token_is_refused', { skip }, async () => {
    const res = await cp.request('GET', KARTAS, undefined, { token: 'not-the-token' });
    assert.equal(res.status, 401);
  });

  test('every_catalog_definition_applies_as_a_karta_and_reads_back_unchanged', { skip }, async () => {
    assert.ok(catalog.length >= 20, `the catalog has ${catalog.length} definitions`);
    for (const [dir, karta] of catalog) {
      const res = await apply(karta);
      assert.equal(res.status, 201, `${dir}: ${res.status} ${res.body}`);
      assert.equal(res.headers.warning, undefined, `${dir}: no warning (${res.headers.warning})`);
      const read = await cp.request('GET', `${KARTAS}/${karta.metadata.name}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.json.spec, karta.spec, `${dir}: the stored spec is the applied one (nothing pruned or defaulted)`);
    }
    const list = await cp.request('GET', KARTAS);
    assert.deepEqual(list.json.items.map((k) => k.metadata.name).sort(), catalog.map(([, k]) => k.metadata.name).sort());
  });

  test('a_misspelt_field_is_refused_naming_it', { skip }, async () => {
    const karta = brokenJob('misspelt', (rootComponent) => {
      rootComponent.scaleDefinition = { replicaPath: rootComponent.scaleDefinition.replicasPath };
    });
    const res = await create(karta);
    assert.equal(res.status, 400, res.body);
    assert.match(res.json.message, /unknown field "spec\.structureDefinition\.rootComponent\.scaleDefinition\.replicaPath"/);
    assert.equal((await cp.request('GET', `${KARTAS}/misspelt`)).status, 404, 'nothing was stored');
    // Server-side apply refuses it too (this release answers 500 "failed to create typed patch
    // object" for a new object that does not fit the schema), naming the field.
    const applied = await apply(karta);
    assert.ok(applied.status >= 400, `${applied.status} ${applied.body}`);
    assert.match(applied.json.message, /\.spec\.structureDefinition\.rootComponent\.scaleDefinition\.replicaPath: field not declared in schema/);
    assert.equal((await cp.request('GET', `${KARTAS}/misspelt`)).status, 404, 'nothing was stored');
  });

  test('a_wrong_type_is_refused_with_422_naming_the_field', { skip }, async () => {
    const res = await create(
      brokenJob('wrong-type', (rootComponent) => {
        rootComponent.scaleDefinition.replicasPath = 3;
      }),
    );
    assert.equal(res.status, 422, res.body);
    assert.equal(res.json.reason, 'Invalid');
    const causes = res.json.details.causes.map((c) => `${c.field} ${c.reason}`);
    assert.ok(causes.includes('spec.structureDefinition.rootComponent.scaleDefinition.replicasPath FieldValueTypeInvalid'), causes.join('; '));
  });

  test('a_value_outside_an_enum_and_a_missing_required_field_are_refused_with_422', { skip }, async () => {
    const res = await create(
      brokenJob('bad-enum-and-required', (rootComponent) => {
        delete rootComponent.name;
        rootComponent.statusDefinition.statusMappings.running = [{ byExpression: { expression: '.x', expectedResult: 'true', language: 'python' } }];
      }),
    );
    assert.equal(res.status, 422, res.body);
    const causes = res.json.details.causes.map((c) => `${c.field} ${c.reason}`);
    assert.ok(causes.includes('spec.structureDefinition.rootComponent.name FieldValueRequired'), causes.join('; '));
    assert.ok(
      causes.some((c) => /statusMappings\.running\[0\]\.byExpression\.language FieldValueNotSupported/.test(c)),
      causes.join('; '),
    );
  });
});
