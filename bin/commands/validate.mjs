// `workload-map validate`: check definition files, folders, glob patterns and streams of
// definitions, for people (text), scripts (json) and CI (sarif, github annotations).

import { codeQualityReport } from '../code-quality.mjs';
import { loadApi, outputFormat, parse, print, printError } from '../command.mjs';
import { splitDocuments } from '../documents.mjs';
import { CliError, EXIT_INVALID, EXIT_OK, EXIT_USAGE } from '../errors.mjs';
import { displayName, expandPaths, readInput } from '../inputs.mjs';
import { sarifLog } from '../sarif.mjs';
import { readSchemas } from '../schemas.mjs';
import { colourEnabled, escapeStrings, palette } from '../terminal.mjs';

const FORMATS = ['text', 'json', 'sarif', 'github', 'codequality'];

export const VALIDATE_OPTIONS = {
  output: { type: 'string', short: 'o', values: FORMATS, description: 'Output format' },
  strict: { type: 'boolean', description: 'Warnings fail too (exit 1)' },
  quiet: { type: 'boolean', short: 'q', description: 'Print problems only' },
  summary: { type: 'boolean', description: 'End with one summary line' },
  crd: {
    type: 'string',
    multiple: true,
    valueName: 'FILE',
    description: 'Check paths against the API schema: a CRD or OpenAPI v3 file (.gz too), a folder, or -; repeatable',
  },
  'all-versions': { type: 'boolean', description: "With --crd: check against every version of the type, not only the definition's" },
};

export const VALIDATE_HELP = `Check definition files.

Usage:
  workload-map validate PATH... [-o text|json|sarif|github|codequality] [--strict] [--quiet]
                        [--summary] [--crd FILE|DIR|-]... [--all-versions]
  workload-map validate -            (read definitions from standard input)

PATH is a file, a folder (every *.yaml, *.yml and *.json file below it; folders whose name
starts with a dot, like .git, are not searched) or a quoted glob pattern
('definitions/**/*.yaml': * and ? within a name, [abc], {a,b}, ** for any folders).
Every document of a multi-document file ("---" separated) is checked on its own, and each
problem is located in the file.

Prints "OK: FILE ..." or "INVALID: FILE" and one line per problem, with its hint:
  FILE:LINE:COLUMN: severity code: message
    help: did you mean "replicasPath"?

Options:
  -o, --output FORMAT  text (default), json, sarif (SARIF 2.1.0, e.g. for GitHub code scanning),
                       github (workflow annotations) or codequality (a GitLab code quality
                       report)
      --strict         Warnings fail too: a definition with a warning is invalid (exit 1)
  -q, --quiet          Print problems only (no OK lines, no info notes)
      --summary        End with "N files, N valid, N errors, N warnings" (on stderr for the
                       other formats than text, so that stdout stays machine-readable)
      --crd FILE       Also check every path the definition reads or writes against the API
                       schema of its type: CustomResourceDefinitions (one or a multi-document
                       bundle) or Kubernetes OpenAPI v3 documents (components.schemas), YAML or
                       JSON, gzip-compressed (.gz) or not; a folder (every *.yaml, *.yml, *.json
                       and *.gz below it) or - (standard input). Repeatable. The schema is picked
                       by the definition's group, kind and version; pod selector paths are
                       checked against a Pod schema when one is given (the core v1 document).
      --all-versions   With --crd: check against every version (and every file) holding the
                       type, saying which fields exist in which: what breaks on an upgrade
  -h, --help           Show this help

-o json prints {valid, strict, summary, results}: one result per definition (file, document
and startLine when the file holds several, valid, name, gvk, diagnostics; with --crd also
schemas: the versions it was checked against, and paths: the fields present in some of them
only) or per file that could not be read (readable: false, error).

Colour: on a terminal; NO_COLOR=1 turns it off, FORCE_COLOR=1 on (e.g. in CI logs).

Exit codes: 0 all valid, 1 some definition is invalid (or has a warning, with --strict),
2 a file is unreadable or not YAML/JSON, or a folder or pattern names no file.
`;

