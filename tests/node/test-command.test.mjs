// `workload-map test PATH...` as users run it: the catalog passes through it, a broken
// expectation fails with a diff, and every output format is well formed.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { cli, root } from './helpers.mjs';

const ENTRY = 'jobset-x-k8s-io-jobset-v1alpha2';
const SUMMARY = /^(\d+) cases?, (\d+) passed, (\d+) failed(?:, (\d+) unreadable)?(?:, (\d+) invalid definitions?)? across (\d+) definitions? \(/m;

const scratch = mkdtempSync(path.join(tmpdir(), 'workload-map-test-command-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of one catalog entry in a fresh folder, with `edit(files)` applied to its case texts. */
function copyOfEntry(name, edit = () => {}) {
  const dir = mkdtempSync(path.join(scratch, 'entry-'));
  const target = path.join(dir, name);
  cpSync(path.join(root, 'catalog', name), target, { recursive: true });
  const tests = path.join(target, 'tests');
  const files = Object.fromEntries(readdirSync(tests).map((f) => [f, readFileSync(path.join(tests, f), 'utf8')]));
  edit(files);
  for (const [f, text] of Object.entries(files)) writeFileSync(path.join(tests, f), text);
  return { dir, target, tests };
}

/** A copy of the entry whose running.yaml expects 17 GPUs (the view has 16). */
function brokenEntry() {
  return copyOfEntry(ENTRY, (files) => {
    assert.match(files['running.yaml'], /resources: \{gpus: 16\}/);
    files['running.yaml'] = files['running.yaml']
      .replace('resources: {gpus: 16}', 'resources: {gpus: 17}')
      .replace(/^description: .*$/m, `description: "a <broken> & 'quoted' \\"case\\""`);
  });
}

function catalogCounts() {
  const entries = readdirSync(path.join(root, 'catalog'), { withFileTypes: true }).filter((e) => e.isDirectory());
  const cases = entries.reduce((n, e) => n + readdirSync(path.join(root, 'catalog', e.name, 'tests')).filter((f) => /\.ya?ml$/.test(f)).length, 0);
  return { definitions: entries.length, cases };
}

function summary(stdout) {
  const m = SUMMARY.exec(stdout);
  assert.ok(m, `no summary line in:\n${stdout}`);
  const counts = { cases: Number(m[1]), passed: Number(m[2]), failed: Number(m[3]), unreadable: Number(m[4] ?? 0), definitions: Number(m[6]) };
  if (m[5]) counts.invalidDefinitions = Number(m[5]);
  return counts;
}

// --- a small strict XML reader: enough to prove the JUnit output is well formed ---------------

/** Parses XML into `{name, attrs, children, text}`; throws on anything not well formed. */
function parseXml(xml) {
  let at = 0;
  const fail = (why) => {
    throw new Error(`not well-formed XML at ${at}: ${why}: ${JSON.stringify(xml.slice(at, at + 40))}`);
  };
  const text = (raw) => {
    if (/<|&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(raw)) fail('a bare < or &');
    return raw.replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]);
  };
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!decl) fail('no XML declaration');
  at = decl[0].length;
  const element = () => {
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)\s*(\/?)>/.exec(xml.slice(at));
    if (!open) fail('expected a start tag');
    at += open[0].length;
    const attrs = {};
    for (const [, k, v] of open[2].matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      if (k in attrs) fail(`attribute ${k} twice`);
      attrs[k] = text(v);
    }
    const node = { name: open[1], attrs, children: [], text: '' };
    if (open[3] === '/') return node;
    for (;;) {
      const next = xml.indexOf('<', at);
      if (next < 0) fail(`unclosed <${node.name}>`);
      node.text += text(xml.slice(at, next));
      at = next;
      if (xml.startsWith('</', at)) {
        const close = new RegExp(`^</${node.name}>`).exec(xml.slice(at));
        if (!close) fail(`expected </${node.name}>`);
        at += close[0].length;
        return node;
      }
      node.children.push(element());
    }
  };
  const rootElement = element();
  if (xml.slice(at).trim() !== '') fail('content after the root element');
  return rootElement;
}

// --- the catalog ---------------------------------------------------------------------------

test('test_catalog_passes_every_catalog_case', () => {
  const { code, stdout, stderr } = cli(['test', 'catalog']);
  assert.equal(code, 0, stdout + stderr);
  const counts = catalogCounts();
  assert.deepEqual(summary(stdout), { cases: counts.cases, passed: counts.cases, failed: 0, unreadable: 0, definitions: counts.definitions });
  assert.ok(counts.cases >= 200, `only ${counts.cases} catalog cases`);
});

