// The `workload-map` command line: every command, output format and exit code.
import assert from 'node:assert/strict';
import YAML from 'yaml';
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
      const rows = stdout
        .slice(stdout.indexOf('Resources:'))
        .split('\n')
        .slice(2)
        .filter(Boolean)
        .map((line) => line.split(/ {2,}/));
      const total = rows.pop();
      assert.equal(total[0], 'TOTAL');
      for (const column of [1, 2]) {
        assert.equal(
          rows.reduce((sum, row) => sum + Number(row[column]), 0),
          Number(total[column]),
          stdout,
        );
      }
    });
  }

  test('json_prints_exactly_the_view', () => {
    const { code, stdout } = cli(['describe', '-f', seed, '-d', definition, '-o', 'json']);
    assert.equal(code, 0);
    const view = JSON.parse(stdout);
    assert.equal(view.resources.gpus, 12);
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
    // Several workloads: a List of views, as kubectl get -o json prints several objects.
    const list = JSON.parse(stdout);
    assert.equal(list.kind, 'List');
    assert.deepEqual(
      list.items.map((v) => [v.name, v.resources.gpus]),
      [
        ['first', 1],
        ['second', 4],
      ],
    );
    const text = cli(['describe', '-f', fixturePath('two-jobsets.yaml'), '-d', definition]).stdout;
    assert.match(text, /^JobSet\/first .*\n[\s\S]*\n\nJobSet\/second /);
  });

  test('kind_list_describes_each_item', () => {
    const { code, stdout } = cli(['describe', '-f', fixturePath('jobset-list.yaml'), '-d', definition, '-o', 'yaml']);
    assert.equal(code, 0);
    const list = YAML.parse(stdout);
    assert.equal(list.kind, 'List');
    assert.deepEqual(
      list.items.map((v) => v.name),
      ['listed-a', 'listed-b'],
    );
  });

  const exitCodes = [
    ['view_with_error_diagnostics_exits_1', ['describe', '-f', seed, '-d', fixturePath('invalid-definition.yaml')], 1, null],
    ['unparsable_manifest_exits_2_naming_file_line_column', ['describe', '-f', fixturePath('not-yaml.yaml'), '-d', definition], 2, /not-yaml\.yaml:3:\d+: /],
    ['missing_file_exits_2', ['describe', '-f', fixturePath('nope.yaml'), '-d', definition], 2, /cannot read .*nope\.yaml: no such file/],
    ['missing_f_exits_2', ['describe'], 2, /needs -f FILE/],
    ['unknown_flag_exits_2', ['describe', '-f', seed, '--bogus'], 2, /^workload-map: describe: unknown option --bogus\nOptions: .*--file/],
    ['misspelt_flag_is_named_with_the_closest_one', ['describe', '-f', seed, '--outptu', 'json'], 2, /unknown option --outptu; did you mean --output\?/],
    ['flag_without_its_value_exits_2', ['describe', '-f'], 2, /describe: -f needs FILE/],
    ['bad_output_format_exits_2', ['describe', '-f', seed, '-o', 'html'], 2, /unknown output format "html"/],
    ['unparsable_definition_exits_2', ['describe', '-f', seed, '-d', fixturePath('not-yaml.yaml')], 2, /not-yaml\.yaml:3:\d+: /],
    ['no_definition_for_the_type_exits_4', ['describe', '-f', fixturePath('unknown-kind.yaml')], 4, /no definition covers Gadget \(example\.com\/v1\)/],
  ];
  for (const [name, args, expected, stderrPattern] of exitCodes) {
    test(name, () => {
      const { code, stderr } = cli(args);
      assert.equal(code, expected, stderr);
      if (stderrPattern) assert.match(stderr, stderrPattern);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
      // Our words, not node:util parseArgs' (with its unbalanced quote).
      assert.doesNotMatch(stderr, /To specify a positional argument|Unknown option '/);
    });
  }

  test('no_definition_under_json_is_a_warning_beside_an_empty_list', () => {
    // Machine output holds views only; what is not covered is said on standard error.
    const { code, stdout, stderr } = cli(['describe', '-f', fixturePath('unknown-kind.yaml'), '-o', 'json']);
    assert.equal(code, 4);
    assert.deepEqual(JSON.parse(stdout), { apiVersion: 'v1', kind: 'List', metadata: {}, items: [] });
    assert.match(stderr, /no definition covers Gadget \(example\.com\/v1\)/);
  });

  test('a_partly_covered_list_describes_what_it_can_and_exits_0', () => {
    const input = `${fixture('seed-jobset.yaml')}\n---\n${fixture('unknown-kind.yaml')}`;
    const { code, stdout, stderr } = cli(['describe', '-f', '-', '-o', 'name'], { input });
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), 'jobset.jobset.x-k8s.io/train-llm');
    assert.match(stderr, /warning: no definition covers Gadget/);
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
    assert.deepEqual(
      report.results.map((r) => r.valid),
      [true, false],
    );
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
    assert.match(
      stdout,
      /^::error file=.*invalid-definition\.yaml,line=13,col=\d+,endLine=\d+,endColumn=\d+,title=expr\/forbidden::del function is not allowed%0Ahelp: definitions may only read: .*$/m,
    );
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

describe('names from the user are looked up as own keys only', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    for (const args of [[name], ['help', name]]) {
      test(`${args.join('_')}_is_an_unknown_command_listing_the_commands`, () => {
        const { code, stdout, stderr } = cli(args);
        assert.equal(code, 2, stderr);
        assert.equal(stdout, '');
        assert.match(stderr, new RegExp(`^workload-map: unknown command "${name}"`));
        const listed = /Commands: (.*)\. Run/.exec(stderr)[1].split(', ');
        for (const command of ['validate', 'describe', 'definitions', 'suspend', 'resume', 'edit', 'draft', 'version', 'completion', 'test'])
          assert.ok(listed.includes(command), command);
        assert.doesNotMatch(stderr, /internal error|\n\s+at /);
      });
    }
  }

  test('output_format_and_catalog_name_that_are_object_members_are_unknown', () => {
    assert.match(cli(['describe', '-f', seed, '-o', 'constructor']).stderr, /unknown output format "constructor"/);
    assert.match(cli(['definitions', '-o', '__proto__']).stderr, /unknown output format "__proto__"/);
    for (const name of ['constructor', '__proto__']) {
      const { code, stderr } = cli(['definitions', name]);
      assert.equal(code, 2);
      assert.match(stderr, new RegExp(`no definition named "${name}"`));
    }
  });
});

