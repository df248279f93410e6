// `workload-map test PATH...`: runs definition test folders (definition.yaml + tests/*.yaml, the
// catalog's format) through the package's `Definition.runCase`, the same case runner the Rust
// tests use (src/cases.rs). This file finds the folders, reads the files and formats the
// results: text with a diff per failed expectation, JSON, JUnit XML or GitHub annotations.
//
// Exit codes: 0 every case passed; 1 a case failed (or a definition has errors); 2 usage error
// or unreadable input (a missing path, no test folder found, a file that cannot be read or
// parsed, a malformed case).

import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

import { readBytes } from '../inputs.mjs';
import { escapeTerminal } from '../terminal.mjs';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_UNREADABLE = 2;

const FORMATS = ['text', 'json', 'junit', 'github'];

/** The options of `test` (read by the CLI's argument parser and its completion scripts). */
export const TEST_OPTIONS = {
  output: { type: 'string', short: 'o', values: FORMATS, description: 'Output format' },
};

export const TEST_HELP = `Run definition test folders: each case resolved with its definition and compared.

Usage:
  workload-map test PATH... [-o text|json|junit|github]

Each PATH is a definition test folder (definition.yaml and tests/*.yaml), a folder searched
recursively for such folders (e.g. "workload-map test catalog"), or one case file inside a
tests/ folder. Each case gives an object (or "objectFrom: another-case.yaml"), optionally the
objects related to it ("related:", or an object that is a kind: List with its pods), and an
"expect:" block: phases, statusPhase, resources, components, pods, groups, info, diagnostics;
or "action: suspend|resume" with the expected patch. The format is described in the catalog's
README.

Options:
  -o, --output FORMAT  text (default; a diff of expected and actual per failure), json,
                       junit (JUnit XML: a testsuite per definition, a testcase per case) or
                       github (workflow annotations at the failing expectation's line)
  -h, --help           Show this help

Exit codes: 0 all cases passed, 1 a case failed, 2 usage error or unreadable input (a missing
path, no test folder found, a file that is not YAML, a malformed case).
`;

/**
 * Runs the command. `cli` gives what the main CLI owns: `loadApi()`, `parse(args, options, command)`, `decodeText(bytes, name)`,
 * `CliError`, `print(text)` and `printError(text)`.
 */
export async function testCommand(args, cli) {
  const { values, positionals } = cli.parse(args, TEST_OPTIONS, 'test');
  if (values.help) {
    cli.print(TEST_HELP);
    return EXIT_OK;
  }
  const format = values.output ?? 'text';
  if (!FORMATS.includes(format)) throw new cli.CliError(`unknown output format "${format}" for test: use ${FORMATS.join(', ')}`);
  if (positionals.length === 0)
    throw new cli.CliError('test needs at least one PATH (a definition test folder, or a folder holding some)\nRun "workload-map test --help" for usage.');

  const targets = findTargets(positionals, cli);
  const api = await cli.loadApi();
  if (typeof api.Definition?.prototype?.runCase !== 'function') throw new cli.CliError('this build of the package has no runCase(): run `npm run build`');

  const started = performance.now();
  const suites = targets.map((target) => runFolder(api, target, cli));
  const report = { suites, summary: summarise(suites, performance.now() - started) };

  const output = { text: textReport, json: jsonReport, junit: junitReport, github: githubReport }[format](report);
  cli.print(output);
  if (report.summary.unreadable > 0) return EXIT_UNREADABLE;
  return report.summary.failed > 0 || report.summary.invalidDefinitions > 0 ? EXIT_FAILED : EXIT_OK;
}

// --- finding the folders -------------------------------------------------------------------------