test('json_output_counts_every_case_and_each_expectation', () => {
  const { code, stdout } = cli(['test', 'catalog', '-o', 'json']);
  assert.equal(code, 0);
  const report = JSON.parse(stdout);
  const counts = catalogCounts();
  assert.equal(report.summary.cases, counts.cases);
  assert.equal(report.suites.length, counts.definitions);
  const running = report.suites.find((s) => s.name === `catalog/${ENTRY}`).cases.find((c) => c.name === 'running.yaml');
  assert.deepEqual(
    running.expectations.map((e) => [e.path, e.passed, e.actual]),
    [
      ['expect.phases', true, ['Running']],
      ['expect.resources.gpus', true, 16],
    ],
  );
});

// --- failures ------------------------------------------------------------------------------

test('a_broken_expectation_fails_with_a_diff_naming_expected_and_actual', () => {
  const { target } = brokenEntry();
  const { code, stdout } = cli(['test', target]);
  assert.equal(code, 1, stdout);
  const counts = summary(stdout);
  assert.equal(counts.failed, 1);
  assert.equal(counts.passed, counts.cases - 1);
  const file = path.join(target, 'tests', 'running.yaml');
  const line =
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('gpus: 17')) + 1;
  assert.match(stdout, new RegExp(`FAIL  running.yaml`));
  assert.ok(stdout.includes(`${file}:${line}:`), stdout);
  assert.match(stdout, /resources\.gpus\n\s+expected: 17\n\s+actual: {3}16\n/);
});

test('a_long_structured_difference_is_a_line_diff', () => {
  const { target } = copyOfEntry(ENTRY, (files) => {
    files['running.yaml'] = files['running.yaml'].replace(
      'phases: [Running]',
      'phases: [Running]\n  groups: [{name: a-very-long-group-name-for-this-test, minAvailable: 4, members: [replicatedjob, jobset]}]',
    );
  });
  const { code, stdout } = cli(['test', target]);
  assert.equal(code, 1, stdout);
  assert.match(stdout, /--- expected\n\s+\+\+\+ actual\n/);
  assert.match(stdout, /\n\s+- +"name": "a-very-long-group-name-for-this-test",?\n/);
});

test('junit_output_is_well_formed_xml_with_the_counts', () => {
  const { dir } = brokenEntry();
  const { code, stdout } = cli(['test', dir, path.join(root, 'catalog', 'batch-job-v1'), '-o', 'junit']);
  assert.equal(code, 1);
  const suites = parseXml(stdout);
  assert.equal(suites.name, 'testsuites');
  assert.deepEqual(
    suites.children.map((s) => s.name),
    ['testsuite', 'testsuite'],
  );
  const cases = suites.children.flatMap((s) => s.children);
  assert.ok(cases.every((c) => c.name === 'testcase'));
  assert.equal(Number(suites.attrs.tests), cases.length);
  assert.equal(suites.attrs.failures, '1');
  assert.equal(suites.attrs.errors, '0');
  for (const suite of suites.children) assert.equal(Number(suite.attrs.tests), suite.children.length);
  const failed = cases.filter((c) => c.children.some((f) => f.name === 'failure'));
  assert.equal(failed.length, 1);
  assert.equal(failed[0].attrs.name, `running.yaml: a <broken> & 'quoted' "case"`);
  const failure = failed[0].children[0];
  assert.match(failure.attrs.message, /resources\.gpus/);
  assert.match(failure.text, /expected: 17\n\s+actual: {3}16/);
});

test('github_output_annotates_the_line_of_the_failing_expectation', () => {
  const { target } = brokenEntry();
  const { code, stdout } = cli(['test', target, '-o', 'github']);
  assert.equal(code, 1);
  const file = path.join(target, 'tests', 'running.yaml');
  const line =
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('gpus: 17')) + 1;
  const annotations = stdout.split('\n').filter((l) => l.startsWith('::error '));
  assert.equal(annotations.length, 1, stdout);
  const [, props, message] = /^::error ([^:]*)::(.*)$/.exec(annotations[0]);
  assert.ok(props.startsWith(`file=${file.replace(/:/g, '%3A').replace(/,/g, '%2C')},line=${line},col=`), props);
  assert.equal(message, 'resources.gpus%0Aexpected: 17%0Aactual:   16');
  summary(stdout);
});

test('a_definition_with_errors_fails_the_folder_at_its_line_and_in_junit', () => {
  const { dir, target } = copyOfEntry('batch-job-v1');
  const file = path.join(target, 'definition.yaml');
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^ {6}name: job$/m);
  writeFileSync(file, text.replace(/^ {6}name: job$/m, '      name: ""'));
  const { code, stdout } = cli(['test', dir]);
  assert.equal(code, 1, stdout);
  assert.ok(
    stdout.split('\n').some((l) => l.startsWith(`  ${file}:`) && /:\d+:\d+: error definition\/empty-component-name: /.test(l)),
    stdout,
  );
  assert.equal(summary(stdout).invalidDefinitions, 1);
  const junit = parseXml(cli(['test', dir, '-o', 'junit']).stdout);
  const suite = junit.children[0];
  assert.equal(suite.children[0].attrs.name, 'definition.yaml');
  assert.equal(suite.children[0].children[0].name, 'failure');
  assert.equal(Number(suite.attrs.tests), suite.children.length);
  assert.equal(Number(suite.attrs.failures), suite.children.filter((c) => c.children.some((f) => f.name === 'failure')).length);
});

