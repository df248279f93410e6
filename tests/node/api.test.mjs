// The package API in Node, as `import 'workload-map'` gives it (package self-reference).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';

import * as wm from 'workload-map';

import { component, fixture, root } from './helpers.mjs';

const require = createRequire(import.meta.url);
const definitionText = fixture('jobset-definition.yaml');
const seedText = fixture('seed-jobset.yaml');

describe('loading', () => {
  test('esm_import_is_ready_without_init', () => {
    assert.equal(typeof wm.Definition, 'function');
    assert.equal(wm.resolve(definitionText, seedText).resources.gpus, 12);
  });

  test('cjs_require_is_ready_and_shares_the_esm_instance', () => {
    const cjs = require('workload-map');
    assert.equal(cjs.resolve(definitionText, seedText).resources.gpus, 12);
    assert.equal(cjs.Definition, wm.Definition);
    assert.ok(new cjs.Definition(definitionText) instanceof wm.Definition);
  });

  test('init_is_a_resolved_no_op_in_node', async () => {
    assert.equal(await wm.init(), undefined);
    assert.equal(await wm.init(new Uint8Array([0])), undefined);
  });

  test('version_matches_package_json_and_cargo_toml', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const cargo = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(path.join(root, 'Cargo.toml'), 'utf8'))[1];
    assert.equal(wm.version, pkg.version);
    assert.equal(wm.version, cargo);
  });
});

