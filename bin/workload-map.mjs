#!/usr/bin/env node
// The `workload-map` command line: validate definitions, describe workloads from manifests,
// list the embedded catalog. All logic lives in the package (the wasm core); this file reads
// files, parses arguments and formats output. Errors are messages, never stack traces.
//
// Exit codes: 0 ok; 1 invalid definition / the view has errors; 2 usage error or unreadable or
// unparsable input; 4 no definition covers the object's type.

import { readFileSync } from 'node:fs';

import { CatalogDefinitions } from './catalog-definitions.mjs';
import { exitQuietlyWhenOutputCloses, loadApi, outputFormat, parse, print, printError } from './command.mjs';
import { completionScript, SHELLS } from './completion.mjs';
import { CliError, EXIT_INVALID, EXIT_NO_DEFINITION, EXIT_OK, EXIT_USAGE } from './errors.mjs';
import { splitDocuments } from './documents.mjs';
import { resourceCells } from './resource-table.mjs';
import { decodeText, displayName, expandPaths, readInput } from './inputs.mjs';
import { colourEnabled, escapeStrings, escapeTerminal, palette } from './terminal.mjs';
import { VALIDATE_HELP, VALIDATE_OPTIONS, validateCommand } from './validate-command.mjs';
import { draftFromSchemaCommand } from './draft-schema.mjs';
import { TEST_HELP, TEST_OPTIONS, testCommand } from './test-command.mjs';

const HELP = {
  main: `workload-map: read Kubernetes workloads through declarative definitions

Usage:
  workload-map <command> [options]

Commands:
  validate      Check definition files
  describe      Resolve a workload manifest: role tree, phases, resources
  definitions   List the definitions in the embedded catalog
  suspend       Suspend a workload through its definition's suspendActions (a JSON Patch)
  resume        Resume a workload through its definition's resumeActions (a JSON Patch)
  edit          Merge-patch one component's pod spec through the definition's paths
  draft         Draft a starting definition from one object
  version       Print the versions of the package, the engine and its catalog
  completion    Print a completion script for bash, zsh or fish
  test          Run definition test folders (definition.yaml + tests/*.yaml)

Options:
  -h, --help     Show help (also after a command: workload-map describe --help)
  -V, --version  Print the versions (as the version command)

Colour: on a terminal; NO_COLOR=1 turns it off, FORCE_COLOR=1 on (e.g. in CI logs).

Exit codes: 0 ok, 1 invalid or the view has errors, 2 usage error or unreadable input,
4 no definition covers the object's type.
`,
  describe: `Resolve workload manifests into a role tree, phases and resource totals.

Usage:
  workload-map describe -f FILE|- [-f FILE...] [--definition FILE] [-o text|wide|json|yaml]
                        [--pod-limit N] [--no-headers]

Every workload in FILE is described in turn (multi-document YAML and "kind: List" included);
-f may be given several times, and the objects of every file are read together (a JobSet in
one file, its pods in another).
Without --definition, the embedded catalog is searched by apiVersion and kind (the same group
and kind at another version is used as a fallback, and the output says so).

FILE may also hold the objects a workload owns, as "kubectl get jobset,jobs,pods -o yaml"
returns them. A workload is an object whose controller owner chain reaches no other object of
the input (an owner missing from the input never hides an object); a pod or object belongs to
the workload its controller chain reaches, never by its labels. Each workload's pods are listed
under their role with their phase and node, and each role shows READY/DESIRED. Objects that
belong to no workload are named on standard error with the reason (their owner is not in the
input, or their owners form a cycle).

Options:
  -f, --file FILE        A manifest ("-" reads standard input), a folder (its *.yaml, *.yml
                         and *.json files) or a quoted glob; repeat for several
  -d, --definition FILE  Use this definition instead of the catalog; its problems are located
                         as FILE:LINE:COLUMN. A "---" stream of definitions: each object uses
                         the one written for its apiVersion and kind
  -o, --output FORMAT    text (default); wide: text with PODS (ready/current) and NODES
                         columns in the Resources table when pods are given; json or yaml:
                         exactly the view (several: a "kind: List" of views, as kubectl get
                         prints several objects); name: kind.group/name, one per line
      --pod-limit N      Show at most N pods per role, unhealthy first (0, the default: all)
      --no-headers       Leave out the header rows of the tables
  -h, --help             Show this help

Exit codes: 0 ok (also when some workloads of a List have no definition: they are named on
standard error and left out), 1 a view has error diagnostics or objects name each other as
owners, 2 usage error or unreadable/unparsable input, 4 no definition covers any workload.
`,
  draft: `Draft a starting definition from one workload object, or from the type's API schema.

Usage:
  workload-map draft -f FILE|-
  workload-map draft --crd FILE|DIR|- [--kind KIND] [--version V] [-f FILE]

Reads one object (any type, YAML or JSON) and prints a commented definition: pod templates
found wherever they live become components (lists and maps of role specs become instances),
replica counts come from the fields next to them, and the status definition from what the
object's status shows. Every guess has a comment saying what it saw. Problems go to stderr.

With --crd, the draft comes from the schema alone (a CustomResourceDefinition or a Kubernetes
OpenAPI v3 document, .gz too): every pod template it describes becomes a component, lists and
maps of them instances (ids from name or the map key), integer replica fields beside a template
the replica paths, documented condition types condition matchers, a spec.suspend boolean
suspend and resume actions. With -f too, the object's values are laid over the schema's.

Options:
  -f, --file FILE    The object ("-" reads standard input); the first object when FILE holds several
      --crd FILE     The API schema: a file, a folder or -; repeatable
      --kind KIND    With --crd: the type to draft when the schemas describe several
      --version V    With --crd: the version (default: the storage version)
  -h, --help         Show this help

Exit codes: 0 drafted, 2 usage error or unreadable/unparsable input.
`,
  definitions: `List the definitions in the embedded catalog.

Usage:
  workload-map definitions [NAME] [-o text|json|yaml] [--no-headers]

Without NAME: one row per definition (name, apiVersion, kind, components).
With NAME: that definition (text and yaml print its YAML, ready for "workload-map validate -").

Options:
  -o, --output FORMAT  text (default), json or yaml
      --no-headers     Leave out the header row of the table
  -h, --help           Show this help
`,
  version: `Print the versions of the package, the engine and its catalog.

Usage:
  workload-map version [-o text|json]
  workload-map --version

The catalog is built into the engine: its version is the engine's, and the line says how many
definitions it holds.

Options:
  -o, --output FORMAT  text (default) or json
  -h, --help           Show this help
`,
  completion: `Print a shell completion script.

Usage:
  workload-map completion bash|zsh|fish

  bash:  eval "$(workload-map completion bash)"                 (in ~/.bashrc)
  zsh:   source <(workload-map completion zsh)                  (in ~/.zshrc, after compinit)
  fish:  workload-map completion fish > ~/.config/fish/completions/workload-map.fish

Commands, options and output formats complete; files complete where a command reads them.

Options:
  -h, --help  Show this help
`,
};
HELP.validate = VALIDATE_HELP;

