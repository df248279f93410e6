#!/usr/bin/env node
// The `workload-map` command line: validate definitions, describe workloads from manifests,
// list the embedded catalog. All logic lives in the package (the wasm core); this file reads
// files, parses arguments and formats output. Errors are messages, never stack traces.
//
// Exit codes: 0 ok; 1 invalid definition / the view has errors; 2 usage error or unreadable or
// unparsable input; 4 no definition covers the object's type.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const EXIT_OK = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;
const EXIT_NO_DEFINITION = 4;

/** A problem that ends the command with a message and an exit code. */
class CliError extends Error {
  constructor(message, exitCode = EXIT_USAGE) {
    super(message);
    this.exitCode = exitCode;
  }
}

const HELP = {
  main: `workload-map: read Kubernetes workloads through declarative definitions

Usage:
  workload-map <command> [options]

Commands:
  validate      Check definition files
  describe      Resolve a workload manifest: role tree, phases, resources
  definitions   List the definitions in the embedded catalog
  draft         Draft a starting definition from one object

Options:
  -h, --help     Show help (also after a command: workload-map describe --help)
  -V, --version  Print the version

Exit codes: 0 ok, 1 invalid or the view has errors, 2 usage error or unreadable input,
4 no definition covers the object's type.
`,
  validate: `Check definition files.

Usage:
  workload-map validate FILE... [-o text|json|sarif|github]
  workload-map validate -            (read one definition from standard input)

Prints "OK: FILE ..." or "INVALID: FILE" and one line per problem:
  FILE:LINE:COLUMN: severity code: message

Options:
  -o, --output FORMAT  text (default), json, sarif (SARIF 2.1.0) or github (workflow annotations)
  -h, --help           Show this help

Exit codes: 0 all valid, 1 some definition is invalid, 2 a file is unreadable or not YAML/JSON.
`,
  describe: `Resolve workload manifests into a role tree, phases and resource totals.

Usage:
  workload-map describe -f FILE|- [--definition FILE] [-o text|json|yaml]

Every object in FILE is described in turn (multi-document YAML and "kind: List" included).
Without --definition, the embedded catalog is searched by apiVersion and kind (the same group
and kind at another version is used as a fallback, and the output says so).

Options:
  -f, --file FILE        The manifest ("-" reads standard input)
  -d, --definition FILE  Use this definition instead of the catalog
  -o, --output FORMAT    text (default), json or yaml: exactly the view (a JSON array or YAML
                         documents when FILE holds several objects)
  -h, --help             Show this help

Exit codes: 0 ok, 1 a view has error diagnostics, 2 usage error or unreadable/unparsable input,
4 no definition covers an object's type.
`,
  draft: `Draft a starting definition from one workload object.

Usage:
  workload-map draft -f FILE|-

Reads one object (any type, YAML or JSON) and prints a commented definition: pod templates
found wherever they live become components (lists and maps of role specs become instances),
replica counts come from the fields next to them, and the status definition from what the
object's status shows. Every guess has a comment saying what it saw. Problems go to stderr.

Options:
  -f, --file FILE  The object ("-" reads standard input); the first object when FILE holds several
  -h, --help       Show this help

Exit codes: 0 drafted, 2 usage error or unreadable/unparsable input.
`,
  definitions: `List the definitions in the embedded catalog.

Usage:
  workload-map definitions [NAME] [-o text|json|yaml]

Without NAME: one row per definition (name, apiVersion, kind, components).
With NAME: that definition (text and yaml print its YAML, ready for "workload-map validate -").

Options:
  -o, --output FORMAT  text (default), json or yaml
  -h, --help           Show this help
`,
};

async function loadApi() {
  try {
    return await import('workload-map');
  } catch (error) {
    if (error && (error.code === 'ERR_MODULE_NOT_FOUND' || error.code === 'MODULE_NOT_FOUND')) {
      throw new CliError('the package is not built (pkg/ is missing): run `npm run build`');
    }
    throw error;
  }
}

