// The `workload-map` command line: every command, output format and exit code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { parseObjects } from 'workload-map';

import { cli, fixture, fixturePath } from './helpers.mjs';

const definition = fixturePath('jobset-definition.yaml');
const seed = fixturePath('seed-jobset.yaml');

describe('describe', () => {
  test('text_prints_header_tree_phase_and_resources_with_total', () => {
    const { code, stdout, stderr } = cli(['describe', '-f', seed, '--definition', definition]);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const lines = stdout.split('\n');
    assert.match(lines[0], /^JobSet\/train-llm {3}namespace: ml-team {3}definition: test-jobset \(/);
    assert.deepEqual(lines.slice(2, 6), [
      'jobset              replicas: 1   gpu: 12',
      '`-- replicatedjob   replicas: 3   gpu: 12',
      '    |-- leader      replicas: 1   gpu: 4',
      '    `-- workers     replicas: 2   gpu: 8',
    ]);
    assert.ok(lines.includes('Phase: Running'));
    const table = lines.slice(lines.indexOf('Resources:') + 1).filter(Boolean);
    assert.deepEqual(table, [
      'COMPONENT                REPLICAS   GPU   CPU   MEMORY',
      'replicatedjob[leader]    1          4     8     32Gi',
      'replicatedjob[workers]   2          8     16    64Gi',
      'TOTAL                    3          12    24    96Gi',
    ]);
  });

  test('without_definition_the_catalog_is_searched_by_api_version_and_kind', () => {
    const { code, stdout } = cli(['describe', '-f', seed]);
    assert.equal(code, 0);
    assert.match(stdout, /^JobSet\/train-llm {3}namespace: ml-team {3}definition: \S+ \(catalog\)\n/);
    assert.match(stdout, /^TOTAL +3 +12 /m);
  });

  test('catalog_version_fallback_is_said_in_the_output', () => {
    const input = fixture('seed-jobset.yaml').replace('jobset.x-k8s.io/v1alpha2', 'jobset.x-k8s.io/v9');
    const { code, stdout } = cli(['describe', '-f', '-'], { input });
    assert.equal(code, 0);
    assert.match(stdout.split('\n')[1], /no catalog definition for jobset\.x-k8s\.io\/v9; using the one written for jobset\.x-k8s\.io\//);
  });

  for (const name of ['seed-jobset.yaml', 'lws-3x2.yaml', 'raycluster-two-groups.yaml', 'jobset-no-parallelism.yaml']) {
    test(`resources_rows_add_up_to_the_total_for_${name}`, () => {
      const { stdout } = cli(['describe', '-f', fixturePath(name)]);
      const rows = stdout.slice(stdout.indexOf('Resources:')).split('\n').slice(2).filter(Boolean).map((line) => line.split(/ {2,}/));
      const total = rows.pop();
      assert.equal(total[0], 'TOTAL');
      for (const column of [1, 2]) {
        assert.equal(rows.reduce((sum, row) => sum + Number(row[column]), 0), Number(total[column]), stdout);
      }
    });
  }

  test('json_prints_exactly_the_view', () => {
    const { code, stdout } = cli(['describe', '-f', seed, '-d', definition, '-o', 'json']);
    assert.equal(code, 0);
    const view = JSON.parse(stdout);
    assert.equal(view.resources.gpus, 12);
    assert.deepEqual(Object.keys(view), ['apiVersion', 'kind', 'name', 'namespace', 'definition', 'phases', 'status', 'resources', 'root', 'groups', 'diagnostics']);
  });

  test('yaml_prints_the_same_view_as_json', () => {
    const { code, stdout } = cli(['describe', '-f', seed, '-d', definition, '-o', 'yaml']);
    assert.equal(code, 0);
    assert.match(stdout, /^apiVersion: jobset\.x-k8s\.io\/v1alpha2\nkind: JobSet\nname: train-llm\n/);
    const json = JSON.parse(cli(['describe', '-f', seed, '-d', definition, '-o', 'json']).stdout);
    assert.deepEqual(parseObjects(stdout).objects, [json]);
  });

  test('stdin_is_read_with_dash', () => {
    const { code, stdout } = cli(['describe', '-f', '-', '-d', definition, '-o', 'json'], { input: fixture('seed-jobset.yaml') });
    assert.equal(code, 0);
    assert.equal(JSON.parse(stdout).resources.gpus, 12);
  });

  test('multi_document_input_describes_each_object', () => {
    const { code, stdout } = cli(['describe', '-f', fixturePath('two-jobsets.yaml'), '-d', definition, '-o', 'json']);
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout).map((v) => [v.name, v.resources.gpus]), [['first', 1], ['second', 4]]);
    const text = cli(['describe', '-f', fixturePath('two-jobsets.yaml'), '-d', definition]).stdout;
    assert.match(text, /^JobSet\/first .*\n[\s\S]*\n\nJobSet\/second /);
  });

  test('kind_list_describes_each_item', () => {
    const { code, stdout } = cli(['describe', '-f', fixturePath('jobset-list.yaml'), '-d', definition, '-o', 'yaml']);
    assert.equal(code, 0);
    assert.deepEqual([...stdout.matchAll(/^name: (.*)$/gm)].map((m) => m[1]), ['listed-a', 'listed-b']);
    assert.match(stdout, /\n---\n/);
  });

  const exitCodes = [
    ['view_with_error_diagnostics_exits_1', ['describe', '-f', seed, '-d', fixturePath('invalid-definition.yaml')], 1, null],
    ['unparsable_manifest_exits_2_naming_file_line_column', ['describe', '-f', fixturePath('not-yaml.yaml'), '-d', definition], 2, /not-yaml\.yaml:3:\d+: /],
    ['missing_file_exits_2', ['describe', '-f', fixturePath('nope.yaml'), '-d', definition], 2, /cannot read .*nope\.yaml: no such file/],
    ['missing_f_exits_2', ['describe'], 2, /needs -f FILE/],
    ['unknown_flag_exits_2', ['describe', '-f', seed, '--bogus'], 2, /Unknown option '--bogus'/],
    ['bad_output_format_exits_2', ['describe', '-f', seed, '-o', 'wide'], 2, /unknown output format "wide"/],
    ['unparsable_definition_exits_2', ['describe', '-f', seed, '-d', fixturePath('not-yaml.yaml')], 2, /not-yaml\.yaml:3:\d+: /],
    ['no_definition_for_the_type_exits_4', ['describe', '-f', fixturePath('unknown-kind.yaml')], 4, /no definition covers Gadget \(example\.com\/v1\)/],
  ];
  for (const [name, args, expected, stderrPattern] of exitCodes) {
    test(name, () => {
      const { code, stderr } = cli(args);
      assert.equal(code, expected, stderr);
      if (stderrPattern) assert.match(stderr, stderrPattern);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    });
  }

  test('no_definition_under_json_also_writes_an_error_object', () => {
    const { code, stdout } = cli(['describe', '-f', fixturePath('unknown-kind.yaml'), '-o', 'json']);
    assert.equal(code, 4);
    assert.equal(JSON.parse(stdout).error, 'no_definition_for_type');
  });
});