/** The options of each command: what the commands parse and what completion scripts offer. */
const FILE = { type: 'string', valueName: 'FILE' };
const OPTIONS = {
  validate: VALIDATE_OPTIONS,
  describe: {
    file: { ...FILE, short: 'f', multiple: true, description: 'A manifest (- for standard input); repeatable' },
    definition: { ...FILE, short: 'd', description: 'Use this definition instead of the catalog' },
    output: { type: 'string', short: 'o', values: ['text', 'wide', 'json', 'yaml', 'name'], description: 'Output format' },
    'pod-limit': { type: 'string', valueName: 'N', description: 'Show at most N pods per role' },
    'no-headers': { type: 'boolean', description: 'No header rows in the tables' },
  },
  definitions: {
    output: { type: 'string', short: 'o', values: ['text', 'json', 'yaml'], description: 'Output format' },
    'no-headers': { type: 'boolean', description: 'No header row in the table' },
  },
  draft: {
    file: { ...FILE, short: 'f', description: 'The object (- for standard input)' },
    crd: { ...FILE, multiple: true, description: 'Draft from the API schema: a CRD or OpenAPI v3 file (.gz too), a folder, or -' },
    kind: { type: 'string', valueName: 'KIND', description: 'With --crd: the type to draft' },
    version: { type: 'string', valueName: 'V', description: 'With --crd: the version (default: the storage version)' },
  },
  version: { output: { type: 'string', short: 'o', values: ['text', 'json'], description: 'Output format' } },
  completion: {},
};

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

// --- the role tree and the resources table: every number and amount as the view says it --------

function treeNodes(component) {
  const instances = component.instances;
  if (instances.length === 1 && instances[0].id === null) return instances[0].children.map(componentNode);
  return instances.map((instance) => ({
    label: instance.id ?? '(instance)',
    replicas: instance.replicas,
    counted: instance.podCount,
    gpus: instance.resources.text.gpus,
    pods: instance.pods,
    listsPods: component.hasPodSpec,
    children: instance.children.map(componentNode),
  }));
}