export async function validateCommand(args) {
  const { values, positionals } = parse(args, VALIDATE_OPTIONS, 'validate');
  if (values.help) return print(VALIDATE_HELP, EXIT_OK);
  const format = outputFormat(values.output, FORMATS, 'validate');
  if (positionals.length === 0)
    throw new CliError('validate needs at least one FILE, folder or pattern (or - for standard input)\nRun "workload-map validate --help" for usage.');
  const api = await loadApi();
  const strict = Boolean(values.strict);

  const { files, problems } = expandPaths(positionals);
  const results = problems.map((problem) => unreadable(problem.file, new CliError(problem.message)));
  if (values.crd?.includes('-') && files.includes('-')) throw new CliError('standard input (-) can hold the definitions or the --crd schemas, not both');
  const schemas = values.crd ? readSchemas(values.crd, (name, error) => results.push(unreadable(name, error))) : null;
  if (schemas) {
    // Schema texts that cannot be read are reported once, as unreadable files.
    const probe = api.checkDefinition('{}', schemas);
    for (const d of probe.diagnostics.filter((d) => d.source === 'schema')) {
      const name = schemas.find((s) => d.message.startsWith(`${s.name}: `))?.name ?? 'schema';
      results.push(unreadable(name, new CliError(d.message)));
    }
  }
  const options = { allVersions: Boolean(values['all-versions']) };
  for (const file of files) {
    let text;
    try {
      text = readInput(file);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      results.push(unreadable(displayName(file), error));
      continue;
    }
    const documents = splitDocuments(text);
    for (const document of documents) results.push(check(api, displayName(file), document, documents.length, strict, schemas, options));
  }

  const exitCode = results.some((r) => !r.readable || r.diagnostics.some(isSyntaxError)) ? EXIT_USAGE : results.some((r) => !r.valid) ? EXIT_INVALID : EXIT_OK;
  const summary = summarise(results);
  const colour = palette(format === 'text' && colourEnabled(process.stdout));
  if (format === 'json') print(JSON.stringify({ valid: exitCode === EXIT_OK, strict, summary, results }, null, 2));
  else if (format === 'sarif') print(JSON.stringify(sarifLog(results, { version: api.version }), null, 2));
  else if (format === 'github') printGithub(results, values.quiet);
  else if (format === 'codequality') print(JSON.stringify(codeQualityReport(results), null, 2));
  else printText(results, { quiet: values.quiet, strict, colour });
  if (values.summary) {
    const line = summaryLine(summary, colour);
    if (format === 'text') print(line);
    else printError(line);
  }
  return exitCode;
}

/** Checks one document of a file (and, with schemas, its paths against them). */
function check(api, file, document, documents, strict, schemas, options) {
  const definition = new api.Definition(document.text);
  const diagnostics = definition.diagnostics;
  let schemaValid = true;
  let against = null;
  if (schemas && !diagnostics.some(isSyntaxError)) {
    const checked = api.checkDefinition(document.text, schemas, options);
    const found = checked.diagnostics.filter((d) => d.source !== 'schema');
    diagnostics.push(...found);
    diagnostics.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
    schemaValid = !found.some((d) => d.severity === 'error');
    against = { schemas: checked.checked, paths: checked.paths };
  }
  const warnings = diagnostics.some((d) => d.severity === 'warning');
  const result = {
    file,
    ...(documents > 1 ? { document: document.index + 1, startLine: document.line } : {}),
    valid: definition.valid && schemaValid && !(strict && warnings),
    readable: true,
    name: definition.name ?? null,
    gvk: definition.gvk,
    diagnostics,
    ...(against ?? {}),
  };
  definition.free();
  return result;
}

/**
 * A file that could not be read (a result with `readable: false`).
 *
 * @param {string} file
 * @param {CliError} error
 * @returns {{file: string, valid: boolean, readable: boolean, error?: string, line?: number, column?: number, diagnostics: import('workload-map').Diagnostic[], [field: string]: unknown}}
 */
function unreadable(file, error) {
  const position = error.line ? { line: error.line, column: error.column } : {};
  return { file, valid: false, readable: false, error: error.message, ...position, diagnostics: [] };
}