// --- unreadable input: exit 2 with a located message -----------------------------------------

test('a_missing_path_or_a_folder_without_test_folders_exits_2', () => {
  const missing = cli(['test', path.join(scratch, 'nope')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope: no such file or directory/);
  const empty = mkdtempSync(path.join(scratch, 'empty-'));
  mkdirSync(path.join(empty, 'sub'));
  const none = cli(['test', empty]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no definition test folder \(definition\.yaml \+ tests\/\*\.yaml\) found/);
  assert.equal(cli(['test']).code, 2);
  assert.equal(cli(['test', 'catalog', '-o', 'xml']).code, 2);
});

test('a_malformed_case_exits_2_at_the_unknown_key', () => {
  const { target } = copyOfEntry(ENTRY, (files) => {
    files['running.yaml'] = files['running.yaml'].replace('  phases: [Running]', '  phase: [Running]');
  });
  const { code, stdout } = cli(['test', target]);
  assert.equal(code, 2, stdout);
  const file = path.join(target, 'tests', 'running.yaml');
  const line =
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('phase: [Running]')) + 1;
  assert.ok(stdout.includes(`ERROR running.yaml`), stdout);
  assert.ok(stdout.includes(`${file}:${line}:3: error case/unknown-field: unknown key \`phase\``), stdout);
  assert.equal(summary(stdout).unreadable, 1);
});

test('a_case_or_definition_that_is_not_yaml_exits_2_located', () => {
  const { target } = copyOfEntry(ENTRY, (files) => {
    files['zz-broken.yaml'] = 'description: x\nobject: {a: [1, 2}\n';
  });
  const caseRun = cli(['test', target, '-o', 'github']);
  assert.equal(caseRun.code, 2);
  assert.match(caseRun.stdout, /^::error file=[^,]*zz-broken\.yaml,line=2,col=\d+,.*::syntax\/invalid: /m);

  writeFileSync(path.join(target, 'definition.yaml'), 'kind: [\n');
  const definitionRun = cli(['test', target]);
  assert.equal(definitionRun.code, 2);
  assert.ok(definitionRun.stdout.includes(`${path.join(target, 'definition.yaml')}:`), definitionRun.stdout);
});

test('one_case_file_runs_alone_with_its_folders_definition', () => {
  const { code, stdout } = cli(['test', path.join('catalog', ENTRY, 'tests', 'suspend-action.yaml')]);
  assert.equal(code, 0, stdout);
  assert.deepEqual(summary(stdout), { cases: 1, passed: 1, failed: 0, unreadable: 0, definitions: 1 });
});

// --- the API under the command: runCase --------------------------------------------------------

test('run_case_places_expectations_in_utf16_columns_and_takes_object_from_files', async () => {
  const wm = await import('workload-map');
  const folder = path.join(root, 'catalog', ENTRY);
  const definition = new wm.Definition(readFileSync(path.join(folder, 'definition.yaml'), 'utf8'));
  const running = readFileSync(path.join(folder, 'tests', 'running.yaml'), 'utf8');
  // An astral character before the expected value: two UTF-16 code units.
  const line = 'expect: {statusPhase: "😀", phases: [Failed]}';
  const result = definition.runCase(`description: "😀"\nobjectFrom: running.yaml\n${line}\n`, { files: { 'running.yaml': running } });
  assert.equal(result.passed, false);
  assert.equal(result.description, '😀');
  const column = (text) => line.indexOf(text) + 1; // JavaScript strings count UTF-16 code units
  assert.deepEqual(
    result.expectations.map((e) => [e.path, e.expected, e.actual, e.line, e.column]),
    [
      ['expect.statusPhase', '😀', null, 3, column('"😀"')],
      ['expect.phases', ['Failed'], ['Running'], 3, column('[Failed]')],
    ],
  );
  assert.deepEqual(wm.runCase(readFileSync(path.join(folder, 'definition.yaml'), 'utf8'), running).passed, true);
  definition.free();
});

test('run_case_misuse_throws_a_type_error_and_a_malformed_case_is_data', async () => {
  const wm = await import('workload-map');
  const definition = new wm.Definition(readFileSync(path.join(root, 'catalog', ENTRY, 'definition.yaml'), 'utf8'));
  assert.throws(() => definition.runCase({ expect: {} }), TypeError);
  assert.throws(() => definition.runCase('expect: {}', { files: { 'a.yaml': 1 } }), TypeError);
  assert.throws(() => definition.runCase('expect: {}', []), TypeError);
  const result = definition.runCase('objectFrom: nope.yaml\nexpect: {phases: []}\n');
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, d.source, d.line, d.column]),
    [['case/object-from', 'case', 1, 13]],
  );
  assert.equal(result.passed, false);
  definition.free();
});