describe('validate', () => {
  test('valid_definition_prints_ok_and_exits_0', () => {
    const { code, stdout } = cli(['validate', definition]);
    assert.equal(code, 0);
    assert.equal(stdout, `OK: ${definition} is a valid definition test-jobset (GVK: jobset.x-k8s.io/v1alpha2, Kind=JobSet)\n`);
  });

  test('invalid_definition_prints_located_lines_and_exits_1', () => {
    const file = fixturePath('invalid-definition.yaml');
    const { code, stdout } = cli(['validate', definition, file]);
    assert.equal(code, 1);
    assert.match(stdout, new RegExp(`^INVALID: ${escape(file)}$`, 'm'));
    assert.match(stdout, new RegExp(`^ {2}${escape(file)}:13:\\d+: error expr/forbidden: del function is not allowed$`, 'm'));
  });

  test('not_yaml_exits_2', () => {
    const { code, stdout } = cli(['validate', fixturePath('not-yaml.yaml')]);
    assert.equal(code, 2);
    assert.match(stdout, /not-yaml\.yaml:3:\d+: error syntax\/invalid: /);
  });

  test('unreadable_file_exits_2', () => {
    const { code, stderr } = cli(['validate', fixturePath('nope.yaml')]);
    assert.equal(code, 2);
    assert.match(stderr, /cannot read/);
  });

  test('stdin_is_reported_as_stdin', () => {
    const { code, stdout } = cli(['validate', '-'], { input: fixture('invalid-definition.yaml') });
    assert.equal(code, 1);
    assert.match(stdout, /^INVALID: stdin\n {2}stdin:13:/);
  });

  test('json_lists_each_file', () => {
    const { code, stdout } = cli(['validate', '-o', 'json', definition, fixturePath('invalid-definition.yaml')]);
    assert.equal(code, 1);
    const report = JSON.parse(stdout);
    assert.equal(report.valid, false);
    assert.deepEqual(report.results.map((r) => r.valid), [true, false]);
  });

  test('sarif_is_sarif_2_1_0_with_regions', () => {
    const { code, stdout } = cli(['validate', '-o', 'sarif', fixturePath('invalid-definition.yaml')]);
    assert.equal(code, 1);
    const sarif = JSON.parse(stdout);
    assert.equal(sarif.version, '2.1.0');
    const [result] = sarif.runs[0].results.filter((r) => r.ruleId === 'expr/forbidden');
    assert.equal(result.level, 'error');
    assert.equal(result.locations[0].physicalLocation.region.startLine, 13);
  });

  test('github_prints_workflow_annotations', () => {
    const { code, stdout } = cli(['validate', '-o', 'github', fixturePath('invalid-definition.yaml')]);
    assert.equal(code, 1);
    assert.match(stdout, /^::error file=.*invalid-definition\.yaml,line=13,col=\d+,endLine=\d+,endColumn=\d+,title=expr\/forbidden::del function is not allowed$/m);
  });

  test('no_file_exits_2', () => {
    assert.equal(cli(['validate']).code, 2);
  });
});