describe('Definition', () => {
  test('compiles_text_once_and_exposes_name_gvk_components', () => {
    const d = new wm.Definition(definitionText);
    assert.equal(d.name, 'test-jobset');
    assert.deepEqual(d.gvk, { group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet' });
    assert.deepEqual(d.componentNames, ['jobset', 'replicatedjob']);
    assert.equal(d.valid, true);
    assert.deepEqual(d.diagnostics, []);
    d.free();
  });

  test('symbol_dispose_frees_it_as_using_does', () => {
    for (const Definition of [wm.Definition, require('workload-map').Definition]) {
      const d = new Definition(definitionText);
      assert.equal(d[Symbol.dispose], d.free);
      d[Symbol.dispose]();
      assert.throws(
        () => d.resolve(seedText),
        (error) => error instanceof TypeError && /after free\(\)/.test(error.message),
      );
      d[Symbol.dispose]();
    }
  });

  test('accepts_a_plain_object', () => {
    const object = JSON.parse(
      JSON.stringify({
        apiVersion: 'run.ai/v1alpha1',
        kind: 'Karta',
        metadata: { name: 'from-object' },
        spec: { structureDefinition: { rootComponent: { name: 'pod', kind: { group: '', version: 'v1', kind: 'Pod' } } } },
      }),
    );
    const d = new wm.Definition(object);
    assert.equal(d.name, 'from-object');
    assert.deepEqual(d.gvk, { group: '', version: 'v1', kind: 'Pod' });
  });

  test('bad_content_is_diagnostics_not_exceptions', () => {
    const d = new wm.Definition(fixture('invalid-definition.yaml'));
    assert.equal(d.valid, false);
    const forbidden = d.diagnostics.find((x) => x.code === 'expr/forbidden');
    assert.ok(forbidden, JSON.stringify(d.diagnostics));
    assert.equal(forbidden.severity, 'error');
    assert.equal(forbidden.source, 'definition');
    assert.equal(forbidden.line, 13);
    assert.ok(forbidden.column >= 1 && forbidden.endLine >= forbidden.line);
  });

  test('misuse_throws_a_type_error', () => {
    assert.throws(() => new wm.Definition(42), TypeError);
    assert.throws(() => new wm.Definition([1, 2]), TypeError);
    assert.throws(() => new wm.Definition(null), TypeError);
  });

  test('resolves_many_objects', () => {
    const d = new wm.Definition(definitionText);
    assert.equal(d.resolve(seedText).resources.gpus, 12);
    assert.equal(d.resolve(seedText).resources.gpus, 12);
  });
});

describe('resolve', () => {
  const view = wm.resolve(definitionText, seedText);

  test('seed_jobset_resolves_to_12_gpus_in_leader_and_workers', () => {
    assert.equal(view.kind, 'JobSet');
    assert.equal(view.name, 'train-llm');
    assert.equal(view.namespace, 'ml-team');
    assert.deepEqual(view.definition, { name: 'test-jobset' });
    assert.deepEqual(view.phases, ['Running']);
    assert.deepEqual(view.resources, {
      gpus: 12,
      cpuMillis: 24000,
      memoryBytes: 96 * 2 ** 30,
      extended: { 'nvidia.com/gpu': 12 },
      text: { gpus: '12', cpu: '24', memory: '96Gi', extended: { 'nvidia.com/gpu': '12' } },
    });
    assert.equal(component(view, 'jobset/replicatedjob[leader]').replicas.desired, 1);
    assert.equal(component(view, 'jobset/replicatedjob[workers]').replicas.desired, 2);
    assert.equal(component(view, 'jobset/replicatedjob[workers]').podResources.gpus, 4);
  });

  test('fields_are_camel_case_in_view_order', () => {
    assert.deepEqual(Object.keys(view), [
      'apiVersion',
      'kind',
      'name',
      'namespace',
      'definition',
      'phases',
      'status',
      'resources',
      'table',
      'root',
      'groups',
      'diagnostics',
    ]);
  });

  test('accepts_definition_instance_text_or_object_and_object_text_or_value', () => {
    const object = wm.parseObjects(seedText).objects[0];
    const definitionObject = wm.parseObjects(definitionText).objects[0];
    const d = new wm.Definition(definitionText);
    const pairs = [
      [d, seedText],
      [d, object],
      [definitionText, object],
      [definitionObject, seedText],
    ];
    for (const [definition, input] of pairs) assert.equal(wm.resolve(definition, input).resources.gpus, 12);
  });

  test('unparsable_object_text_gives_a_located_object_diagnostic', () => {
    const v = wm.resolve(definitionText, 'kind: [');
    const problem = v.diagnostics.find((x) => x.source === 'object');
    assert.ok(problem, JSON.stringify(v.diagnostics));
    assert.equal(problem.code, 'syntax/invalid');
    assert.equal(problem.line, 1);
    assert.equal(v.root, null);
  });

  test('several_documents_resolve_the_first_workload_of_the_definitions_type_or_the_one_picked', () => {
    // One reading of a manifest in the core: without `workload`, the first workload of the
    // definition's type; with it, that object.
    const text = fixture('two-jobsets.yaml');
    assert.equal(wm.resolve(definitionText, text).name, 'first');
    assert.equal(wm.resolve(definitionText, text, { workload: 1 }).name, 'second');
    assert.throws(() => wm.resolve(definitionText, text, { workload: 2 }), /holds 2 objects/);
  });
});

describe('validate', () => {
  test('valid_definition', () => {
    assert.deepEqual(wm.validate(definitionText), { valid: true, diagnostics: [] });
  });

  // An astral character is two UTF-16 code units, like "ab": the same column after it.
  const located = (filler) => wm.validate(`metadata: {name: "${filler}", x: [}\n`).diagnostics[0];

  test('columns_count_utf16_code_units', () => {
    const astral = located('\u{1F600}');
    assert.equal(astral.code, 'syntax/invalid');
    assert.equal(astral.line, 1);
    assert.equal(astral.column, located('ab').column);
    assert.equal(astral.column, located('a').column + 1);
  });

  test('diagnostics_have_end_positions', () => {
    const d = located('a');
    assert.ok(d.endLine >= d.line && (d.endLine > d.line || d.endColumn >= d.column));
  });

  test('non_string_is_misuse', () => {
    assert.throws(() => wm.validate({}), TypeError);
  });
});

describe('parseObjects', () => {
  test('splits_documents', () => {
    assert.deepEqual(
      wm.parseObjects(fixture('two-jobsets.yaml')).objects.map((o) => o.metadata.name),
      ['first', 'second'],
    );
  });

  test('expands_kind_list', () => {
    assert.deepEqual(
      wm.parseObjects(fixture('jobset-list.yaml')).objects.map((o) => o.metadata.name),
      ['listed-a', 'listed-b'],
    );
  });

  test('syntax_error_is_located_in_the_object', () => {
    const { objects, diagnostics } = wm.parseObjects('a: 1\nb: [\n');
    assert.deepEqual(objects, []);
    assert.equal(diagnostics[0].source, 'object');
    assert.ok(diagnostics[0].line >= 2);
  });
});

describe('quantities', () => {
  const cases = [
    ['500m', 0.5, 500, '500m'],
    ['16Gi', 16 * 2 ** 30, 16 * 2 ** 30 * 1000, '16Gi'],
    ['1e3', 1000, 1000000, '1e3'],
    ['0.5', 0.5, 500, '500m'],
  ];
  for (const [text, value, milliValue, canonical] of cases) {
    test(`parse_quantity_${text}`, () => {
      const q = wm.parseQuantity(text);
      assert.equal(q.value, value);
      assert.equal(q.milliValue, milliValue);
      assert.equal(q.canonical, canonical);
      assert.equal(typeof q.human, 'string');
    });
  }

  test('invalid_quantity_throws_range_error', () => {
    assert.throws(() => wm.parseQuantity('12 apples'), RangeError);
  });

  const display = [
    ['formatCpu', 24000, '24'],
    ['formatCpu', 500, '500m'],
    ['formatCpu', 1500, '1.5'],
    ['formatMemory', 16 * 2 ** 30, '16Gi'],
    ['formatMemory', 70e6, '70M'],
    ['formatMemory', 0, '0'],
  ];
  for (const [fn, amount, text] of display) {
    test(`${fn}_${amount}_is_${text}`, () => assert.equal(wm[fn](amount), text));
  }
});

describe('catalog', () => {
  test('list_returns_entries_with_components', () => {
    const entries = wm.catalog.list();
    assert.ok(entries.length > 0);
    for (const e of entries) {
      assert.equal(typeof e.name, 'string');
      assert.ok(e.components.length >= 1, e.name);
    }
  });

  test('seed_jobset_resolves_to_12_gpus_with_the_catalog_definition', () => {
    const found = wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet');
    assert.equal(found.exactVersion, true);
    const view = wm.resolve(found.text, seedText);
    assert.equal(view.resources.gpus, 12);
    assert.deepEqual(
      component(view, 'jobset/replicatedjob').instances.map((i) => [i.id, i.replicas.desired]),
      [
        ['leader', 1],
        ['workers', 2],
      ],
    );
  });

  test('find_falls_back_to_another_version_of_the_same_group_and_kind', () => {
    const found = wm.catalog.find('jobset.x-k8s.io/v9', 'JobSet');
    assert.equal(found.exactVersion, false);
    assert.equal(found.kind, 'JobSet');
  });

  test('find_unknown_type_is_null', () => {
    assert.equal(wm.catalog.find('example.com/v1', 'Gadget'), null);
  });

  test('find_and_get_agree_with_list', () => {
    for (const e of wm.catalog.list()) {
      const found = wm.catalog.find(e.apiVersion, e.kind);
      assert.ok(found, `${e.apiVersion} ${e.kind}`);
      assert.equal(typeof found.text, 'string');
      assert.equal(wm.catalog.get(e.name).name, e.name);
    }
  });
});

describe('catalog misuse and cost', () => {
  test('find_and_get_without_strings_throw_a_clear_type_error', () => {
    for (const call of [() => wm.catalog.find(), () => wm.catalog.find('jobset.x-k8s.io/v1alpha2'), () => wm.catalog.get(), () => wm.catalog.get(7)]) {
      assert.throws(call, (error) => error instanceof TypeError && /needs \w+ as a string/.test(error.message) && !/Cannot read/.test(error.message));
    }
    const cjs = require('workload-map');
    assert.throws(() => cjs.catalog.find(null, 'JobSet'), TypeError);
  });

  test('the_first_resolve_after_import_compiles_only_its_own_definition', () => {
    // A fresh process: the counter is per engine instance, and this file's other tests compile.
    const script = `
      import { readFileSync } from 'node:fs';
      import { createRequire } from 'node:module';
      import * as wm from 'workload-map';
      const hooks = createRequire(import.meta.url)('./pkg/test-hooks.cjs');
      const counts = [hooks.__compiledForTests()];
      const found = wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet');
      counts.push(hooks.__compiledForTests());
      const gpus = wm.resolve(found.text, readFileSync(process.argv[1], 'utf8')).resources.gpus;
      counts.push(hooks.__compiledForTests());
      wm.catalog.list();
      wm.catalog.get(wm.catalog.list()[0].name);
      counts.push(hooks.__compiledForTests());
      console.log(JSON.stringify({ counts, gpus, components: found.components }));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, path.join(root, 'tests', 'node', 'fixtures', 'seed-jobset.yaml')], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(child.status, 0, child.stderr);
    const { counts, gpus, components } = JSON.parse(child.stdout);
    // Nothing at import, nothing to find the entry, one compile to resolve, nothing to list.
    assert.deepEqual(counts, [0, 0, 1, 1]);
    assert.equal(gpus, 12);
    assert.deepEqual(components, ['jobset', 'replicatedjob']);
  });

  test('listed_component_names_are_the_compiled_ones', () => {
    for (const entry of wm.catalog.list()) {
      assert.deepEqual(entry.components, new wm.Definition(wm.catalog.get(entry.name).text).componentNames, entry.name);
    }
  });

  test('list_is_computed_once_and_callers_get_their_own_copy', () => {
    const first = wm.catalog.list();
    first[0].name = 'changed by the caller';
    const second = wm.catalog.list();
    assert.notEqual(second[0].name, 'changed by the caller');
    assert.deepEqual(wm.catalog.list(), second);
  });
});