function componentNode(component) {
  const single = component.instances.length === 1 && component.instances[0].id === null;
  return {
    label: component.name,
    replicas: component.replicas,
    counted: component.podCount,
    gpus: component.resources.text.gpus,
    pods: component.pods,
    listsPods: component.hasPodSpec && single,
    children: treeNodes(component),
  };
}

/** A pod that needs attention: not ready and not finished successfully. */
function podUnhealthy(pod) {
  return !pod.ready && pod.phase !== 'Succeeded';
}

/** The pods to list under a role (unhealthy first when limited) and the truncation note. */
function shownPods(pods, limit) {
  if (!limit || pods.length <= limit) return { shown: pods, note: null };
  const unhealthy = pods.filter(podUnhealthy);
  const ordered = [...unhealthy, ...pods.filter((p) => !podUnhealthy(p))];
  const shown = ordered.slice(0, limit);
  const shownUnhealthy = shown.filter(podUnhealthy).length;
  let detail = '';
  if (unhealthy.length > 0) detail = shownUnhealthy === unhealthy.length ? ` (${shownUnhealthy} unhealthy shown)` : ` (${shownUnhealthy} of ${unhealthy.length} unhealthy shown)`;
  return { shown, note: `and ${pods.length - limit} more${detail}` };
}

function gpuCell(gpus) {
  return gpus === '0' ? '' : `gpu: ${gpus}`;
}

function treeRows(node, prefix, childPrefix, rows, podLimit) {
  if (!node.pods) {
    rows.push([`${prefix}${node.label}`, `replicas: ${node.replicas.text}`, gpuCell(node.gpus)]);
  } else {
    const nodes = nodesOf(node.pods.items);
    rows.push([`${prefix}${node.label}`, `${node.pods.ready}/${node.counted.text} ready`, gpuCell(node.gpus), nodes.join(',')]);
  }
  const { shown: listed, note } = node.listsPods && node.pods ? shownPods(node.pods.items, podLimit) : { shown: [], note: null };
  const children = [
    ...listed.map((pod) => ({ pod })),
    ...(note ? [{ note }] : []),
    ...node.children.map((child) => ({ child })),
  ];
  children.forEach((entry, i) => {
    const last = i === children.length - 1;
    const branch = `${childPrefix}${last ? '`-- ' : '|-- '}`;
    if (entry.pod) {
      const { pod } = entry;
      const state = pod.reason ? `${pod.phase} (${pod.reason})` : pod.phase;
      rows.push([`${branch}${pod.name}`, state, pod.resources.gpus ? `gpu: ${pod.resources.text.gpus}` : '', pod.node ?? '<none>']);
    } else if (entry.note) {
      rows.push([`${branch}...`, entry.note, '', '']);
    } else {
      treeRows(entry.child, branch, `${childPrefix}${last ? '    ' : '|   '}`, rows, podLimit);
    }
  });
}

/**
 * Where a view's diagnostic is: `FILE:LINE:COLUMN: ` in the definition (`names.definition`: the
 * --definition file, or `catalog:NAME`) or in the manifest (`names.object`).
 */
function formatLocation(diagnostic, names) {
  const name = names[diagnostic.source] ?? diagnostic.source;
  return diagnostic.line ? `${name}:${diagnostic.line}:${diagnostic.column}: ` : '';
}

/** Distinct node names of some pods, sorted. */
function nodesOf(pods) {
  return [...new Set(pods.map((p) => p.node).filter(Boolean))].sort();
}