/** `{dir, only?}` per test folder to run (`only`: one case file), in the order given. */
function findTargets(paths, cli) {
  const targets = [];
  const seen = new Map();
  const add = (dir, only) => {
    const key = realpathSync(dir);
    const known = seen.get(key);
    if (known) {
      // A folder named whole and by one of its cases runs whole, once.
      if (!only) delete known.only;
      else if (known.only && !known.only.includes(only)) known.only.push(only);
      return;
    }
    const target = { dir, only: only ? [only] : undefined };
    seen.set(key, target);
    targets.push(target);
  };
  for (const given of paths) {
    let stat;
    try {
      stat = statSync(given);
    } catch (error) {
      throw new cli.CliError(`${given}: ${error.code === 'ENOENT' ? 'no such file or directory' : error.message}`, EXIT_UNREADABLE);
    }
    if (stat.isFile()) {
      const dir = path.dirname(given);
      if (path.basename(given) === 'definition.yaml') {
        add(dir);
      } else if (path.basename(dir) === 'tests' && isFile(path.join(dir, '..', 'definition.yaml'))) {
        add(path.join(dir, '..'), path.basename(given));
      } else {
        throw new cli.CliError(`${given} is neither a definition.yaml nor a case in a tests/ folder next to one`, EXIT_UNREADABLE);
      }
      continue;
    }
    const found = isFile(path.join(given, 'definition.yaml')) ? [given] : searchFolders(given);
    if (found.length === 0) {
      throw new cli.CliError(`${given}: no definition test folder (definition.yaml + tests/*.yaml) found in it`, EXIT_UNREADABLE);
    }
    for (const dir of found) add(dir);
  }
  return targets;
}

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Folders under `dir` holding definition.yaml and a tests/ folder, sorted; not inside one
 * (definitions do not nest), not through symbolic links, dot folders or node_modules.
 */
function searchFolders(dir) {
  const found = [];
  const walk = (current) => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    const names = new Set(entries.map((e) => e.name));
    if (names.has('definition.yaml') && entries.some((e) => e.name === 'tests' && e.isDirectory())) {
      found.push(current);
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(path.join(current, entry.name));
    }
  };
  walk(dir);
  return found;
}

// --- running -------------------------------------------------------------------------------------

/** A path as shown and annotated: relative to the working directory, with `/`. */
function shownPath(file) {
  const relative = path.relative(process.cwd(), file);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : path.resolve(file);
  return shown.split(path.sep).join('/');
}

/**
 * Reads a file as text, or `{error}` with the located message. Only regular files (or links to
 * them) are opened: a fifo would wait for a writer; any file is read up to the text cap.
 */
function readText(file, cli) {
  try {
    if (!isFile(file)) return { error: { message: `${shownPath(file)}: cannot read: not a regular file` } };
    return { text: cli.decodeText(readBytes(file, shownPath(file)), shownPath(file)) };
  } catch (error) {
    if (error instanceof cli.CliError) return { error: { message: error.message, line: error.line, column: error.column } };
    return { error: { message: `${shownPath(file)}: cannot read: ${error.message}` } };
  }
}

function locatedMessage(file, d) {
  return `${file}${d.line ? `:${d.line}:${d.column}` : ''}: ${d.severity} ${d.code}: ${d.message}${d.help ? ` (${d.help})` : ''}`;
}