function isSyntaxError(d) {
  return d.code.startsWith('syntax/') && d.severity === 'error';
}

function summarise(results) {
  const readable = results.filter((r) => r.readable);
  const count = (severity) => readable.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === severity).length, 0);
  return {
    files: new Set(results.map((r) => r.file)).size,
    readableFiles: new Set(readable.map((r) => r.file)).size,
    definitions: readable.length,
    valid: readable.filter((r) => r.valid).length,
    // A file that cannot be read is an error too.
    errors: count('error') + (results.length - readable.length),
    warnings: count('warning'),
  };
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function summaryLine(s, colour) {
  // The definitions are counted apart when some file holds several.
  const files = s.definitions === s.readableFiles ? plural(s.files, 'file') : `${plural(s.files, 'file')} (${plural(s.definitions, 'definition')})`;
  const errors = plural(s.errors, 'error');
  const warnings = plural(s.warnings, 'warning');
  return `Summary: ${files}, ${s.valid} valid, ${s.errors ? colour.red(errors) : errors}, ${s.warnings ? colour.yellow(warnings) : warnings}`;
}

function gvkText(gvk) {
  if (!gvk) return 'unknown';
  return `${gvk.group ? `${gvk.group}/` : ''}${gvk.version}, Kind=${gvk.kind}`;
}

function printText(results, { quiet, strict, colour }) {
  // File names, definition names, field names in messages: input, shown with their control
  // characters escaped (colour is added around the escaped text).
  for (const result of escapeStrings(results)) {
    if (!result.readable) {
      printError(`error: ${result.error}`);
      continue;
    }
    const where = result.document ? `${result.file} (document ${result.document})` : result.file;
    const shown = quiet ? result.diagnostics.filter((d) => d.severity !== 'info') : result.diagnostics;
    if (!quiet) {
      if (result.valid) {
        const against = result.schemas?.length ? `, checked against ${result.schemas.map((s) => `${s.version} of ${s.source}`).join(', ')}` : '';
        print(`${colour.green('OK')}: ${where} is a valid definition${result.name ? ` ${result.name}` : ''} (GVK: ${gvkText(result.gvk)})${against}`);
      } else {
        const why = strict && !result.diagnostics.some((d) => d.severity === 'error') ? ' (warnings fail under --strict)' : '';
        print(`${colour.bold(colour.red('INVALID'))}: ${where}${why}`);
      }
    }
    for (const d of shown) {
      const at = d.line ? `${result.file}:${d.line}:${d.column}` : result.file;
      print(`${quiet ? '' : '  '}${at}: ${colour.severity(d.severity)} ${d.code}: ${d.message}`);
      if (d.help) print(`${quiet ? '  ' : '    '}${colour.dim('help:')} ${d.help}`);
    }
    if (!quiet && result.paths?.length) {
      print(`  fields in some versions only:`);
      for (const p of result.paths)
        print(`    ${p.field}: in ${p.present.join(', ')}; not in ${p.missing.join(', ')}${p.line ? ` (${result.file}:${p.line}:${p.column})` : ''}`);
    }
  }
}

function githubEscape(text, property = false) {
  let out = String(text).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
  if (property) out = out.replaceAll(':', '%3A').replaceAll(',', '%2C');
  return out;
}

function printGithub(results, quiet) {
  for (const result of results) {
    const file = githubEscape(result.file, true);
    if (!result.readable) {
      const at = result.line ? `,line=${result.line},col=${result.column}` : '';
      print(`::error file=${file}${at},title=unreadable::${githubEscape(result.error)}`);
      continue;
    }
    for (const d of result.diagnostics) {
      if (quiet && d.severity === 'info') continue;
      const command = d.severity === 'info' ? 'notice' : d.severity;
      const position = d.line ? `,line=${d.line},col=${d.column},endLine=${d.endLine},endColumn=${d.endColumn}` : '';
      const message = d.help ? `${d.message}\nhelp: ${d.help}` : d.message;
      print(`::${command} file=${file}${position},title=${githubEscape(d.code, true)}::${githubEscape(message)}`);
    }
  }
}