function readInput(file) {
  try {
    return file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${displayName(file)}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
}

function displayName(file) {
  return file === '-' ? 'stdin' : file;
}

function parse(args, options, command) {
  try {
    return parseArgs({ args, options: { help: { type: 'boolean', short: 'h' }, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${error.message}\nRun "workload-map ${command} --help" for usage.`);
  }
}

function outputFormat(value, allowed, command) {
  const format = value ?? 'text';
  if (!allowed.includes(format)) {
    throw new CliError(`unknown output format "${format}" for ${command}: use ${allowed.join(', ')}`);
  }
  return format;
}

// --- YAML output ----------------------------------------------------------------------------

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

function yamlScalar(value) {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
  return String(value);
}

function yamlKey(key) {
  return PLAIN.test(key) && !RESERVED.test(key) ? key : JSON.stringify(key);
}

function isCollection(value) {
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

/** YAML for a JSON value (block style; strings that need it are JSON-quoted). */
function toYaml(value, indent = '') {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value
      .map((item) => {
        if (!isCollection(item)) return `${indent}- ${yamlValue(item)}`;
        const body = toYaml(item, `${indent}  `);
        return `${indent}- ${body.slice(indent.length + 2)}`;
      })
      .join('\n');
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return '{}';
    return keys
      .map((key) => {
        const item = value[key];
        if (!isCollection(item)) return `${indent}${yamlKey(key)}: ${yamlValue(item)}`;
        return `${indent}${yamlKey(key)}:\n${toYaml(item, `${indent}  `)}`;
      })
      .join('\n');
  }
  return yamlScalar(value);
}

function yamlValue(value) {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : toYaml(value);
  if (value !== null && typeof value === 'object') return '{}';
  return yamlScalar(value);
}

// --- tables and trees -----------------------------------------------------------------------

/** Left-aligned columns separated by three spaces, trailing spaces trimmed. */
function table(rows) {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] + 3))).join('').trimEnd());
}

function treeNodes(component) {
  const instances = component.instances;
  if (instances.length === 1 && instances[0].id === null) return instances[0].children.map(componentNode);
  return instances.map((instance) => ({
    label: instance.id ?? '(instance)',
    replicas: instance.replicas.desired,
    gpus: instance.resources.gpus,
    children: instance.children.map(componentNode),
  }));
}

function componentNode(component) {
  return { label: component.name, replicas: component.replicas.desired, gpus: component.resources.gpus, children: treeNodes(component) };
}

function treeRows(node, prefix, childPrefix, rows) {
  rows.push([`${prefix}${node.label}`, `replicas: ${node.replicas}`, node.gpus ? `gpu: ${node.gpus}` : '']);
  node.children.forEach((child, i) => {
    const last = i === node.children.length - 1;
    treeRows(child, `${childPrefix}${last ? '`-- ' : '|-- '}`, `${childPrefix}${last ? '    ' : '|   '}`, rows);
  });
}

/**
 * One Resources row per instance that runs pods: its own per-pod request times its pods. A
 * logical group (no kind, no pod spec) with N replicas stands for N copies of its children (the
 * tree shows them per group), so rows below it count N times as many pods.
 */
function resourceRows(component, rows, copies = 1) {
  const multi = !(component.instances.length === 1 && component.instances[0].id === null);
  const logicalGroup = component.kind === null && !component.hasPodSpec;
  for (const instance of component.instances) {
    const pod = instance.podResources;
    if (pod) {
      const n = instance.replicas.desired * copies;
      rows.push({
        name: multi ? `${component.name}[${instance.id ?? ''}]` : component.name,
        replicas: n,
        gpus: pod.gpus * n,
        cpuMillis: pod.cpuMillis * n,
        memoryBytes: pod.memoryBytes * n,
      });
    }
    const childCopies = logicalGroup ? copies * instance.replicas.desired : copies;
    for (const child of instance.children) resourceRows(child, rows, childCopies);
  }
}

function formatLocation(diagnostic) {
  return diagnostic.line ? `${diagnostic.source}:${diagnostic.line}:${diagnostic.column}: ` : '';
}

function describeText(api, view, origin) {
  const header = [
    `${view.kind}/${view.name || '<unnamed>'}`,
    `namespace: ${view.namespace || '<none>'}`,
    `definition: ${view.definition.name || '<unnamed>'} (${origin.label})`,
  ];
  const lines = [header.join('   ')];
  if (origin.note) lines.push(`(${origin.note})`);
  lines.push('');
  if (view.root) {
    const rows = [];
    treeRows(componentNode(view.root), '', '', rows);
    lines.push(...table(rows));
    lines.push('');
  }
  lines.push(`Phase: ${view.phases.join(',')}`, '', 'Resources:');
  const rows = [];
  if (view.root) resourceRows(view.root, rows);
  const cells = [['COMPONENT', 'REPLICAS', 'GPU', 'CPU', 'MEMORY']];
  for (const row of rows) cells.push([row.name, String(row.replicas), String(row.gpus), api.formatCpu(row.cpuMillis), api.formatMemory(row.memoryBytes)]);
  const total = view.resources;
  const replicas = rows.reduce((sum, row) => sum + row.replicas, 0);
  cells.push(['TOTAL', String(replicas), String(total.gpus), api.formatCpu(total.cpuMillis), api.formatMemory(total.memoryBytes)]);
  lines.push(...table(cells));
  if (total.incomplete) lines.push('(some amounts cannot be known from the spec, e.g. devices requested through resourceClaims)');
  if (view.diagnostics.length > 0) {
    lines.push('', 'Diagnostics:');
    for (const d of view.diagnostics) {
      lines.push(`  ${formatLocation(d)}${d.severity} ${d.code}: ${d.message}${d.path ? ` (at ${d.path})` : ''}`);
    }
  }
  return lines.join('\n');
}

// --- commands -------------------------------------------------------------------------------

function githubEscape(text, property = false) {
  let out = String(text).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
  if (property) out = out.replaceAll(':', '%3A').replaceAll(',', '%2C');
  return out;
}

function sarif(results, version) {
  const rules = new Map();
  const sarifResults = [];
  for (const result of results) {
    for (const d of result.diagnostics) {
      if (!rules.has(d.code)) rules.set(d.code, { id: d.code, shortDescription: { text: d.code } });
      const region = d.line ? { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn } : undefined;
      sarifResults.push({
        ruleId: d.code,
        level: d.severity === 'info' ? 'note' : d.severity,
        message: { text: d.help ? `${d.message}\n${d.help}` : d.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: result.file }, ...(region ? { region } : {}) } }],
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'workload-map', version, informationUri: 'https://www.npmjs.com/package/workload-map', rules: [...rules.values()] } }, results: sarifResults }],
  };
}

function gvkText(gvk) {
  if (!gvk) return 'unknown';
  return `${gvk.group ? `${gvk.group}/` : ''}${gvk.version}, Kind=${gvk.kind}`;
}

async function validateCommand(args) {
  const { values, positionals } = parse(args, { output: { type: 'string', short: 'o' } }, 'validate');
  if (values.help) return print(HELP.validate, EXIT_OK);
  const format = outputFormat(values.output, ['text', 'json', 'sarif', 'github'], 'validate');
  if (positionals.length === 0) throw new CliError('validate needs at least one FILE (or - for standard input)\nRun "workload-map validate --help" for usage.');
  const api = await loadApi();
  const results = [];
  let exitCode = EXIT_OK;
  for (const file of positionals) {
    const name = displayName(file);
    let text;
    try {
      text = readInput(file);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      results.push({ file: name, valid: false, readable: false, error: error.message, diagnostics: [] });
      exitCode = EXIT_USAGE;
      continue;
    }
    const definition = new api.Definition(text);
    const diagnostics = definition.diagnostics;
    const result = { file: name, valid: definition.valid, readable: true, name: definition.name ?? null, gvk: definition.gvk, diagnostics };
    definition.free();
    results.push(result);
    if (diagnostics.some((d) => d.code.startsWith('syntax/') && d.severity === 'error')) exitCode = EXIT_USAGE;
    else if (!result.valid && exitCode === EXIT_OK) exitCode = EXIT_INVALID;
  }

  if (format === 'json') {
    print(JSON.stringify({ valid: exitCode === EXIT_OK, results }, null, 2));
  } else if (format === 'sarif') {
    print(JSON.stringify(sarif(results, api.version), null, 2));
  } else if (format === 'github') {
    for (const result of results) {
      if (!result.readable) print(`::error file=${githubEscape(result.file, true)},title=unreadable::${githubEscape(result.error)}`);
      for (const d of result.diagnostics) {
        const command = d.severity === 'info' ? 'notice' : d.severity;
        const position = d.line ? `,line=${d.line},col=${d.column},endLine=${d.endLine},endColumn=${d.endColumn}` : '';
        print(`::${command} file=${githubEscape(result.file, true)}${position},title=${githubEscape(d.code, true)}::${githubEscape(d.message)}`);
      }
    }
  } else {
    for (const result of results) {
      if (!result.readable) {
        printError(`error: ${result.error}`);
        continue;
      }
      print(result.valid ? `OK: ${result.file} is a valid definition${result.name ? ` ${result.name}` : ''} (GVK: ${gvkText(result.gvk)})` : `INVALID: ${result.file}`);
      for (const d of result.diagnostics) {
        const where = d.line ? `${result.file}:${d.line}:${d.column}` : result.file;
        print(`  ${where}: ${d.severity} ${d.code}: ${d.message}`);
      }
    }
  }
  return exitCode;
}

function findDefinition(api, object) {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const kind = typeof object.kind === 'string' ? object.kind : '';
  const found = apiVersion && kind ? api.catalog.find(apiVersion, kind) : null;
  if (!found) return null;
  const note = found.exactVersion ? undefined : `no catalog definition for ${apiVersion}; using the one written for ${found.apiVersion}`;
  return { definition: new api.Definition(found.text), origin: { label: 'catalog', note } };
}

async function describeCommand(args) {
  const { values, positionals } = parse(
    args,
    { file: { type: 'string', short: 'f' }, definition: { type: 'string', short: 'd' }, output: { type: 'string', short: 'o' } },
    'describe',
  );
  if (values.help) return print(HELP.describe, EXIT_OK);
  const format = outputFormat(values.output, ['text', 'json', 'yaml'], 'describe');
  if (positionals.length > 0) throw new CliError(`describe reads manifests from -f FILE, not from arguments ("${positionals[0]}")\nRun "workload-map describe --help" for usage.`);
  if (!values.file) throw new CliError('describe needs -f FILE (or -f - for standard input)\nRun "workload-map describe --help" for usage.');
  const api = await loadApi();
  const file = displayName(values.file);
  const parsed = api.parseObjects(readInput(values.file));
  const problem = parsed.diagnostics.find((d) => d.severity === 'error');
  if (problem) throw new CliError(`${file}${problem.line ? `:${problem.line}:${problem.column}` : ''}: ${problem.message}`);
  if (parsed.objects.length === 0) throw new CliError(`${file} holds no object`);

  let given = null;
  if (values.definition) {
    const text = readInput(values.definition);
    const definition = new api.Definition(text);
    const syntax = definition.diagnostics.find((d) => d.code.startsWith('syntax/') && d.severity === 'error');
    if (syntax) throw new CliError(`${displayName(values.definition)}:${syntax.line ?? 1}:${syntax.column ?? 1}: ${syntax.message}`);
    given = { definition, origin: { label: displayName(values.definition) } };
  }

  let exitCode = EXIT_OK;
  const views = [];
  const texts = [];
  for (const object of parsed.objects) {
    const chosen = given ?? findDefinition(api, object);
    if (!chosen) {
      const type = `${object.kind ?? '<no kind>'} (${object.apiVersion ?? '<no apiVersion>'})`;
      const name = object.metadata?.name ?? '<unnamed>';
      printError(`error: no definition covers ${type} for ${name}; "workload-map definitions" lists what is available, or pass --definition FILE`);
      if (format !== 'text') {
        views.push({ error: 'no_definition_for_type', apiVersion: object.apiVersion ?? null, kind: object.kind ?? null, message: 'no definition covers this workload type', hint: '"workload-map definitions" lists the available definitions' });
      }
      exitCode = EXIT_NO_DEFINITION;
      continue;
    }
    const view = chosen.definition.resolve(object);
    if (chosen !== given) chosen.definition.free();
    if (view.diagnostics.some((d) => d.severity === 'error') && exitCode === EXIT_OK) exitCode = EXIT_INVALID;
    if (format === 'text') texts.push(describeText(api, view, chosen.origin));
    else views.push(view);
  }
  if (given) given.definition.free();

  if (format === 'text') {
    if (texts.length > 0) print(texts.join('\n\n'));
  } else if (format === 'json') {
    print(JSON.stringify(views.length === 1 ? views[0] : views, null, 2));
  } else {
    print(views.map((view) => toYaml(view)).join('\n---\n'));
  }
  return exitCode;
}

async function draftCommand(args) {
  const { values, positionals } = parse(args, { file: { type: 'string', short: 'f' } }, 'draft');
  if (values.help) return print(HELP.draft, EXIT_OK);
  if (positionals.length > 0) throw new CliError(`draft reads the object from -f FILE, not from arguments ("${positionals[0]}")\nRun "workload-map draft --help" for usage.`);
  if (!values.file) throw new CliError('draft needs -f FILE (or -f - for standard input)\nRun "workload-map draft --help" for usage.');
  const api = await loadApi();
  if (typeof api.draft !== 'function') throw new CliError('this build of the package has no draft(): run `npm run build`');
  const file = displayName(values.file);
  const parsed = api.parseObjects(readInput(values.file));
  const problem = parsed.diagnostics.find((d) => d.severity === 'error');
  if (problem) throw new CliError(`${file}${problem.line ? `:${problem.line}:${problem.column}` : ''}: ${problem.message}`);
  if (parsed.objects.length === 0) throw new CliError(`${file} holds no object`);
  if (parsed.objects.length > 1) printError(`note: ${file} holds ${parsed.objects.length} objects; drafting from the first`);
  const result = api.draft(parsed.objects[0]);
  for (const d of result.diagnostics) {
    const where = d.source === 'object' ? file : 'draft';
    printError(`${where}${d.line ? `:${d.line}:${d.column}` : ''}: ${d.severity} ${d.code}: ${d.message}`);
  }
  return print(result.text, EXIT_OK);
}

async function definitionsCommand(args) {
  const { values, positionals } = parse(args, { output: { type: 'string', short: 'o' } }, 'definitions');
  if (values.help) return print(HELP.definitions, EXIT_OK);
  const format = outputFormat(values.output, ['text', 'json', 'yaml'], 'definitions');
  if (positionals.length > 1) throw new CliError('definitions takes at most one NAME');
  const api = await loadApi();
  if (positionals.length === 1) {
    const entry = api.catalog.get(positionals[0]);
    if (!entry) throw new CliError(`no definition named "${positionals[0]}". Run "workload-map definitions" to see what is available`);
    if (format === 'json') print(JSON.stringify(entry, null, 2));
    else print(entry.text.trimEnd());
    return EXIT_OK;
  }
  const entries = api.catalog.list();
  if (format === 'json') return print(JSON.stringify({ items: entries, count: entries.length }, null, 2), EXIT_OK);
  if (format === 'yaml') return print(toYaml({ items: entries, count: entries.length }), EXIT_OK);
  if (entries.length === 0) return print('No definitions in the catalog.', EXIT_OK);
  const rows = [['NAME', 'APIVERSION', 'KIND', 'COMPONENTS']];
  for (const e of entries) rows.push([e.name, e.apiVersion, e.kind || '<none>', e.components.join(', ')]);
  print(table(rows).join('\n'));
  return EXIT_OK;
}

function print(text, exitCode) {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return exitCode;
}

function printError(text) {
  process.stderr.write(`${text}\n`);
}

const COMMANDS = { validate: validateCommand, describe: describeCommand, definitions: definitionsCommand };
COMMANDS.draft = draftCommand;

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    if (command === 'help' && rest[0] && HELP[rest[0]]) return print(HELP[rest[0]], EXIT_OK);
    return print(HELP.main, command === undefined ? EXIT_USAGE : EXIT_OK);
  }
  if (command === '-V' || command === '--version') {
    const api = await loadApi();
    return print(`workload-map ${api.version}`, EXIT_OK);
  }
  const run = COMMANDS[command];
  if (!run) {
    const close = Object.keys(COMMANDS).find((name) => name.startsWith(command.slice(0, 3)));
    throw new CliError(`unknown command "${command}"${close ? `; did you mean "${close}"?` : ''}\nRun "workload-map --help" for usage.`);
  }
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code ?? EXIT_OK;
  },
  (error) => {
    if (error instanceof CliError) {
      printError(`workload-map: ${error.message}`);
      process.exitCode = error.exitCode;
    } else {
      // A bug, not a user error: still no stack trace, but say what happened.
      printError(`workload-map: internal error: ${error && error.message ? error.message : String(error)}`);
      process.exitCode = EXIT_INVALID;
    }
  },
);