/** Runs one test folder: a suite with a result per case. */
function runFolder(api, { dir, only }, cli) {
  const started = performance.now();
  const definitionFile = shownPath(path.join(dir, 'definition.yaml'));
  const suite = { name: shownPath(dir), definition: null, definitionFile, problems: [], cases: [], durationMs: 0 };
  const finish = () => {
    suite.durationMs = performance.now() - started;
    return suite;
  };

  const read = readText(path.join(dir, 'definition.yaml'), cli);
  if (read.error) {
    suite.problems.push({ file: definitionFile, severity: 'error', unreadable: true, ...read.error });
    return finish();
  }
  const definition = new api.Definition(read.text);
  try {
    suite.definition = definition.name ?? path.basename(dir);
    const syntax = definition.diagnostics.find((d) => d.severity === 'error' && d.code.startsWith('syntax/'));
    if (syntax) {
      suite.problems.push({
        file: definitionFile,
        severity: 'error',
        unreadable: true,
        line: syntax.line,
        column: syntax.column,
        message: locatedMessage(definitionFile, syntax),
      });
      return finish();
    }
    // A definition with errors is a failure of the folder; its cases still run.
    for (const d of definition.diagnostics.filter((x) => x.severity === 'error')) {
      suite.problems.push({ file: definitionFile, severity: 'error', line: d.line, column: d.column, message: locatedMessage(definitionFile, d) });
    }

    const testsDir = path.join(dir, 'tests');
    let names = [];
    try {
      names = readdirSync(testsDir)
        .filter((n) => /\.ya?ml$/.test(n))
        .sort();
    } catch {
      // No tests/ folder: reported below.
    }
    if (names.length === 0) {
      suite.problems.push({ file: shownPath(testsDir), severity: 'error', unreadable: true, message: `${shownPath(testsDir)}: no test cases (*.yaml)` });
      return finish();
    }
    const texts = {};
    const unreadable = {};
    for (const name of names) {
      const text = readText(path.join(testsDir, name), cli);
      if (text.error) unreadable[name] = text.error;
      else texts[name] = text.text;
    }
    for (const name of only ?? names) {
      const file = shownPath(path.join(testsDir, name));
      const caseStarted = performance.now();
      if (unreadable[name]) {
        suite.cases.push({
          name,
          file,
          description: null,
          kind: null,
          status: 'error',
          expectations: [],
          diagnostics: [
            {
              severity: 'error',
              code: 'unreadable',
              message: unreadable[name].message,
              line: unreadable[name].line,
              column: unreadable[name].column,
              source: 'case',
              path: '',
            },
          ],
          durationMs: 0,
        });
        continue;
      }
      const result = definition.runCase(texts[name], { files: texts });
      const malformed = result.diagnostics.some((d) => d.severity === 'error');
      suite.cases.push({
        name,
        file,
        description: result.description,
        kind: result.kind,
        status: malformed ? 'error' : result.passed ? 'passed' : 'failed',
        expectations: result.expectations,
        diagnostics: result.diagnostics,
        durationMs: performance.now() - caseStarted,
      });
    }
    return finish();
  } finally {
    definition.free();
  }
}

/**
 * Counts: cases by outcome (`unreadable`: malformed or unreadable cases, and test folders that
 * could not be run at all), and definitions with errors (their cases still ran).
 */
