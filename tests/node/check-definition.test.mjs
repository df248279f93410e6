// Definitions checked against API schemas: `checkDefinition` in the package and
// `workload-map validate --crd` (files, .gz, folders, bundles, standard input, every output
// format), on a small CRD of our own and, when present, the shared CRDs (../shared/crds, read
// in place) against the whole catalog.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { Definition, checkDefinition, draftFromSchema, schemaFields } from '../../pkg/node.mjs';
import { cli, fixture, fixturePath, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const crd = fixture('crds/trainer-crd.yaml');
const good = fixture('crds/trainer-definition.yaml');
const typo = fixture('crds/trainer-typo.yaml');
const crdPath = 'tests/node/fixtures/crds/trainer-crd.yaml';
const typoPath = 'tests/node/fixtures/crds/trainer-typo.yaml';
const goodPath = 'tests/node/fixtures/crds/trainer-definition.yaml';
const shared = path.join(root, '..', 'shared', 'crds');

describe('checkDefinition', () => {
  test('a_typo_is_an_error_at_the_field_with_a_did_you_mean', () => {
    const result = checkDefinition(typo, [{ name: 'trainer-crd.yaml', text: crd }]);
    assert.equal(result.valid, false);
    assert.deepEqual(result.checked, [{ label: 'v1', group: 'example.com', version: 'v1', kind: 'Trainer', source: 'trainer-crd.yaml' }]);
    const [d] = result.diagnostics;
    assert.equal(result.diagnostics.length, 1);
    assert.equal(d.code, 'schema/unknown-field');
    assert.equal(d.severity, 'error');
    assert.equal(d.source, 'definition');
    assert.deepEqual([d.line, d.column, d.endLine, d.endColumn], [21, 38, 21, 43]);
    assert.equal(typo.split('\n')[20].slice(37, 42), 'group');
    assert.equal(d.help, 'did you mean "groups"?');
  });

  test('a_good_definition_is_valid_and_its_reads_carry_the_schema_types', () => {
    const result = checkDefinition(good, crd);
    assert.equal(result.valid, true, JSON.stringify(result.diagnostics));
    const types = Object.fromEntries(result.reads.map((r) => [r.field, r.type]));
    assert.equal(types['.spec.groups[].template'], 'a pod template');
    assert.equal(types['.spec.groups[].replicas'], 'an integer');
    assert.equal(types['.spec.suspend'], 'a boolean');
  });

  test('all_versions_say_which_fields_exist_where', () => {
    const result = checkDefinition(good, crd, { allVersions: true });
    assert.deepEqual(
      result.checked.map((c) => c.label),
      ['v1', 'v2'],
    );
    const suspend = result.paths.find((p) => p.field === '.spec.suspend');
    assert.deepEqual([suspend.present, suspend.missing], [['v1'], ['v2']]);
    assert.ok(
      result.diagnostics.some((d) => d.message.endsWith('(with v2; not with v1)')),
      JSON.stringify(result.diagnostics),
    );
  });

  test('schemas_that_cannot_be_read_are_diagnostics_with_source_schema', () => {
    const result = checkDefinition(good, [{ name: 'bad.yaml', text: 'kind: ConfigMap' }]);
    assert.equal(result.valid, false);
    assert.equal(result.diagnostics[0].code, 'schema/invalid');
    assert.equal(result.diagnostics[0].source, 'schema');
    assert.match(result.diagnostics[0].message, /^bad\.yaml: /);
    assert.equal(result.diagnostics[0].line, undefined);
  });

  test('misuse_throws_a_type_error', () => {
    assert.throws(() => checkDefinition({}, crd), TypeError);
    assert.throws(() => checkDefinition(good, 42), TypeError);
    assert.throws(() => checkDefinition(good, [{ name: 'x' }]), TypeError);
  });
});

describe('validate --crd', () => {
  test('a_typo_fails_with_its_place_and_hint', () => {
    const { code, stdout } = cli(['validate', '--crd', crdPath, typoPath]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /INVALID: tests\/node\/fixtures\/crds\/trainer-typo\.yaml/);
    assert.match(stdout, /trainer-typo\.yaml:21:38: error schema\/unknown-field: \.spec\.group: \.spec has no field "group"/);
    assert.match(stdout, /help: did you mean "groups"\?/);
  });

  test('gzip_folders_bundles_and_standard_input_are_read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wm-crd-'));
    try {
      // A bundle of two CRDs, gzip-compressed, in a folder.
      const other = crd.replaceAll('Trainer', 'Other').replaceAll('trainers', 'others');
      writeFileSync(path.join(dir, 'bundle.yaml.gz'), gzipSync(`${other}\n---\n${crd}`));
      const fromFolder = cli(['validate', '--crd', dir, goodPath, typoPath]);
      assert.equal(fromFolder.code, 1, fromFolder.stdout + fromFolder.stderr);
      assert.match(
        fromFolder.stdout,
        /OK: tests\/node\/fixtures\/crds\/trainer-definition\.yaml is a valid definition trainer .*checked against v1 of .*bundle\.yaml\.gz/,
      );
      assert.match(fromFolder.stdout, /trainer-typo\.yaml:21:38: error schema\/unknown-field/);
      const fromStdin = cli(['validate', '--crd', '-', typoPath], { input: crd });
      assert.equal(fromStdin.code, 1);
      assert.match(fromStdin.stdout, /did you mean "groups"/);
      const both = cli(['validate', '--crd', '-', '-'], { input: crd });
      assert.equal(both.code, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an_unreadable_schema_exits_2', () => {
    const { code, stderr } = cli(['validate', '--crd', 'tests/node/fixtures/not-yaml.yaml', goodPath]);
    assert.equal(code, 2);
    assert.match(stderr, /schema\/invalid|not-yaml\.yaml/);
  });

  test('all_versions_lists_the_fields_of_some_versions_only', () => {
    const { stdout } = cli(['validate', '--crd', crdPath, '--all-versions', goodPath]);
    assert.match(stdout, /fields in some versions only:\n(?:.*\n)*\s+\.spec\.suspend: in v1; not in v2/);
  });

  test('json_and_sarif_carry_the_findings', () => {
    const json = JSON.parse(cli(['validate', '-o', 'json', '--crd', crdPath, typoPath]).stdout);
    const [result] = json.results;
    assert.equal(result.valid, false);
    assert.deepEqual(
      result.schemas.map((s) => s.label),
      ['v1'],
    );
    assert.ok(result.diagnostics.some((d) => d.code === 'schema/unknown-field' && d.line === 21));
    const Ajv = require('ajv-draft-04');
    const addFormats = require('ajv-formats');
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validateSarif = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
    const log = JSON.parse(cli(['validate', '-o', 'sarif', '--crd', crdPath, typoPath]).stdout);
    assert.ok(validateSarif(log), ajv.errorsText(validateSarif.errors));
    const [run] = log.runs;
    const finding = run.results.find((r) => r.ruleId === 'schema/unknown-field');
    assert.ok(finding, JSON.stringify(run.results));
    assert.equal(finding.locations[0].physicalLocation.region.startLine, 21);
    assert.ok(run.tool.driver.rules.some((r) => r.id === 'schema/unknown-field'));
    const github = cli(['validate', '-o', 'github', '--crd', crdPath, typoPath]).stdout;
    assert.match(github, /::error file=tests\/node\/fixtures\/crds\/trainer-typo\.yaml,line=21,col=38,.*title=schema\/unknown-field::/);
  });

  test('the_catalog_checks_against_the_shared_crds', { skip: !existsSync(shared) && process.env.CI !== 'true' }, () => {
    assert.ok(existsSync(shared), `${shared} is missing (CI=true)`);
    const { code, stdout, stderr } = cli(['validate', '-q', '--crd', shared, 'catalog/*/definition.yaml']);
    assert.equal(code, 0, stdout + stderr);
    const json = JSON.parse(cli(['validate', '-o', 'json', '--crd', shared, 'catalog/*/definition.yaml']).stdout);
    const checked = json.results.filter((r) => r.schemas?.length);
    assert.ok(checked.length >= 24, `${checked.length} checked`);
  });
});

