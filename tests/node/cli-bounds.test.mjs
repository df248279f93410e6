// The CLI on hostile and careless input: every input is read up to the text cap whatever the
// file is, text output shows the input's control characters escaped, and a closed pipe ends
// the command quietly.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { MAX_TEXT_BYTES } from '../../bin/inputs.mjs';
import { assertNoHang, cli, fixture, root } from './helpers.mjs';

const scratch = mkdtempSync(path.join(tmpdir(), 'workload-map-cli-bounds-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const devices = existsSync('/dev/zero') && existsSync('/dev/urandom');

/** Runs the CLI, guarding against a hang (the cap, which each test asserts, is the bound). */
function bounded(args, options) {
  const started = performance.now();
  const result = cli(args, options);
  assertNoHang(performance.now() - started, args.join(' '));
  return result;
}

const CAP_MESSAGE = /the input holds more than 64 MiB, the most that is read/;

test('the_cli_cap_is_the_core_text_cap', () => {
  const yaml = readFileSync(path.join(root, 'src', 'yaml.rs'), 'utf8');
  const [, expression] = /pub const MAX_TEXT_BYTES: usize = ([\d\s*_]+);/.exec(yaml);
  const bytes = expression.split('*').reduce((product, factor) => product * Number(factor.trim().replaceAll('_', '')), 1);
  assert.equal(MAX_TEXT_BYTES, bytes);
});

test('devices_are_read_up_to_the_cap_and_refused_with_exit_2', { skip: !devices && 'no /dev/zero' }, () => {
  const manifest = path.join(scratch, 'pod.yaml');
  writeFileSync(manifest, fixture('pod.yaml'));
  for (const args of [
    ['describe', '-f', '/dev/zero'],
    ['describe', '-f', manifest, '-d', '/dev/zero'],
    ['validate', '/dev/urandom'],
    ['draft', '-f', '/dev/zero'],
  ]) {
    const { code, stdout, stderr } = bounded(args);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    const device = args.find((a) => a.startsWith('/dev/'));
    assert.match(stderr, new RegExp(`${device}: `), args.join(' '));
    assert.match(stderr, CAP_MESSAGE, args.join(' '));
    assert.doesNotMatch(`${stdout}${stderr}`, /\n\s+at /, 'no stack trace');
  }
});

test('a_regular_file_past_the_cap_is_refused_before_it_is_read', () => {
  const big = path.join(scratch, 'big.yaml');
  writeFileSync(big, `a: "${'x'.repeat(MAX_TEXT_BYTES)}"\n`);
  const { code, stderr } = bounded(['validate', big]);
  assert.equal(code, 2);
  assert.match(stderr, new RegExp(`${big.replaceAll('\\', '\\\\')}: the input holds more than`));
  rmSync(big);
});

test('standard_input_is_read_up_to_the_cap', () => {
  const { code, stderr } = bounded(['describe', '-f', '-'], { input: `a: "${'x'.repeat(MAX_TEXT_BYTES)}"\n` });
  assert.equal(code, 2, stderr);
  assert.match(stderr, /stdin: the input holds more than 64 MiB/);
});

test('test_reads_case_files_that_link_to_devices_only_up_to_the_cap', { skip: !devices && 'no /dev/zero' }, () => {
  const folder = path.join(scratch, 'pod-definition');
  cpSync(path.join(root, 'catalog', 'core-pod-v1'), folder, { recursive: true });
  symlinkSync('/dev/zero', path.join(folder, 'tests', 'zero.yaml'));
  for (const format of ['text', 'json']) {
    const { code, stdout, stderr } = bounded(['test', folder, '-o', format]);
    assert.equal(code, 2, stderr);
    assert.match(stdout, /zero\.yaml/);
    assert.match(stdout, /zero\.yaml: cannot read: not a regular file/);
  }
  // A definition.yaml that is a device is not opened (a fifo would wait for a writer).
  const device = path.join(scratch, 'device-definition');
  cpSync(path.join(root, 'catalog', 'core-pod-v1'), device, { recursive: true });
  rmSync(path.join(device, 'definition.yaml'));
  symlinkSync('/dev/zero', path.join(device, 'definition.yaml'));
  const { code, stderr } = bounded(['test', path.join(device, 'tests', 'running.yaml')]);
  assert.equal(code, 2);
  assert.match(stderr, /running\.yaml is neither a definition\.yaml nor a case in a tests\/ folder next to one/);
  const whole = bounded(['test', device]);
  assert.equal(whole.code, 2);
  assert.match(whole.stdout, /definition\.yaml: cannot read: not a regular file/);
});

// --- control characters in text output -------------------------------------------------------

const ESC = '\u001b';
const BEL = '\u0007';
/** C0 controls but LF, DEL and C1 controls: nothing of the input may reach the terminal raw. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test('describe_text_escapes_names_and_reasons_so_they_forge_no_line_and_send_no_escape', () => {
  const manifest = path.join(scratch, 'hostile.yaml');
  const text = fixture('jobset-with-pods-list.yaml')
    .replace('metadata: {name: train, namespace: ml, uid: 7c1e-jobset}', 'metadata: {name: "train\\e]0;pwned\\a", namespace: ml, uid: 7c1e-jobset}')
    .replace('reason: Unschedulable', 'reason: "Unschedulable\\nPhase: Running"');
  assert.notEqual(text, fixture('jobset-with-pods-list.yaml'));
  writeFileSync(manifest, text);
  for (const format of ['text', 'wide']) {
    const { code, stdout, stderr } = cli(['describe', '-f', manifest, '-o', format], { env: { FORCE_COLOR: '1' } });
    assert.ok(code === 0 || code === 1, stderr);
    // Colour stays (the severity words), the input's escapes do not.
    const withoutColour = stdout.replace(/\u001b\[\d+m/g, '');
    assert.doesNotMatch(withoutColour, RAW_CONTROL, format);
    assert.ok(!withoutColour.includes(`${ESC}]0;pwned`), format);
    assert.ok(stdout.includes('JobSet/train^[]0;pwned\\x07'), stdout);
    // The reason's newline would start a line "Phase: Running)   gpu: 4 ..." of its own.
    assert.ok(!stdout.split('\n').some((line) => line.startsWith('Phase: Running)')), stdout);
    assert.ok(stdout.includes('Unschedulable\\nPhase: Running'), stdout);
  }
  // Machine formats carry the values as they are, in their own escaping.
  const json = JSON.parse(cli(['describe', '-f', manifest, '-o', 'json']).stdout);
  assert.equal(json.items[0].name, `train${ESC}]0;pwned${BEL}`);
});

test('validate_text_escapes_field_names_and_file_names', () => {
  const file = path.join(scratch, `bad${ESC}[2Jname.yaml`);
  const definition = fixture('jobset-definition.yaml');
  assert.match(definition, /^spec:/m);
  writeFileSync(file, definition.replace(/^spec:/m, `"field${ESC}]0;pwned${BEL}\\nOK: forged": 1\nspec:`));
  const { stdout, stderr } = cli(['validate', file], { env: { FORCE_COLOR: '1' } });
  const output = `${stdout}${stderr}`.replace(/\u001b\[\d+m/g, '');
  assert.match(output, /field\^\[\]0;pwned\\x07\\nOK: forged/, output);
  assert.doesNotMatch(output, RAW_CONTROL, output);
  assert.ok(!output.split('\n').some((line) => line.startsWith('OK: forged')), output);
  // The JSON report keeps the field name as it is.
  const report = JSON.parse(cli(['validate', file, '-o', 'json']).stdout);
  assert.ok(JSON.stringify(report).includes('\\u001b]0;pwned\\u0007'), JSON.stringify(report));
});

test('test_text_escapes_case_descriptions', () => {
  const folder = path.join(scratch, 'escaped-cases');
  cpSync(path.join(root, 'catalog', 'core-pod-v1'), folder, { recursive: true });
  const cases = path.join(folder, 'tests');
  const first = 'completed.yaml';
  const caseText = readFileSync(path.join(cases, first), 'utf8');
  assert.match(caseText, /^description:/m);
  const hostile = caseText.replace(/^description:.*$/m, 'description: "case\\e]0;pwned\\a\\nok   forged"');
  // A failing expectation, so that the case and its description are printed.
  assert.match(hostile, /phases: \[Completed\]/);
  writeFileSync(path.join(cases, first), hostile.replace('phases: [Completed]', 'phases: [Running]'));
  const { stdout } = cli(['test', folder], { env: { FORCE_COLOR: '1' } });
  assert.match(stdout, /case\^\[\]0;pwned\\x07\\nok {3}forged/, stdout);
  assert.doesNotMatch(stdout, RAW_CONTROL, stdout);
  assert.ok(!stdout.split('\n').some((line) => line.startsWith('ok   forged')), stdout);
});

// --- a closed pipe -----------------------------------------------------------------------------

/** Runs the CLI with its standard output closed before it writes, as `... | head -0` would. */
function withClosedOutput(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'workload-map.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('a_closed_pipe_ends_the_command_quietly', async () => {
  const big = path.join(scratch, 'many-pods.json');
  const pods = Array.from({ length: 400 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'ml' },
    spec: { containers: [{ name: 'c' }] },
  }));
  writeFileSync(big, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: pods }));
  for (const args of [
    ['describe', '-f', big],
    ['describe', '-f', big, '-o', 'json'],
    ['validate', 'catalog'],
  ]) {
    const { code, stderr } = await withClosedOutput(args);
    assert.doesNotMatch(stderr, /EPIPE|Unhandled|\n\s+at /, `${args.join(' ')}: ${stderr}`);
    assert.equal(stderr, '', args.join(' '));
    // The command's own exit code (validate finds the catalog's test cases invalid definitions).
    assert.equal(code, cli(args).code, args.join(' '));
  }
});
