// `workload-map validate` on folders, glob patterns and streams, with --strict, --quiet,
// --summary, hints and colour.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { cli, fixturePath, root } from './helpers.mjs';

const folder = 'tests/node/fixtures/definitions';
const typo = `${folder}/typo.yaml`;
const stream = `${folder}/stream.yaml`;
const valid = fixturePath('jobset-definition.yaml');

/** The files validate reported on, in order (OK and INVALID lines). */
function filesOf(stdout) {
  return [...stdout.matchAll(/^(?:OK|INVALID): (\S+)/gm)].map((m) => m[1]);
}

describe('paths', () => {
  test('a_folder_is_every_yaml_yml_and_json_file_below_it_sorted', () => {
    const { stdout } = cli(['validate', folder]);
    assert.deepEqual([...new Set(filesOf(stdout))], [`${folder}/nested/gadget.json`, `${folder}/nested/thing.yml`, stream, typo]);
  });

  test('a_quoted_glob_matches_within_folders_and_across_them', () => {
    assert.deepEqual(filesOf(cli(['validate', `${folder}/*.yaml`]).stdout), [stream, stream, typo]);
    assert.deepEqual(filesOf(cli(['validate', `${folder}/**/*.{yml,json}`]).stdout), [`${folder}/nested/gadget.json`, `${folder}/nested/thing.yml`]);
    assert.deepEqual(filesOf(cli(['validate', `${folder}/nested/th?ng.y[a-z]l`]).stdout), [`${folder}/nested/thing.yml`]);
  });

  test('a_pattern_that_matches_nothing_exits_2_and_names_it', () => {
    const { code, stderr } = cli(['validate', `${folder}/*.nothing`]);
    assert.equal(code, 2);
    assert.match(stderr, /no file matches "tests\/node\/fixtures\/definitions\/\*\.nothing"/);
  });

  test('folders_whose_name_starts_with_a_dot_are_not_searched', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'workload-map-'));
    try {
      mkdirSync(path.join(dir, '.git'));
      writeFileSync(path.join(dir, '.git', 'hidden.yaml'), 'not: a definition\n');
      writeFileSync(path.join(dir, 'definition.yaml'), readFileSync(valid));
      const { code, stdout } = cli(['validate', dir]);
      assert.equal(code, 0, stdout);
      assert.deepEqual(filesOf(stdout), [`${dir}/definition.yaml`]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  test('a_folder_without_definition_files_exits_2', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'workload-map-'));
    try {
      writeFileSync(path.join(empty, 'notes.txt'), 'no definitions here\n');
      const { code, stderr } = cli(['validate', empty]);
      assert.equal(code, 2);
      assert.match(stderr, /: the folder holds no \*\.yaml, \*\.yml, \*\.json file/);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });
});

describe('streams', () => {
  test('every_document_of_a_stream_is_checked_and_located_in_the_file', () => {
    const { code, stdout } = cli(['validate', stream]);
    assert.equal(code, 1);
    assert.match(stdout, /^OK: \S+stream\.yaml \(document 1\) is a valid definition first-in-stream /m);
    assert.match(stdout, /^INVALID: \S+stream\.yaml \(document 2\)$/m);
    // Line 27 of the file (the second document's del), not a line of the document alone.
    assert.match(stdout, /stream\.yaml:27:41: error expr\/forbidden: del function is not allowed$/m);
    assert.doesNotMatch(stdout, /expected a single document/);
  });

  test('json_gives_each_document_its_number_and_the_line_of_its_separator', () => {
    const report = JSON.parse(cli(['validate', '-o', 'json', stream]).stdout);
    assert.deepEqual(
      report.results.map((r) => [r.document, r.startLine, r.name, r.valid]),
      [
        [1, 2, 'first-in-stream', true],
        [2, 15, 'second-in-stream', false],
      ],
    );
  });

  test('standard_input_may_be_a_stream_too', () => {
    const input = `---\n${cli(['definitions', 'jobset-x-k8s-io-jobset-v1alpha2']).stdout}---\n${cli(['definitions', 'jobset-x-k8s-io-jobset-v1alpha2']).stdout}`;
    const { code, stdout } = cli(['validate', '-', '--summary'], { input });
    assert.equal(code, 0, stdout);
    assert.match(stdout, /^OK: stdin \(document 2\) /m);
    assert.match(stdout, /^Summary: 1 file \(2 definitions\), 2 valid, 0 errors, 0 warnings$/m);
  });
});