test('the_readme_example_is_the_real_output', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const shown = /```\n(INVALID: tests\/node\/fixtures\/crds\/trainer-typo\.yaml\n[\s\S]*?)```/.exec(readme);
  assert.ok(shown, 'README shows validate --crd output');
  assert.equal(cli(['validate', '--crd', crdPath, typoPath]).stdout, shown[1]);
});

describe('draft from a schema', () => {
  test('the_draft_has_the_schemas_templates_ids_replicas_and_suspend_and_validates', () => {
    const result = draftFromSchema([{ name: 'trainer-crd.yaml', text: crd }]);
    assert.deepEqual(result.drafted, { label: 'v1', group: 'example.com', version: 'v1', kind: 'Trainer', source: 'trainer-crd.yaml' });
    assert.match(result.text, /^# Drafted from the API schema of example\.com\/v1 Trainer \(trainer-crd\.yaml\)/);
    assert.match(result.text, /podTemplateSpecPath: '\.spec\.groups\[\]\? \| \.template'/);
    assert.match(result.text, /instanceIdPath: '\.spec\.groups\[\]\? \| \.name'/);
    assert.match(result.text, /replicasPath: '\.spec\.groups\[\]\? \| \(\.replicas \/\/ 1\)'/);
    assert.match(result.text, /suspendActions: \[\{path: \.spec\.suspend, value: "true"\}\]/);
    const definition = new Definition(result.text);
    assert.equal(definition.valid, true, JSON.stringify(definition.diagnostics));
    // And it checks cleanly against the schema it came from.
    assert.equal(checkDefinition(result.text, crd).valid, true);
    definition.free();
  });

  test('a_version_kind_or_object_can_be_given', () => {
    assert.equal(draftFromSchema(crd, { version: 'v2' }).drafted.version, 'v2');
    const missing = draftFromSchema(crd, { version: 'v9' });
    assert.equal(missing.text, '');
    assert.equal(missing.diagnostics[0].code, 'schema/not-found');
    assert.match(missing.diagnostics[0].message, /versions are: v1, v2/);
    assert.equal(draftFromSchema(crd, { kind: 'Nothing' }).text, '');
    const withObject = draftFromSchema(crd, {
      object: {
        apiVersion: 'example.com/v1',
        kind: 'Trainer',
        metadata: { name: 't' },
        spec: { groups: [{ name: 'a', replicas: 2, template: { spec: { containers: [{ name: 'x', image: 'y' }] } } }] },
      },
    });
    assert.match(withObject.text, /and the object given/);
    assert.throws(() => draftFromSchema(crd, { version: 2 }), TypeError);
  });

  test('draft_crd_prints_the_draft', () => {
    const { code, stdout, stderr } = cli(['draft', '--crd', crdPath]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^# Drafted from the API schema of example\.com\/v1 Trainer/);
    const v2 = cli(['draft', '--crd', crdPath, '--version', 'v2']);
    assert.match(v2.stdout, /version: "v2"/);
    const bad = cli(['draft', '--crd', crdPath, '--version', 'v9']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Trainer has no version v9; its versions are: v1, v2/);
  });

  test('every_shared_crd_drafts_a_valid_definition', { skip: !existsSync(shared) && process.env.CI !== 'true' }, () => {
    const files = readdirSync(shared).filter((f) => f.endsWith('.yaml.gz'));
    assert.ok(files.length >= 17);
    for (const file of files) {
      const { code, stdout, stderr } = cli(['draft', '--crd', path.join(shared, file)]);
      assert.equal(code, 0, `${file}: ${stderr}`);
      const checked = cli(['validate', '-q', '-'], { input: stdout });
      assert.equal(checked.code, 0, `${file}: ${checked.stdout}${checked.stderr}`);
    }
  });
});

describe('schemaFields', () => {
  test('the_fields_at_a_path_with_their_types_for_completion_and_hover', () => {
    const root = schemaFields(crd);
    assert.deepEqual(root.schema, { label: 'v1', group: 'example.com', version: 'v1', kind: 'Trainer', source: 'schema' });
    assert.ok(root.found);
    assert.ok(root.fields.some((f) => f.name === 'spec' && f.type === 'an object'));
    const groups = schemaFields([{ name: 'trainer-crd.yaml', text: crd }], { path: '.spec.groups[]?' });
    assert.ok(
      groups.fields.some((f) => f.name === 'replicas' && f.type === 'an integer'),
      JSON.stringify(groups.fields),
    );
    assert.equal(schemaFields(crd, { path: '.spec.groups' }).type, 'an array');
    assert.equal(schemaFields(crd, { path: '.spec.groups' }).list, true);
    const v2 = schemaFields(crd, { version: 'v2', path: '.spec' });
    assert.ok(v2.fields.some((f) => f.name === 'paused'));
    const missing = schemaFields(crd, { path: '.spec.nothing' });
    assert.equal(missing.found, false);
    assert.deepEqual(missing.fields, []);
    const none = schemaFields(crd, { kind: 'Nothing' });
    assert.equal(none.schema, undefined);
    assert.equal(none.diagnostics[0].code, 'schema/not-found');
    assert.throws(() => schemaFields(crd, { path: '.spec | keys' }), TypeError);
    assert.throws(() => schemaFields(crd, { path: 3 }), TypeError);
  });
});