describe('definitions', () => {
  test('lists_the_catalog_sorted_by_name', () => {
    const { code, stdout } = cli(['definitions']);
    assert.equal(code, 0);
    const [header, ...rows] = stdout.trimEnd().split('\n');
    assert.match(header, /^NAME +APIVERSION +KIND +COMPONENTS$/);
    const names = rows.map((row) => row.split(/\s+/)[0]);
    assert.ok(names.length > 0);
    assert.deepEqual(names, [...names].sort());
    assert.ok(rows.some((row) => /\bJobSet\b/.test(row)));
  });

  test('json_and_yaml_have_items_and_count', () => {
    const json = JSON.parse(cli(['definitions', '-o', 'json']).stdout);
    assert.equal(json.count, json.items.length);
    assert.deepEqual(parseObjects(cli(['definitions', '-o', 'yaml']).stdout).objects, [json]);
  });

  test('name_prints_the_definition_ready_for_validate', () => {
    const name = JSON.parse(cli(['definitions', '-o', 'json']).stdout).items[0].name;
    const { code, stdout } = cli(['definitions', name]);
    assert.equal(code, 0);
    const validated = cli(['validate', '-'], { input: stdout });
    assert.equal(validated.code, 0, validated.stdout);
    assert.match(validated.stdout, /^OK: stdin /);
  });

  test('unknown_name_exits_2', () => {
    const { code, stderr } = cli(['definitions', 'no-such-definition']);
    assert.equal(code, 2);
    assert.match(stderr, /no definition named "no-such-definition"/);
  });
});

describe('help and usage', () => {
  for (const command of ['validate', 'describe', 'definitions']) {
    test(`${command}_help_exits_0`, () => {
      const { code, stdout } = cli([command, '--help']);
      assert.equal(code, 0);
      assert.match(stdout, new RegExp(`workload-map ${command}`));
    });
  }

  test('top_level_help_lists_commands', () => {
    const { code, stdout } = cli(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /validate[\s\S]*describe[\s\S]*definitions/);
  });

  test('no_command_prints_usage_and_exits_2', () => {
    assert.equal(cli([]).code, 2);
  });

  test('unknown_command_suggests_and_exits_2', () => {
    const { code, stderr } = cli(['describ']);
    assert.equal(code, 2);
    assert.match(stderr, /did you mean "describe"/);
  });

  test('version_prints_the_package_version', () => {
    assert.match(cli(['--version']).stdout, /^workload-map \d+\.\d+\.\d+/);
  });
});

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