function describeText(input, given, podLimit = 0, { wide = false, noHeaders = false, objectFile: file, colour = palette(false) } = {}) {
  // Names, ids, reasons and messages come from the input: their control characters are shown
  // escaped, so that they can neither forge a line nor reach the terminal as escape sequences.
  const [view, origin, objectFile] = [escapeStrings(input), escapeStrings(given), file === undefined ? file : escapeTerminal(file)];
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
    treeRows(componentNode(view.root), '', '', rows, podLimit);
    lines.push(...table(rows));
    lines.push('');
  }
  lines.push(`Phase: ${view.phases.join(',')}`, '', 'Resources:');
  const { header: columns, cells } = resourceCells(view, { wide });
  lines.push(...table(noHeaders ? cells : [columns, ...cells]));
  const bounded = view.resources.incomplete || view.table.pods.incomplete || view.table.rows.some((row) => row.pods.incomplete || row.total.incomplete);
  if (bounded) {
    lines.push('("≥ n" is a lower bound and "n/a" an amount that cannot be known: the diagnostics say why)');
  }
  if (view.pods && view.groups.length > 0) {
    lines.push('', 'Gang scheduling:');
    const groupRows = noHeaders ? [] : [['GROUP', 'MIN', 'PODS', 'MEMBERS']];
    for (const g of view.groups) {
      const members = g.subGroups ? g.subGroups.map((s) => `${s.name} (min ${s.minAvailableText})`).join(', ') : g.members.join(', ');
      groupRows.push([g.name, g.minAvailableText, g.pods ? String(g.pods.length) : '-', members]);
    }
    lines.push(...table(groupRows).map((row) => `  ${row}`));
  }
  if (view.diagnostics.length > 0) {
    lines.push('', 'Diagnostics:');
    for (const d of view.diagnostics) {
      const names = { definition: origin.location ?? (origin.name ? `catalog:${origin.name}` : undefined), object: objectFile };
      lines.push(`  ${formatLocation(d, names)}${colour.severity(d.severity)} ${d.code}: ${d.message}${d.path ? ` (at ${d.path})` : ''}`);
      if (d.help) lines.push(`    help: ${d.help}`);
    }
  }
  return lines.join('\n');
}

