// The examples picker is generated from catalog/: each case file's `object` becomes the example's
// manifest exactly as written (comments kept, dedented), whatever YAML style holds it.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCatalog } from '../../www/catalog.mjs';

const DEFINITION =
  'metadata: {name: demo}\nspec:\n  structureDefinition:\n    rootComponent:\n      name: demo\n      kind: {group: example.com, version: v1, kind: Demo}\n';

/** The example text read from one case file. */
function exampleOf(caseText) {
  const dir = mkdtempSync(join(tmpdir(), 'www-catalog-'));
  try {
    mkdirSync(join(dir, 'demo', 'tests'), { recursive: true });
    writeFileSync(join(dir, 'demo', 'definition.yaml'), DEFINITION);
    writeFileSync(join(dir, 'demo', 'tests', 'case.yaml'), caseText);
    const [entry] = readCatalog(dir);
    assert.equal(entry.apiVersion, 'example.com/v1');
    assert.equal(entry.kind, 'Demo');
    return entry.examples[0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases = [
  ['block_mapping_keeps_comments', 'description: d\nobject:\n  kind: Demo  # why\n  spec:\n    a: 1\nexpect: {}\n', 'kind: Demo  # why\nspec:\n  a: 1\n'],
  ['literal_block_scalar_is_taken_verbatim', 'description: d\nobject: |\n  kind: Demo\n  # note\nexpect: {}\n', 'kind: Demo\n# note\n'],
  ['flow_mapping_is_rewritten_as_block_yaml', 'description: d\nobject: {kind: Demo, spec: {a: 1}}\n', 'kind: Demo\nspec:\n  a: 1\n'],
];

for (const [name, caseText, expected] of cases) {
  test(name, () => {
    const example = exampleOf(caseText);
    assert.equal(example.description, 'd');
    assert.equal(example.text, expected);
  });
}

test('missing_catalog_gives_no_examples', () => {
  assert.deepEqual(readCatalog(join(tmpdir(), 'no-such-catalog-dir')), []);
});