function summarise(suites, durationMs) {
  const cases = suites.flatMap((s) => s.cases);
  const count = (status) => cases.filter((c) => c.status === status).length;
  return {
    cases: cases.length,
    passed: count('passed'),
    failed: count('failed'),
    unreadable: count('error') + suites.filter((s) => s.problems.some((p) => p.unreadable)).length,
    invalidDefinitions: suites.filter((s) => s.problems.some((p) => !p.unreadable)).length,
    definitions: suites.length,
    durationMs,
  };
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function summaryLine({ summary }) {
  const parts = [plural(summary.cases, 'case'), `${summary.passed} passed`, `${summary.failed} failed`];
  if (summary.unreadable > 0) parts.push(`${summary.unreadable} unreadable`);
  if (summary.invalidDefinitions > 0) parts.push(plural(summary.invalidDefinitions, 'invalid definition'));
  return `${parts.join(', ')} across ${plural(summary.definitions, 'definition')} (${seconds(summary.durationMs)})`;
}

function seconds(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

// --- expected vs actual --------------------------------------------------------------------------

function compact(value) {
  return value === undefined ? 'null' : JSON.stringify(value);
}

/**
 * A readable difference of two JSON values: both on one line each when short, else a line
 * diff of their indented JSON (`-` expected only, `+` actual only, two lines of context).
 */
export function diffLines(expected, actual) {
  const [e, a] = [compact(expected), compact(actual)];
  if (e.length <= 72 && a.length <= 72) return [`expected: ${e}`, `actual:   ${a}`];
  const left = JSON.stringify(expected ?? null, null, 2).split('\n');
  const right = JSON.stringify(actual ?? null, null, 2).split('\n');
  // Longest common subsequence of lines (the values are small: expectations, not manifests).
  const lcs = Array.from({ length: left.length + 1 }, () => new Array(right.length + 1).fill(0));
  for (let i = left.length - 1; i >= 0; i -= 1) {
    for (let j = right.length - 1; j >= 0; j -= 1) {
      lcs[i][j] = left[i] === right[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops = [];
  let [i, j] = [0, 0];
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i] === right[j]) {
      ops.push(['  ', left[i]]);
      i += 1;
      j += 1;
    } else if (j < right.length && (i === left.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      ops.push(['+ ', right[j]]);
      j += 1;
    } else {
      ops.push(['- ', left[i]]);
      i += 1;
    }
  }
  const near = (k) => ops.slice(Math.max(0, k - 2), k + 3).some(([mark]) => mark !== '  ');
  const lines = ['--- expected', '+++ actual'];
  let skipped = false;
  ops.forEach(([mark, line], k) => {
    if (mark !== '  ' || near(k)) {
      lines.push(`${mark}${line}`);
      skipped = false;
    } else if (!skipped) {
      lines.push('  ...');
      skipped = true;
    }
  });
  return lines;
}

function failedExpectations(c) {
  return c.expectations.filter((e) => !e.passed);
}

function caseErrors(c) {
  return c.diagnostics.filter((d) => d.severity === 'error');
}

/** The lines describing why a case did not pass. */
function caseDetail(c) {
  const lines = [];
  for (const d of caseErrors(c)) lines.push(d.code === 'unreadable' ? d.message : locatedMessage(c.file, d));
  for (const e of failedExpectations(c)) {
    lines.push(`${c.file}${e.line ? `:${e.line}:${e.column}` : ''}: ${e.label}`);
    for (const line of diffLines(e.expected, e.actual)) lines.push(`  ${line}`);
    if (e.note) for (const line of e.note.split('\n')) lines.push(`  note: ${line}`);
  }
  return lines;
}

// --- formats -------------------------------------------------------------------------------------

function textReport(report) {
  const out = [];
  for (const suite of report.suites) {
    const bad = suite.cases.filter((c) => c.status !== 'passed');
    const ok = bad.length === 0 && suite.problems.length === 0;
    out.push(`${ok ? 'ok  ' : 'FAIL'} ${suite.name} (${suite.cases.length} ${suite.cases.length === 1 ? 'case' : 'cases'}, ${seconds(suite.durationMs)})`);
    for (const p of suite.problems) out.push(`  ${p.message}`);
    for (const c of bad) {
      out.push(`  ${c.status === 'error' ? 'ERROR' : 'FAIL '} ${c.name}${c.description ? `: ${c.description}` : ''}`);
      for (const line of caseDetail(c)) out.push(`    ${line}`);
    }
  }
  out.push('', summaryLine(report));
  // Every entry is one line: names, descriptions and messages come from the files, so their
  // control characters are shown escaped (no colour is added here).
  return out.map(escapeTerminal).join('\n');
}

function jsonReport(report) {
  const summary = { ...report.summary, durationMs: Math.round(report.summary.durationMs) };
  const suites = report.suites.map((s) => ({
    ...s,
    durationMs: Math.round(s.durationMs),
    cases: s.cases.map((c) => ({ ...c, durationMs: Math.round(c.durationMs * 1000) / 1000 })),
  }));
  return JSON.stringify({ summary, suites }, null, 2);
}

/** Text for XML: the five special characters escaped, characters XML 1.0 cannot hold dropped. */
export function xmlEscape(text) {
  return String(text)
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function attrs(pairs) {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ` ${k}="${xmlEscape(v)}"`)
    .join('');
}

/** A testsuite's counts: its cases, plus one testcase for definition.yaml when it has problems. */
function junitCounts(suite) {
  const definitionCase = suite.problems.length > 0;
  const unreadable = suite.problems.some((p) => p.unreadable);
  return {
    tests: suite.cases.length + (definitionCase ? 1 : 0),
    failures: suite.cases.filter((c) => c.status === 'failed').length + (definitionCase && !unreadable ? 1 : 0),
    errors: suite.cases.filter((c) => c.status === 'error').length + (unreadable ? 1 : 0),
  };
}

function junitReport(report) {
  const counts = report.suites.map(junitCounts);
  const total = (key) => counts.reduce((n, c) => n + c[key], 0);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites${attrs({ name: 'workload-map test', tests: total('tests'), failures: total('failures'), errors: total('errors'), time: (report.summary.durationMs / 1000).toFixed(3) })}>`,
  );
  for (const [i, suite] of report.suites.entries()) {
    const { tests, failures, errors } = counts[i];
    out.push(`  <testsuite${attrs({ name: suite.name, tests, failures, errors, time: (suite.durationMs / 1000).toFixed(3) })}>`);
    if (suite.problems.length > 0) {
      const element = suite.problems.some((p) => p.unreadable) ? 'error' : 'failure';
      out.push(`    <testcase${attrs({ classname: suite.name, name: 'definition.yaml', file: suite.definitionFile, time: '0.000' })}>`);
      out.push(
        `      <${element}${attrs({ message: suite.problems[0].message, type: 'definition' })}>${xmlEscape(suite.problems.map((p) => p.message).join('\n'))}</${element}>`,
      );
      out.push('    </testcase>');
    }
    for (const c of suite.cases) {
      const name = c.description ? `${c.name}: ${c.description}` : c.name;
      const open = `    <testcase${attrs({ classname: suite.name, name, file: c.file, time: (c.durationMs / 1000).toFixed(3) })}`;
      if (c.status === 'passed') {
        out.push(`${open}/>`);
        continue;
      }
      out.push(`${open}>`);
      const detail = xmlEscape(caseDetail(c).join('\n'));
      if (c.status === 'error') {
        const first = caseErrors(c)[0];
        out.push(`      <error${attrs({ message: first ? first.message : 'malformed case', type: first ? first.code : 'case' })}>${detail}</error>`);
      } else {
        const failed = failedExpectations(c);
        const message = `${failed.length} ${failed.length === 1 ? 'expectation' : 'expectations'} failed: ${failed.map((e) => e.label).join('; ')}`;
        out.push(`      <failure${attrs({ message, type: 'expectation' })}>${detail}</failure>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n');
}

/** GitHub workflow command escaping: data escapes % CR LF; properties also `:` and `,`. */
function ghData(text) {
  return String(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function ghProperty(text) {
  return ghData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * @param {{file: string, line?: number, column?: number, endLine?: number, endColumn?: number, title: string}} where
 * @param {string} message
 */
function annotation({ file, line, column, endLine, endColumn, title }, message) {
  const props = [`file=${ghProperty(file)}`];
  if (line) props.push(`line=${line}`);
  if (column) props.push(`col=${column}`);
  if (endLine) props.push(`endLine=${endLine}`);
  if (endColumn && endLine === line) props.push(`endColumn=${endColumn}`);
  props.push(`title=${ghProperty(title)}`);
  return `::error ${props.join(',')}::${ghData(message)}`;
}

function githubReport(report) {
  const out = [];
  for (const suite of report.suites) {
    for (const p of suite.problems)
      out.push(annotation({ file: p.file, line: p.line, column: p.column, title: `workload-map test: ${suite.name}` }, p.message));
    for (const c of suite.cases) {
      const title = `workload-map test: ${c.name}`;
      for (const d of caseErrors(c)) {
        out.push(
          annotation(
            { file: c.file, line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn, title },
            d.code === 'unreadable' ? d.message : `${d.code}: ${d.message}${d.help ? ` (${d.help})` : ''}`,
          ),
        );
      }
      for (const e of failedExpectations(c)) {
        const lines = [`${e.label}`, ...diffLines(e.expected, e.actual), ...(e.note ? [`note: ${e.note}`] : [])];
        out.push(annotation({ file: c.file, line: e.line, column: e.column, endLine: e.endLine, endColumn: e.endColumn, title }, lines.join('\n')));
      }
    }
  }
  out.push(summaryLine(report));
  return out.join('\n');
}
