// catalog/definition.schema.json as editors use it: shipped in the package with an `$id`,
// strict where the format is closed (a misspelt field is rejected), and every catalog
// definition valid against it (ajv, draft 2020-12; YAML read with the `yaml` package, as the
// YAML language server does).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';

import { parse } from 'yaml';

import { root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const schema = JSON.parse(readFileSync(path.join(root, 'catalog', 'definition.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
const catalog = path.join(root, 'catalog');
const definitions = readdirSync(catalog, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => path.join(catalog, e.name, 'definition.yaml'));
const jobset = parse(readFileSync(path.join(catalog, 'jobset-x-k8s-io-jobset-v1alpha2', 'definition.yaml'), 'utf8'));

describe('definition.schema.json', () => {
  test('it_is_shipped_with_an_id', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.equal(manifest.exports['./definition.schema.json'], './catalog/definition.schema.json');
    assert.ok(manifest.files.includes('catalog/definition.schema.json'));
    assert.equal(schema.$id, 'https://raw.githubusercontent.com/workload-map/workload-map/main/catalog/definition.schema.json');
    assert.equal(require.resolve('workload-map/definition.schema.json'), path.join(root, 'catalog', 'definition.schema.json'));
  });

  test('every_catalog_definition_is_valid', () => {
    assert.ok(definitions.length >= 27);
    for (const file of definitions) {
      const ok = validate(parse(readFileSync(file, 'utf8')));
      assert.ok(ok, `${path.relative(root, file)}: ${ajv.errorsText(validate.errors)}`);
    }
  });

  test('a_misspelt_field_is_rejected_where_the_format_is_closed', () => {
    const misspelt = structuredClone(jobset);
    const child = misspelt.spec.structureDefinition.childComponents[0];
    child.scaleDefinition.replicaPath = child.scaleDefinition.replicasPath;
    delete child.scaleDefinition.replicasPath;
    assert.equal(validate(misspelt), false);
    assert.ok(
      validate.errors.some((e) => e.keyword === 'additionalProperties' && e.params.additionalProperty === 'replicaPath'),
      ajv.errorsText(validate.errors),
    );
    for (const [where, edit] of [
      [
        'the root',
        (d) => {
          d.spec.structureDefinition.rootComponent.specDefinitoin = {};
        },
      ],
      [
        'spec',
        (d) => {
          d.spec.structureDefintion = {};
        },
      ],
      [
        'a status mapping',
        (d) => {
          d.spec.structureDefinition.rootComponent.statusDefinition.statusMappings.runing = [];
        },
      ],
    ]) {
      const d = structuredClone(jobset);
      edit(d);
      assert.equal(validate(d), false, where);
    }
  });

  test('kubernetes_metadata_stays_open', () => {
    const labelled = structuredClone(jobset);
    labelled.metadata.labels = { team: 'ml' };
    labelled.metadata.annotations = { note: 'x' };
    assert.ok(validate(labelled), ajv.errorsText(validate.errors));
  });
});