// --- commands -------------------------------------------------------------------------------

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A manifest value for a message: strings as they are, anything else as JSON (shortened). */
function label(value, missing) {
  if (value === undefined || value === null || value === '') return missing;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return escapeTerminal(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/**
 * The definitions of a --definition FILE: `{ definition, origin }` for its one definition, or
 * for each document of a `---` stream (each object then uses the one written for its type). A
 * document that is not YAML ends the command, located in FILE.
 */
function readDefinitions(api, file) {
  const name = displayName(file);
  const given = [];
  for (const document of splitDocuments(readInput(file))) {
    const definition = new api.Definition(document.text);
    const syntax = definition.diagnostics.find((d) => d.code.startsWith('syntax/') && d.severity === 'error');
    if (syntax) {
      for (const other of [...given.map((g) => g.definition), definition]) other.free();
      throw new CliError(`${name}:${syntax.line ?? document.line}:${syntax.column ?? 1}: ${syntax.message}`);
    }
    given.push({ definition, text: document.text, origin: { label: name, location: name } });
  }
  return given;
}

/** True when a definition's root kind `gvk` is the object's apiVersion and kind. */
function covers(gvk, object) {
  return Boolean(gvk) && object.kind === gvk.kind && object.apiVersion === (gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version);
}

/** The given definition for `object`: the only one, or the one written for its type (or null). */
function givenFor(given, object) {
  if (given.length === 1) return given[0];
  return given.find((g) => covers(g.definition.gvk, object)) ?? null;
}

async function describeCommand(args) {
  const { values, positionals } = parse(args, OPTIONS.describe, 'describe');
  if (values.help) return print(HELP.describe, EXIT_OK);
  const format = outputFormat(values.output, OPTIONS.describe.output.values, 'describe');
  const text = format === 'text' || format === 'wide';
  const textOptions = { text, wide: format === 'wide', noHeaders: Boolean(values['no-headers']), colour: palette(text && colourEnabled(process.stdout)) };
  const podLimit = values['pod-limit'] === undefined ? 0 : Number(values['pod-limit']);
  if (!Number.isInteger(podLimit) || podLimit < 0) throw new CliError(`--pod-limit takes a whole number (0 for all), not "${values['pod-limit']}"`);
  if (positionals.length > 0) throw new CliError(`describe reads manifests from -f FILE, not from arguments ("${positionals[0]}")\nRun "workload-map describe --help" for usage.`);
  if (!values.file) throw new CliError('describe needs -f FILE (or -f - for standard input)\nRun "workload-map describe --help" for usage.');
  const api = await loadApi();
  // Every -f file (a folder: its *.yaml, *.yml and *.json files; a quoted glob: the files it
  // matches) is read; their objects are described together, each remembering its file.
  const { files, problems } = expandPaths(values.file);
  if (problems.length > 0) throw new CliError(problems.map((p) => p.message).join('\n'));
  // One file: its text goes to the core as it is (read once, no objects crossing twice).
  // Several: each file is read, and their objects are described together.
  let input;
  let fileAt;
  let problem = false;
  const printProblems = (file, diagnostics) => {
    for (const d of diagnostics) printError(`${d.severity}: ${file}${d.line ? `:${d.line}:${d.column}` : ''}: ${escapeTerminal(d.message)}`);
    if (diagnostics.some((d) => d.severity === 'error')) problem = true;
  };
  if (files.length === 1) {
    input = readInput(files[0]);
    const file = displayName(files[0]);
    fileAt = () => file;
  } else {
    const objects = [];
    const fileOf = [];
    for (const name of files) {
      const file = displayName(name);
      const parsed = api.parseObjects(readInput(name));
      const error = parsed.diagnostics.find((d) => d.severity === 'error');
      // A syntax error stops reading (no objects); items that are not objects are skipped and
      // reported, and the objects around them are still described (exit 2 at the end).
      if (error && parsed.objects.length === 0) throw new CliError(`${file}${error.line ? `:${error.line}:${error.column}` : ''}: ${error.message}`);
      printProblems(file, parsed.diagnostics);
      for (const object of parsed.objects) {
        objects.push(object);
        fileOf.push(file);
      }
    }
    if (objects.length === 0) throw new CliError(`${files.map(displayName).join(', ')} hold no object`);
    input = objects;
    fileAt = (index) => fileOf[index];
  }

  const given = values.definition ? readDefinitions(api, values.definition) : null;
  // One reading in the core: which objects are workloads, what belongs to each, and what
  // belongs to none (see the crate's manifest module), every workload resolved with its
  // definition (the given ones by type, else the catalog's), each definition compiled once.
  const catalogOrigin = (item) => {
    const note = item.definition.exactVersion ? undefined : `no catalog definition for ${item.apiVersion}; using the one written for ${api.catalog.get(item.definition.name)?.apiVersion ?? 'another version'}`;
    return { label: 'catalog', name: item.definition.name, note };
  };
  let result;
  try {
    result = api.resolveAll(input, given ? { definitions: given.map((g) => g.text) } : { catalog: true });
  } finally {
    for (const { definition } of given ?? []) definition.free();
  }
  if (typeof input === 'string') {
    const file = fileAt(0);
    const error = result.diagnostics.find((d) => d.severity === 'error');
    if (error && result.items.length === 0 && result.unowned.length === 0) throw new CliError(`${file}${error.line ? `:${error.line}:${error.column}` : ''}: ${error.message}`);
    printProblems(file, result.diagnostics);
    if (result.items.length === 0 && result.unowned.length === 0) throw new CliError(`${file} holds no object`);
  }
  let exitCode = problem ? EXIT_USAGE : EXIT_OK;

  const described = [];
  let uncovered = 0;
  // The objects themselves, for naming what no definition covers (a kind or name that is not
  // a string is named as written): read from the text only when needed.
  let parsedObjects = typeof input === 'string' ? null : input;
  const objectAt = (index) => {
    parsedObjects ??= api.parseObjects(input).objects;
    return parsedObjects[index] ?? {};
  };
  for (const item of result.items) {
    if (!item.view) {
      uncovered += 1;
      const object = objectAt(item.index);
      const type = `${label(object.kind, '<no kind>')} (${label(object.apiVersion, '<no apiVersion>')})`;
      const name = label(isPlainObject(object.metadata) ? object.metadata.name : undefined, '<unnamed>');
      if (given) printError(`warning: no definition in ${displayName(values.definition)} covers ${type} for ${name}; not described`);
      else printError(`warning: no definition covers ${type} for ${name}; not described ("workload-map definitions" lists what is available, or pass --definition FILE)`);
      continue;
    }
    const origin = item.given !== undefined ? given[item.given].origin : catalogOrigin(item);
    described.push({ view: item.view, origin, file: fileAt(item.index) });
    if (item.view.diagnostics.some((d) => d.severity === 'error') && exitCode === EXIT_OK) exitCode = EXIT_INVALID;
  }
  // Objects that belong to no workload: said beside the output, with the reason.
  for (const unowned of result.unowned) {
    const d = unowned.diagnostic;
    const where = escapeTerminal(fileAt(unowned.index) ?? '');
    printError(`${d.severity}: ${where}: ${escapeTerminal(`${unowned.kind}/${unowned.name || '<unnamed>'}: ${d.message}`)} (${d.code})${d.help ? `\n  help: ${d.help}` : ''}`);
    if (d.severity === 'error' && exitCode === EXIT_OK) exitCode = EXIT_INVALID;
  }
  // Nothing covered at all: exit 4; a List covered in part describes what it can (exit 0).
  if (described.length === 0 && uncovered > 0 && exitCode === EXIT_OK) exitCode = EXIT_NO_DEFINITION;
  if (described.length === 0 && result.items.length === 0 && result.unowned.length > 0 && exitCode === EXIT_OK) exitCode = EXIT_INVALID;

  const views = described.map((d) => d.view);
  if (textOptions.text) {
    const texts = described.map((d) => describeText(d.view, d.origin, podLimit, { ...textOptions, objectFile: d.file }));
    if (texts.length > 0) print(texts.join('\n\n'));
  } else if (format === 'name') {
    if (views.length > 0) print(views.map(resourceName).join('\n'));
  } else {
    // One workload: its view; several: a List of views, as kubectl get -o json prints them.
    const output = views.length === 1 ? views[0] : { apiVersion: 'v1', kind: 'List', metadata: {}, items: views };
    print(format === 'json' ? JSON.stringify(output, null, 2) : toYaml(output));
  }
  return exitCode;
}

/** `kind.group/name`, as kubectl get -o name prints an object. */
function resourceName(view) {
  const group = view.apiVersion.includes('/') ? view.apiVersion.split('/')[0] : '';
  return `${view.kind.toLowerCase()}${group ? `.${group}` : ''}/${view.name}`;
}

async function draftCommand(args) {
  const { values, positionals } = parse(args, OPTIONS.draft, 'draft');
  if (values.help) return print(HELP.draft, EXIT_OK);
  if (positionals.length > 0) throw new CliError(`draft reads the object from -f FILE, not from arguments ("${positionals[0]}")\nRun "workload-map draft --help" for usage.`);
  if (values.crd) return draftFromSchemaCommand(await loadApi(), values);
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
  const { values, positionals } = parse(args, OPTIONS.definitions, 'definitions');
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
  print(table(values['no-headers'] ? rows.slice(1) : rows).join('\n'));
  return EXIT_OK;
}

// --- edits: suspend, resume, edit ------------------------------------------------------------

const EDIT_OUTPUT = `Output:
  -o json (default)  the RFC 6902 JSON Patch, ready for
                     kubectl patch TYPE NAME --type json -p "$(workload-map ...)"
  -o yaml            the edited object`;

HELP.suspend = `Suspend a workload: apply its definition's suspendActions and print the change.

Usage:
  workload-map suspend -f FILE|- [--definition FILE] [-o json|yaml]

FILE holds one object. Without --definition, the embedded catalog is searched by apiVersion
and kind. Suspending a suspended workload prints an empty patch ([]).

${EDIT_OUTPUT}

Options:
  -f, --file FILE        The manifest ("-" reads standard input)
  -d, --definition FILE  Use this definition instead of the catalog
  -o, --output FORMAT    json (default) or yaml
  -h, --help             Show this help

Exit codes: 0 ok (also when nothing changes), 1 the edit was refused (the reason is printed),
2 usage error or unreadable input, 4 no definition covers the object's type.
`;

HELP.resume = HELP.suspend.replaceAll('suspendActions', 'resumeActions').replace('Suspend a workload', 'Resume a workload').replace('workload-map suspend', 'workload-map resume').replace('Suspending a suspended workload', 'Resuming a running workload');

HELP.edit = `Merge-patch one component's pod spec, writing through the definition's paths.

Usage:
  workload-map edit -f FILE|- --component NAME [--instance ID] --merge JSON [--definition FILE] [-o json|yaml]

The merge patch (RFC 7396) applies to the pod spec as the definition reads it: the PodSpec
(podSpecPath), the template's spec (podTemplateSpecPath) or the fragmented pod spec
(containers, container, image, resources, schedulerName, ...). Without --instance, every
instance of the component is edited. An edit that would change components, instance ids or
replicas is refused.

${EDIT_OUTPUT}

Options:
  -f, --file FILE        The manifest ("-" reads standard input); one object
  -c, --component NAME   The component (as in the definition, e.g. replicatedjob)
  -i, --instance ID      One instance (e.g. workers); default: every instance
  -m, --merge JSON       The merge patch, e.g. '{"schedulerName":"kai-scheduler"}'
  -d, --definition FILE  Use this definition instead of the catalog
  -o, --output FORMAT    json (default) or yaml
  -h, --help             Show this help

Exit codes: 0 ok (also when nothing changes), 1 the edit was refused (the reason is printed),
2 usage error or unreadable input, 4 no definition covers the object's type.
`;

/** Reads the one object of -f FILE and the definition that covers it, for an edit command. */
async function editInput(values, command) {
  if (!values.file) throw new CliError(`${command} needs -f FILE (or -f - for standard input)\nRun "workload-map ${command} --help" for usage.`);
  const api = await loadApi();
  const file = displayName(values.file);
  const parsed = api.parseObjects(readInput(values.file));
  const problem = parsed.diagnostics.find((d) => d.severity === 'error');
  if (problem) throw new CliError(`${file}${problem.line ? `:${problem.line}:${problem.column}` : ''}: ${problem.message}`);
  if (parsed.objects.length !== 1) throw new CliError(`${command} edits one object, but ${file} holds ${parsed.objects.length}`);
  const object = parsed.objects[0];
  if (values.definition) {
    const given = readDefinitions(api, values.definition);
    const chosen = givenFor(given, object);
    for (const other of given) if (other !== chosen) other.definition.free();
    if (!chosen) {
      const type = `${object.kind ?? '<no kind>'} (${object.apiVersion ?? '<no apiVersion>'})`;
      throw new CliError(`no definition in ${displayName(values.definition)} covers ${type}`, EXIT_NO_DEFINITION);
    }
    return { api, object, definition: chosen.definition };
  }
  // One object: the catalog's definition is compiled once, and belongs to the caller.
  const found = new CatalogDefinitions(api).find(object);
  if (!found) {
    const type = `${object.kind ?? '<no kind>'} (${object.apiVersion ?? '<no apiVersion>'})`;
    throw new CliError(`no definition covers ${type}; "workload-map definitions" lists what is available, or pass --definition FILE`, EXIT_NO_DEFINITION);
  }
  if (found.origin.note) printError(`note: ${found.origin.note}`);
  return { api, object, definition: found.definition };
}

/** Prints an edit's result: the patch (json) or the object (yaml); diagnostics on stderr. */
function printEdit(result, format) {
  for (const d of result.diagnostics) {
    printError(`${d.severity} ${d.code}: ${d.message}${d.path ? ` (at ${d.path})` : ''}${d.help ? `\n  help: ${d.help}` : ''}`);
  }
  if (result.diagnostics.some((d) => d.severity === 'error')) return EXIT_INVALID;
  print(format === 'yaml' ? toYaml(result.object) : JSON.stringify(result.patch));
  return EXIT_OK;
}

const EDIT_OPTIONS = {
  file: { ...FILE, short: 'f', description: 'The manifest (- for standard input)' },
  definition: { ...FILE, short: 'd', description: 'Use this definition instead of the catalog' },
  output: { type: 'string', short: 'o', values: ['json', 'yaml'], description: 'Output format' },
};
OPTIONS.suspend = EDIT_OPTIONS;
OPTIONS.resume = EDIT_OPTIONS;
OPTIONS.edit = {
  ...EDIT_OPTIONS,
  component: { type: 'string', short: 'c', valueName: 'NAME', description: 'The component' },
  instance: { type: 'string', short: 'i', valueName: 'ID', description: 'One instance (default: every instance)' },
  merge: { type: 'string', short: 'm', valueName: 'JSON', description: 'The merge patch (RFC 7396)' },
};

async function actionCommand(args, command) {
  const { values, positionals } = parse(args, EDIT_OPTIONS, command);
  if (values.help) return print(HELP[command], EXIT_OK);
  const format = outputFormat(values.output ?? 'json', ['json', 'yaml'], command);
  if (positionals.length > 0) throw new CliError(`${command} reads the manifest from -f FILE, not from arguments ("${positionals[0]}")`);
  const { object, definition } = await editInput(values, command);
  const result = command === 'suspend' ? definition.suspend(object) : definition.resume(object);
  definition.free();
  return printEdit(result, format);
}

function suspendCommand(args) {
  return actionCommand(args, 'suspend');
}

function resumeCommand(args) {
  return actionCommand(args, 'resume');
}

async function editCommand(args) {
  const { values, positionals } = parse(args, OPTIONS.edit, 'edit');
  if (values.help) return print(HELP.edit, EXIT_OK);
  const format = outputFormat(values.output ?? 'json', ['json', 'yaml'], 'edit');
  if (positionals.length > 0) throw new CliError(`edit reads the manifest from -f FILE, not from arguments ("${positionals[0]}")`);
  if (!values.component) throw new CliError('edit needs --component NAME\nRun "workload-map edit --help" for usage.');
  if (values.merge === undefined) throw new CliError('edit needs --merge JSON (an RFC 7396 merge patch)\nRun "workload-map edit --help" for usage.');
  let merge;
  try {
    merge = JSON.parse(values.merge);
  } catch (error) {
    throw new CliError(`--merge is not JSON: ${error.message}`);
  }
  const { object, definition } = await editInput(values, 'edit');
  const result = definition.editPodSpec(object, { component: values.component, instance: values.instance ?? null, merge });
  definition.free();
  return printEdit(result, format);
}

// --- version, completion ----------------------------------------------------------------------

function packageVersion() {
  try {
    return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

async function versionCommand(args) {
  const { values, positionals } = parse(args, OPTIONS.version, 'version');
  if (values.help) return print(HELP.version, EXIT_OK);
  const format = outputFormat(values.output, OPTIONS.version.output.values, 'version');
  if (positionals.length > 0) throw new CliError(`version takes no arguments ("${positionals[0]}")`);
  const api = await loadApi();
  const versions = {
    package: packageVersion(),
    engine: api.version,
    catalog: { version: api.version, definitions: api.catalog.list().length },
    node: process.versions.node,
  };
  if (format === 'json') return print(JSON.stringify(versions, null, 2), EXIT_OK);
  return print(
    [
      `workload-map ${versions.package ?? api.version}`,
      `engine:  ${versions.engine} (WebAssembly)`,
      `catalog: ${versions.catalog.version} (${versions.catalog.definitions} definitions, built into the engine)`,
      `node:    ${versions.node}`,
    ].join('\n'),
    EXIT_OK,
  );
}

/** Each command's one-line summary, as the main help lists it. */
function commandSummaries() {
  const block = HELP.main.slice(HELP.main.indexOf('Commands:'));
  return new Map([...block.matchAll(/^ {2}(\S+) {2,}(.+)$/gm)].map((m) => [m[1], m[2].trim()]));
}

async function completionCommand(args) {
  const { values, positionals } = parse(args, OPTIONS.completion, 'completion');
  if (values.help) return print(HELP.completion, EXIT_OK);
  if (positionals.length !== 1 || !SHELLS.includes(positionals[0])) {
    throw new CliError(`completion takes one shell: ${SHELLS.join(', ')}${positionals.length > 0 ? ` (not "${positionals.join(' ')}")` : ''}\nRun "workload-map completion --help" for usage.`);
  }
  const summaries = commandSummaries();
  // Arguments that are a fixed list: the shells, and the names of the catalog built in.
  const api = await loadApi();
  const words = { completion: SHELLS, definitions: api.catalog.list().map((e) => e.name) };
  const commands = Object.keys(COMMANDS).map((name) => ({
    name,
    summary: summaries.get(name) ?? '',
    options: { ...(Object.hasOwn(OPTIONS, name) ? OPTIONS[name] : {}), help: { type: 'boolean', short: 'h', description: 'Show help' } },
    ...(Object.hasOwn(words, name) ? { words: words[name] } : {}),
  }));
  return print(completionScript(positionals[0], commands), EXIT_OK);
}

const COMMANDS = { validate: validateCommand, describe: describeCommand, definitions: definitionsCommand };
COMMANDS.suspend = suspendCommand;
COMMANDS.resume = resumeCommand;
COMMANDS.edit = editCommand;

/** The handler of a command the user named; own keys only, so `constructor` is not a command. */
function commandNamed(name) {
  if (Object.hasOwn(COMMANDS, name)) return COMMANDS[name];
  const close = name.length >= 3 ? Object.keys(COMMANDS).find((known) => known.startsWith(name.slice(0, 3))) : undefined;
  throw new CliError(
    `unknown command "${name}"${close ? `; did you mean "${close}"?` : ''}\n` +
      `Commands: ${Object.keys(COMMANDS).join(', ')}. Run "workload-map --help" for usage.`,
  );
}
COMMANDS.draft = draftCommand;
COMMANDS.version = versionCommand;
COMMANDS.completion = completionCommand;
// `test` lives in its own module; it gets what it shares with the other commands.
HELP.test = TEST_HELP;
OPTIONS.test = TEST_OPTIONS;
COMMANDS.test = (args) => testCommand(args, { loadApi, parse, decodeText, CliError, print, printError });

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    if (command === 'help' && rest.length > 0) {
      commandNamed(rest[0]);
      return print(HELP[rest[0]], EXIT_OK);
    }
    return print(HELP.main, command === undefined ? EXIT_USAGE : EXIT_OK);
  }
  if (command === '-V' || command === '--version') return versionCommand(rest);
  return commandNamed(command)(rest);
}

exitQuietlyWhenOutputCloses();
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
