// The CLI as a shell sees it: version, completion scripts, and how arguments are read.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { catalog, version } from 'workload-map';

import { cli, fixturePath, root } from './helpers.mjs';

const packageVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const commands = ['validate', 'get', 'describe', 'definitions', 'suspend', 'resume', 'edit', 'draft', 'version', 'completion', 'test', 'exporter'];

describe('version', () => {
  test('version_prints_the_package_engine_and_catalog_versions', () => {
    for (const args of [['version'], ['--version'], ['-V']]) {
      const { code, stdout } = cli(args);
      assert.equal(code, 0);
      const lines = stdout.split('\n');
      assert.equal(lines[0], `workload-map ${packageVersion}`);
      assert.equal(lines[1], `engine:  ${version} (WebAssembly)`);
      assert.equal(lines[2], `catalog: ${version} (${catalog.list().length} definitions, built into the engine)`);
    }
  });

  test('version_json_is_for_scripts', () => {
    const versions = JSON.parse(cli(['version', '-o', 'json']).stdout);
    assert.deepEqual(versions, {
      package: packageVersion,
      engine: version,
      catalog: { version, definitions: catalog.list().length },
      node: process.versions.node,
    });
  });
});

describe('completion', () => {
  /** The words bash offers for `words` with the cursor on the last one. */
  function bashCompletes(script, words) {
    const program = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _workload_map; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const result = spawnSync('bash', ['-c', program], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout.split('\n').filter(Boolean);
  }

  const bash = cli(['completion', 'bash']).stdout;

  test('the_bash_script_is_valid_bash', () => {
    const result = spawnSync('bash', ['-n'], { input: bash, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
  });

  test('bash_completes_commands_options_formats_and_catalog_names', () => {
    assert.deepEqual(bashCompletes(bash, ['workload-map', '']), [...commands, '--help', '--version']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'de']), ['describe', 'definitions']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'validate', '--s']), ['--strict', '--summary']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'validate', '-o', '']), ['text', 'json', 'sarif', 'github', 'codequality']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'describe', '--output', 'w']), ['wide']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'get', '--phase', 'R']), ['Running', 'Resuming']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'get', '--all-']), ['--all-namespaces', '--all-types']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'completion', '']), ['bash', 'zsh', 'fish']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'exporter', '--total']), ['--total-shards']);
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'test', '-o', '']), ['text', 'json', 'junit', 'github']);
    assert.deepEqual(
      bashCompletes(bash, ['workload-map', 'definitions', 'jobset-x']),
      catalog
        .list()
        .map((e) => e.name)
        .filter((n) => n.startsWith('jobset-x')),
    );
    // A file argument: nothing offered, so bash falls back to file names (complete -o default).
    assert.deepEqual(bashCompletes(bash, ['workload-map', 'describe', '-f', '']), []);
    assert.match(bash, /^complete -o default -F _workload_map workload-map$/m);
  });

  test('zsh_and_fish_scripts_list_every_command_and_option', () => {
    const zsh = cli(['completion', 'zsh']).stdout;
    const fish = cli(['completion', 'fish']).stdout;
    assert.match(zsh, /^#compdef workload-map$/m);
    for (const command of commands) {
      assert.match(zsh, new RegExp(`^ {4}'${command}:`, 'm'), command);
      assert.match(zsh, new RegExp(`^ {4}${command}\\)$`, 'm'), command);
      assert.match(fish, new RegExp(`-a ${command} -d '`), command);
    }
    assert.match(zsh, /'\(-o --output\)'\{-o,--output\}'\[Output format\]:output:\(text json sarif github codequality\)'/);
    assert.match(zsh, /'\*'\{-f,--file\}'\[.*\]:file:_files'/);
    assert.match(fish, /__fish_seen_subcommand_from validate' -l strict /);
    assert.match(fish, /__fish_seen_subcommand_from describe' -s o -l output -x -a 'text wide json yaml name'/);
  });

  test('every_option_that_completes_is_in_its_command_s_help', () => {
    const fish = cli(['completion', 'fish']).stdout;
    for (const command of commands) {
      const options = [...fish.matchAll(new RegExp(`__fish_seen_subcommand_from ${command}'(?: -s (\\w))? -l ([\\w-]+)`, 'g'))];
      const help = cli([command, '--help']).stdout;
      for (const [, short, long] of options) {
        assert.ok(help.includes(`--${long}`), `${command} --help lists --${long}`);
        if (short) assert.ok(help.includes(`-${short}, --${long}`), `${command} --help lists -${short}, --${long}`);
      }
    }
  });

  test('completion_needs_a_known_shell', () => {
    for (const args of [['completion'], ['completion', 'tcsh'], ['completion', 'bash', 'zsh']]) {
      const { code, stderr } = cli(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, /completion takes one shell: bash, zsh, fish/);
    }
  });
});

describe('arguments', () => {
  const definition = fixturePath('jobset-definition.yaml');
  const seed = fixturePath('seed-jobset.yaml');

  test('values_attach_with_equals_or_to_the_short_flag', () => {
    for (const args of [['-o', 'json'], ['--output=json'], ['-ojson'], ['-o=json']]) {
      const { code, stdout } = cli(['describe', '-f', seed, ...args]);
      assert.equal(code, 0, args.join(' '));
      assert.equal(JSON.parse(stdout).name, 'train-llm');
    }
  });

  test('short_booleans_group', () => {
    assert.equal(cli(['validate', '-qh']).code, 0);
    assert.equal(cli(['validate', '-q', definition]).stdout, '');
  });

  test('double_dash_ends_the_options', () => {
    const { code, stderr } = cli(['validate', '--', '--strict']);
    assert.equal(code, 2);
    assert.match(stderr, /cannot read --strict: no such file/);
  });

  const errors = [
    ['a_boolean_with_a_value', ['validate', '--strict=yes', definition], /validate: --strict takes no value \(found "yes"\)/],
    ['a_value_given_twice', ['describe', '-f', seed, '-o', 'json', '-o', 'yaml'], /describe: -o is given twice \("json" and "yaml"\); give it once/],
    ['an_unknown_short_flag_in_a_group', ['validate', '-qx', definition], /validate: unknown option -x \(in "-qx"\)/],
    ['a_missing_value_with_its_choices', ['validate', definition, '--output'], /validate: --output needs text, json, sarif, github or codequality/],
  ];
  for (const [name, args, pattern] of errors) {
    test(`${name}_is_a_usage_error_in_our_words`, () => {
      const { code, stdout, stderr } = cli(args);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, pattern);
      assert.match(stderr, /Run "workload-map \w+ --help" for usage\.\n$/);
      assert.doesNotMatch(stderr, /'/, 'no quote of node:util parseArgs');
    });
  }
});