describe('strict, hints, quiet and summary', () => {
  test('a_warning_passes_and_shows_its_hint_in_text', () => {
    const { code, stdout } = cli(['validate', typo]);
    assert.equal(code, 0);
    assert.match(
      stdout,
      /typo\.yaml:31:9: warning definition\/unknown-field: unknown field "replicaPath" in scaleDefinition\n {4}help: did you mean "replicasPath"\?$/m,
    );
  });

  test('strict_turns_a_warning_into_a_failure', () => {
    const { code, stdout } = cli(['validate', '--strict', typo]);
    assert.equal(code, 1);
    assert.match(stdout, /^INVALID: \S+typo\.yaml \(warnings fail under --strict\)$/m);
    assert.equal(JSON.parse(cli(['validate', '--strict', '-o', 'json', typo]).stdout).valid, false);
    assert.equal(cli(['validate', '--strict', valid]).code, 0);
  });

  test('github_annotations_carry_the_hint', () => {
    const { stdout } = cli(['validate', '-o', 'github', typo]);
    assert.match(
      stdout,
      /^::warning file=\S+typo\.yaml,line=31,col=9,.*title=definition\/unknown-field::unknown field "replicaPath" in scaleDefinition%0Ahelp: did you mean "replicasPath"\?$/m,
    );
  });

  test('quiet_prints_only_the_problems', () => {
    const { code, stdout } = cli(['validate', '-q', valid, typo]);
    assert.equal(code, 0);
    assert.equal(
      stdout,
      `${typo}:31:9: warning definition/unknown-field: unknown field "replicaPath" in scaleDefinition\n  help: did you mean "replicasPath"?\n`,
    );
    assert.equal(cli(['validate', '--quiet', valid]).stdout, '');
  });

  test('summary_counts_files_valid_errors_and_warnings', () => {
    const { stdout, stderr } = cli(['validate', '--summary', '-q', folder, fixturePath('nope.yaml')]);
    assert.match(stdout, /^Summary: 5 files \(5 definitions\), 4 valid, 2 errors, 1 warning$/m);
    assert.match(stderr, /cannot read .*nope\.yaml/);
  });

  test('summary_goes_to_stderr_when_stdout_is_machine_readable', () => {
    const { stdout, stderr } = cli(['validate', '--summary', '-o', 'json', typo]);
    assert.equal(JSON.parse(stdout).summary.warnings, 1);
    assert.equal(stderr, 'Summary: 1 file, 1 valid, 0 errors, 1 warning\n');
  });
});

describe('colour', () => {
  const ESC = '\u001b[';

  test('force_color_colours_severities_and_verdicts', () => {
    const { stdout } = cli(['validate', typo, stream], { env: { FORCE_COLOR: '1' } });
    assert.ok(stdout.includes(`${ESC}32mOK${ESC}39m`), stdout);
    assert.ok(stdout.includes(`${ESC}33mwarning${ESC}39m`));
    assert.ok(stdout.includes(`${ESC}31merror${ESC}39m`));
  });

  test('no_color_or_a_pipe_prints_no_escape_codes', () => {
    assert.ok(!cli(['validate', typo, stream], { env: { NO_COLOR: '1' } }).stdout.includes(ESC));
    assert.ok(!cli(['validate', typo, stream]).stdout.includes(ESC));
  });

  // A real terminal, through util-linux `script` (a pseudo-terminal) where it is installed.
  const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
  const onTerminal = (env) => {
    const { FORCE_COLOR, NO_COLOR, ...inherited } = process.env;
    const command = `${JSON.stringify(process.execPath)} bin/workload-map.mjs validate ${typo}`;
    return spawnSync('script', ['-qec', command, '/dev/null'], { cwd: root, encoding: 'utf8', input: '', env: { ...inherited, TERM: 'xterm', ...env } }).stdout;
  };
  test('a_terminal_gets_colour_unless_no_color_is_set', { skip: script.status !== 0 && 'needs util-linux script for a pseudo-terminal' }, () => {
    assert.ok(onTerminal({}).includes(`${ESC}32mOK${ESC}39m`));
    assert.ok(!onTerminal({ NO_COLOR: '1' }).includes(ESC));
    assert.ok(!onTerminal({ TERM: 'dumb' }).includes(ESC));
  });

  test('machine_readable_output_is_never_coloured', () => {
    for (const format of ['json', 'sarif', 'github']) {
      assert.ok(!cli(['validate', '-o', format, typo], { env: { FORCE_COLOR: '1' } }).stdout.includes(ESC), format);
    }
  });
});
