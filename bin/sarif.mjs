// SARIF 2.1.0 for `validate -o sarif`, in the shape GitHub code scanning ingests: every rule
// documented (descriptions, help, a link to docs/diagnostics.md), locations relative to the
// folder the command ran in (`%SRCROOT%`), and files that could not be read reported as tool
// execution notifications instead of left out.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Generated from the doc comments of the codes in src/diagnostic.rs (tests/it/catalog_generated.rs). */
const CODES = new Map(JSON.parse(readFileSync(new URL('./diagnostic-codes.json', import.meta.url), 'utf8')).codes.map((c) => [c.code, c]));

const INFORMATION_URI = 'https://github.com/workload-map/workload-map';
const SRCROOT = '%SRCROOT%';

/**
 * The SARIF log of a validate run. `results` are the command's results: `{ file, readable,
 * diagnostics }` for a definition read, `{ file, readable: false, error, line?, column? }` for a
 * file that could not be read.
 */
export function sarifLog(results, { version, cwd = process.cwd() }) {
  const rules = [];
  const ruleIndex = new Map();
  const sarifResults = [];
  const notifications = [];
  for (const result of results) {
    const artifactLocation = artifact(result.file, cwd);
    if (!result.readable) {
      notifications.push({
        level: 'error',
        message: { text: result.error },
        locations: [{ physicalLocation: { artifactLocation, ...(result.line ? { region: { startLine: result.line, startColumn: result.column } } : {}) } }],
      });
      continue;
    }
    for (const d of result.diagnostics) {
      if (!ruleIndex.has(d.code)) {
        ruleIndex.set(d.code, rules.length);
        rules.push(rule(d.code));
      }
      sarifResults.push({
        ruleId: d.code,
        ruleIndex: ruleIndex.get(d.code),
        level: d.severity === 'info' ? 'note' : d.severity,
        message: { text: d.help ? `${d.message}\nhelp: ${d.help}` : d.message },
        locations: [{ physicalLocation: { artifactLocation, region: region(d) } }],
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'workload-map', version, semanticVersion: version, informationUri: INFORMATION_URI, rules } },
        invocations: [{ executionSuccessful: notifications.length === 0, toolExecutionNotifications: notifications }],
        originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(cwd) } },
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
}

/** A rule from the code's documentation; a code missing there still gets a valid rule. */
function rule(code) {
  const doc = CODES.get(code);
  const summary = doc?.summary ?? code;
  const details = doc?.details ?? '';
  const text = details ? `${summary}\n\n${details}` : summary;
  return {
    id: code,
    name: code,
    shortDescription: { text: summary },
    fullDescription: { text },
    ...(doc ? { helpUri: doc.helpUri } : {}),
    help: { text: doc ? `${text}\n\n${doc.helpUri}` : text, markdown: doc ? `${text}\n\n[Documentation](${doc.helpUri})` : text },
  };
}

/**
 * Where a diagnostic is: its range (columns in UTF-16 code units, the end one past the last
 * character, as SARIF counts), or the file's first line when the engine gave no position
 * (code scanning needs a line for every result).
 */
function region(d) {
  if (!d.line) return { startLine: 1 };
  return { startLine: d.line, startColumn: d.column, endLine: d.endLine ?? d.line, endColumn: d.endColumn ?? d.column };
}

/**
 * The artifact of a file: relative to `%SRCROOT%` (the working folder) when inside it, else an
 * absolute `file:` URI; standard input as `stdin`.
 */
function artifact(file, cwd) {
  if (file === 'stdin') return { uri: 'stdin' };
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return { uri: pathToFileURL(absolute).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function directoryUri(dir) {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : `${href}/`;
}