describe('text encodings', () => {
  const seedText = fixture('seed-jobset.yaml');
  const describeStdin = (bytes) => cli(['describe', '-f', '-', '-d', definition, '-o', 'json'], { input: bytes });
  const utf16 = (text, endian) => {
    const body = Buffer.from(text, 'utf16le');
    if (endian === 'be') body.swap16();
    return Buffer.concat([Buffer.from(endian === 'be' ? [0xfe, 0xff] : [0xff, 0xfe]), body]);
  };

  for (const [name, bytes] of [
    ['utf16le_with_bom', utf16(seedText, 'le')],
    ['utf16be_with_bom', utf16(seedText, 'be')],
    ['utf8_with_bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(seedText)])],
  ]) {
    test(`${name}_is_decoded`, () => {
      const { code, stdout, stderr } = describeStdin(bytes);
      assert.equal(code, 0, stderr);
      assert.equal(JSON.parse(stdout).name, 'train-llm');
    });
  }

  test('invalid_utf8_is_located_at_the_first_bad_byte_and_exits_2', () => {
    const bytes = Buffer.concat([Buffer.from('kind: Pod\nmetadata:\n  name: caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    for (const args of [
      ['describe', '-f', '-'],
      ['validate', '-'],
    ]) {
      const { code, stderr } = cli(args, { input: bytes });
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, /stdin:3:12: invalid UTF-8 \(byte 0xE9\): save the file as UTF-8/);
      assert.doesNotMatch(stderr, /\uFFFD/);
    }
  });

  test('overlong_and_surrogate_utf8_sequences_are_invalid', () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
    ]) {
      const { code, stderr } = cli(['validate', '-'], { input: Buffer.concat([Buffer.from('a: é'), Buffer.from(bad)]) });
      assert.equal(code, 2);
      assert.match(stderr, /stdin:1:5: invalid UTF-8/, bad.join(','));
    }
  });

  test('utf16_with_an_unpaired_surrogate_is_located', () => {
    const bytes = Buffer.concat([utf16('a: 1\nb: x', 'le'), Buffer.from([0x00, 0xd8])]);
    const { code, stderr } = cli(['validate', '-'], { input: bytes });
    assert.equal(code, 2);
    assert.match(stderr, /stdin:2:5: invalid UTF-16 \(an unpaired surrogate 0xD800\)/);
  });
});

describe('any value shape in a manifest', () => {
  test('list_items_that_are_not_objects_are_skipped_with_an_error_never_an_internal_error', () => {
    const input = `apiVersion: v1\nkind: List\nitems:\n- null\n- 3\n- [1]\n- ${JSON.stringify(JSON.parse(JSON.stringify(parseObjects(fixture('seed-jobset.yaml')).objects[0])))}\n`;
    for (const format of ['text', 'json']) {
      const { code, stdout, stderr } = cli(['describe', '-f', '-', '-d', definition, '-o', format], { input });
      assert.doesNotMatch(stderr, /internal error|Cannot read properties/);
      // Each item that is not an object is reported (by the core with its position, or by the
      // CLI) and skipped; the object among them is still described.
      assert.match(stderr, /item 1 is null, not a Kubernetes object; skipped|stdin:4:\d+: /);
      assert.match(stdout, /train-llm/, stderr);
      assert.ok(code === 2 || code === 0, stderr);
    }
  });

  test('kind_and_name_of_any_shape_are_named_in_the_no_definition_error', () => {
    const { code, stderr } = cli(['describe', '-f', '-'], { input: 'apiVersion: {a: 1}\nkind: [Gadget]\nmetadata: {name: 7}\n' });
    assert.equal(code, 4);
    assert.match(stderr, /no definition covers \["Gadget"\] \(\{"a":1\}\) for 7/);
  });
});

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
