// `workload-map describe`: workloads from manifests, resolved by the core (`resolveAll`) with the
// catalog's definitions or the given ones, printed as a role tree, phases and a resources table
// (or as the views in JSON, YAML or names).

import { loadApi, outputFormat, parse, print, printError } from '../command.mjs';
import { CliError, EXIT_INVALID, EXIT_NO_DEFINITION, EXIT_OK, EXIT_USAGE } from '../errors.mjs';
import { readDefinitions } from '../given-definitions.mjs';
import { displayName, expandPaths, readInput } from '../inputs.mjs';
import { chunkSizeOf, CLUSTER_HELP, CLUSTER_OPTIONS, clusterDefinitions, connectWith, definitionsOf, kartaWarnings, loadKube, withCluster } from '../live.mjs';
import { resourceCells } from '../resource-table.mjs';
import { table } from '../table.mjs';
import { colourEnabled, escapeStrings, escapeTerminal, palette } from '../terminal.mjs';
import { toYaml } from '../yaml.mjs';
import { typeAndName } from './get.mjs';

export const HELP = `Resolve workload manifests into a role tree, phases and resource totals.

Usage:
  workload-map describe -f FILE|- [-f FILE...] [--definition FILE] [-o text|wide|json|yaml]
                        [--pod-limit N] [--no-headers]
  workload-map describe TYPE/NAME | TYPE NAME [-n NS] [--kubeconfig FILE] [--context NAME] ...

With TYPE/NAME (and no -f), the workload is read from the cluster: the object, the pods of its
namespace whose controller chain reaches it and the objects on those chains (each once),
described as "describe -f" describes the same objects exported as a List ("kubectl get -o
yaml"), their pods looked for even when there are none (0/2 ready, as get says), with the
definitions of the cluster (the catalog, replaced per type by its Karta resources). TYPE is
taken as kubectl takes it (plural, singular, short name, kind; jobs.batch, Job.v1.batch).
A problem of a Karta is located by its name and field path (Karta/NAME ... (at spec....)); a
type two Kartas claim is described with the catalog's definition, and the conflict is said.

Every workload in FILE is described in turn (multi-document YAML and "kind: List" included);
-f may be given several times, and the objects of every file are read together (a JobSet in
one file, its pods in another).
Without --definition, the embedded catalog is searched by apiVersion and kind (the same group
and kind at another version is used as a fallback, and the output says so); Karta objects
among those read replace the catalog's definition of their type, as a cluster's do (an export
such as "kubectl get kartas,jobsets,pods -o yaml" is read as live describe reads the cluster).

FILE may also hold the objects a workload owns, as "kubectl get jobset,jobs,pods -o yaml"
returns them. A workload is an object whose controller owner chain reaches no other object of
the input (an owner missing from the input never hides an object); a pod or object belongs to
the workload its controller chain reaches, never by its labels. Each workload's pods are listed
under their role with their phase (Terminating, as kubectl says, for a pod being deleted: it is
not ready) and node, and each role shows READY/DESIRED. Objects that
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
With TYPE/NAME:
${CLUSTER_HELP}
  -h, --help             Show this help

Exit codes: 0 ok (also when some workloads of a List have no definition: they are named on
standard error and left out), 1 a view has error diagnostics or objects name each other as
owners, 2 usage error or unreadable/unparsable input, 3 TYPE or NAME does not exist in the
cluster, 4 no definition covers any workload, 5 no cluster configured, unreachable, or the
credentials refused.
`;

export const OPTIONS = {
  file: { type: 'string', valueName: 'FILE', short: 'f', multiple: true, description: 'A manifest (- for standard input); repeatable' },
  definition: { type: 'string', valueName: 'FILE', short: 'd', description: 'Use this definition instead of the catalog' },
  output: { type: 'string', short: 'o', values: ['text', 'wide', 'json', 'yaml', 'name'], description: 'Output format' },
  'pod-limit': { type: 'string', valueName: 'N', description: 'Show at most N pods per role' },
  'no-headers': { type: 'boolean', description: 'No header rows in the tables' },
  ...CLUSTER_OPTIONS,
};

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
  if (unhealthy.length > 0)
    detail = shownUnhealthy === unhealthy.length ? ` (${shownUnhealthy} unhealthy shown)` : ` (${shownUnhealthy} of ${unhealthy.length} unhealthy shown)`;
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
  const children = [...listed.map((pod) => ({ pod })), ...(note ? [{ note }] : []), ...node.children.map((child) => ({ child }))];
  children.forEach((entry, i) => {
    const last = i === children.length - 1;
    const branch = `${childPrefix}${last ? '`-- ' : '|-- '}`;
    if (entry.pod) {
      const { pod } = entry;
      // kubectl's word for a pod being deleted; its phase is still what its status says.
      const word = pod.terminating ? 'Terminating' : pod.phase;
      const state = pod.reason ? `${word} (${pod.reason})` : word;
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
 * --definition file, or `catalog:NAME`) or in the manifest (`names.object`); a cluster's Karta
 * is `Karta/NAME: ` alone (`names.definitionLines` false: its text is our re-serialisation, and
 * the diagnostic's path says where in the Karta).
 */
function formatLocation(diagnostic, names) {
  const name = names[diagnostic.source] ?? diagnostic.source;
  if (diagnostic.source === 'definition' && names.definitionLines === false) return `${name}: `;
  return diagnostic.line ? `${name}:${diagnostic.line}:${diagnostic.column}: ` : '';
}

/** A view read with a cluster's Karta, its definition diagnostics without lines and columns (they point into our re-serialisation). */
function withoutDefinitionPositions(view) {
  const diagnostics = view.diagnostics.map((d) => {
    if (d.source !== 'definition') return d;
    const { line: _l, column: _c, endLine: _el, endColumn: _ec, ...rest } = d;
    return rest;
  });
  return { ...view, diagnostics };
}

/** Distinct node names of some pods, sorted. */
function nodesOf(pods) {
  return [...new Set(pods.map((p) => p.node).filter(Boolean))].sort();
}

/**
 * One view as text: header, role tree, phase, resources, gang groups and diagnostics.
 *
 * @param {import('workload-map').WorkloadView} input
 * @param {{label: string, name?: string, note?: string, location?: string}} given where the definition came from
 * @param {number} [podLimit]
 * @param {{wide?: boolean, noHeaders?: boolean, objectFile?: string, colour?: ReturnType<typeof palette>}} [options]
 */
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
  lines.push(`Phase: ${view.phases.join(',')}${view.terminating ? ' (Terminating)' : ''}`, '', 'Resources:');
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
      const names = {
        definition: origin.location ?? (origin.name ? `catalog:${origin.name}` : undefined),
        definitionLines: !fromKarta(origin),
        object: objectFile,
      };
      lines.push(`  ${formatLocation(d, names)}${colour.severity(d.severity)} ${d.code}: ${d.message}${d.path ? ` (at ${d.path})` : ''}`);
      if (d.help) lines.push(`    help: ${d.help}`);
    }
  }
  return lines.join('\n');
}

/**
 * @param {unknown} value
 * @returns {value is import('workload-map').JsonObject}
 */
function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A manifest value for a message: strings as they are, anything else as JSON (shortened). */
function label(value, missing) {
  if (value === undefined || value === null || value === '') return missing;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return escapeTerminal(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

export async function run(args) {
  const { values, positionals } = parse(args, OPTIONS, 'describe');
  if (values.help) return print(HELP, EXIT_OK);
  const format = outputFormat(values.output, OPTIONS.output.values, 'describe');
  const text = format === 'text' || format === 'wide';
  const textOptions = { text, wide: format === 'wide', noHeaders: Boolean(values['no-headers']), colour: palette(text && colourEnabled(process.stdout)) };
  const podLimit = values['pod-limit'] === undefined ? 0 : Number(values['pod-limit']);
  if (!Number.isInteger(podLimit) || podLimit < 0) throw new CliError(`--pod-limit takes a whole number (0 for all), not "${values['pod-limit']}"`);
  if (positionals.length > 0 && values.file)
    throw new CliError(
      `describe reads either -f FILE or TYPE/NAME from the cluster, not both ("${positionals[0]}")\nRun "workload-map describe --help" for usage.`,
    );
  const clusterOption = Object.keys(CLUSTER_OPTIONS).find((option) => values[option] !== undefined);
  if (values.file && clusterOption) throw new CliError(`describe: --${clusterOption} reads the cluster: it cannot be given with -f`);
  if (!values.file && positionals.length === 0)
    throw new CliError('describe needs -f FILE (or -f - for standard input), or TYPE/NAME to read the cluster\nRun "workload-map describe --help" for usage.');
  if (!values.file) {
    const { name } = typeAndName(positionals, 'describe');
    if (name === undefined) throw new CliError('describe: a NAME is required: give it as TYPE/NAME or as TYPE NAME');
  }
  const chunkSize = chunkSizeOf(values);
  const api = await loadApi();
  if (!values.file) return describeLive(api, values, positionals, { format, textOptions, podLimit, chunkSize });
  // Every -f file (a folder: its *.yaml, *.yml and *.json files; a quoted glob: the files it
  // matches) is read; their objects are described together, each remembering its file.
  const { files, problems } = expandPaths(values.file);
  if (problems.length > 0) throw new CliError(problems.map((p) => p.message).join('\n'));
  // One file: its text goes to the core as it is (read once, no objects crossing twice).
  // Several: each file is read, and their objects are described together.
  /** @type {string | import('workload-map').JsonObject[]} */
  let input;
  /** @type {(index: number) => string} */
  let fileAt;
  const state = { problem: false };
  const printProblems = (file, diagnostics) => {
    for (const d of diagnostics) printError(`${d.severity}: ${file}${d.line ? `:${d.line}:${d.column}` : ''}: ${escapeTerminal(d.message)}`);
    if (diagnostics.some((d) => d.severity === 'error')) state.problem = true;
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
  const withKartas = values.definition ? null : await kartasOfInput(api, input, fileAt);
  if (withKartas) ({ input, fileAt } = withKartas);
  return describeInput(api, values, { input, fileAt, state, printProblems, cluster: withKartas?.definitions }, { format, textOptions, podLimit });
}

/** Whether a definition of this origin is a Karta's text as we re-serialised it (its positions point into nothing the user wrote). */
function fromKarta(origin) {
  return origin.label === 'cluster' || origin.label === 'input';
}

/** A Karta object (run.ai/v1alpha1). */
function isKarta(object) {
  return object?.kind === 'Karta' && object?.apiVersion === 'run.ai/v1alpha1';
}

/**
 * The Kartas among the objects `describe -f` reads are the definitions in force for the others,
 * as live `describe` reads a cluster's (an export, `kubectl get kartas,jobsets,pods -o yaml`,
 * holds them): returns the other objects, each still named by its file, and those definitions
 * (their problems said once on standard error), or null when the input holds no Karta, holds
 * nothing else, or does not read (its own errors are said as usual).
 *
 * @param {any} api
 * @param {string | import('workload-map').JsonObject[]} input
 * @param {(index: number) => string} fileAt
 */
async function kartasOfInput(api, input, fileAt) {
  if (typeof input === 'string' && !input.includes('Karta')) return null;
  const parsed = typeof input === 'string' ? api.parseObjects(input) : { objects: input, diagnostics: [] };
  if (parsed.diagnostics.some((d) => d.severity === 'error')) return null;
  const kartas = parsed.objects.filter(isKarta);
  const kept = parsed.objects.map((object, index) => ({ object, file: fileAt(index) })).filter(({ object }) => !isKarta(object));
  if (kartas.length === 0 || kept.length === 0) return null;
  const kube = await import('../kube/definitions.mjs');
  const definitions = definitionsOf(kube, api, kartas);
  definitions.origins = definitions.origins.map((origin) => ({ ...origin, label: 'input' }));
  const types = new Set(kept.map(({ object }) => `${object.apiVersion}/${object.kind}`));
  const lines = kartaWarnings(kube, definitions, { reads: (apiVersion, kind) => types.has(`${apiVersion}/${kind}`) });
  if (lines.length > 0) printError(lines.join('\n'));
  return { input: kept.map(({ object }) => object), fileAt: (index) => kept[index]?.file, definitions };
}

/**
 * `describe TYPE/NAME`: the workload fetched from the cluster (bin/kube `fetchWorkload`: the
 * root, the objects on its pods' controller chains, its pods), then described exactly as
 * `describe -f` describes the same objects given as a List, with the cluster's definitions.
 */
async function describeLive(api, values, positionals, { format, textOptions, podLimit, chunkSize }) {
  const { type, name } = typeAndName(positionals, 'describe');
  const kube = await loadKube();
  const { objects, cluster } = await withCluster(async () => {
    const connection = await connectWith(kube, values);
    const resource = connection.discovery.resolve(type);
    const definitions = values.definition ? undefined : await clusterDefinitions(kube, api, connection, chunkSize);
    // A conflict over the type, or a broken Karta for it, is said once; the view lists the
    // Karta's problems again beside what they affect.
    if (definitions) {
      const lines = kartaWarnings(kube, definitions, {
        reads: (apiVersion, kind) => kind === resource.kind && (apiVersion.includes('/') ? apiVersion.split('/')[0] : '') === resource.group,
        everyType: false,
      });
      if (lines.length > 0) printError(lines.join('\n'));
    }
    const { root, related } = await kube.fetchWorkload(connection.client, connection.discovery, resource, connection.namespace, /** @type {string} */ (name), {
      chunkSize,
    });
    return { objects: [root, ...related], cluster: definitions };
  });
  const state = { problem: false };
  const printProblems = (file, diagnostics) => {
    for (const d of diagnostics) printError(`${d.severity}: ${file}: ${escapeTerminal(d.message)}`);
    if (diagnostics.some((d) => d.severity === 'error')) state.problem = true;
  };
  // The cluster was asked for the pods: none found is 0 of N ready, as `get` says, not a
  // workload described without pods.
  return describeInput(api, values, { input: objects, fileAt: () => 'cluster', state, printProblems, cluster, live: true }, { format, textOptions, podLimit });
}

/**
 * Describes the objects of `input` (a file's text, or objects) with the given definitions, the
 * cluster's, or the catalog's, and prints them. `live`: the objects were fetched with the pods
 * in scope, so each workload's pods are placed even when there are none.
 */
function describeInput(api, values, { input, fileAt, state, printProblems, cluster, live = false }, { format, textOptions, podLimit }) {
  const given = values.definition ? readDefinitions(api, values.definition) : null;
  // One reading in the core: which objects are workloads, what belongs to each, and what
  // belongs to none (see the crate's manifest module), every workload resolved with its
  // definition (the given ones by type, else the catalog's), each definition compiled once.
  const catalogOrigin = (item) => {
    const note = item.definition.exactVersion
      ? undefined
      : `no catalog definition for ${item.apiVersion}; using the one written for ${api.catalog.get(item.definition.name)?.apiVersion ?? 'another version'}`;
    return { label: 'catalog', name: item.definition.name, note };
  };
  let result;
  try {
    const pods = live ? { related: [] } : {};
    result = api.resolveAll(input, given ? { definitions: given.map((g) => g.text), ...pods } : cluster ? cluster.options(pods) : { catalog: true, ...pods });
  } finally {
    for (const { definition } of given ?? []) definition.free();
  }
  if (typeof input === 'string') {
    const file = fileAt(0);
    const error = result.diagnostics.find((d) => d.severity === 'error');
    if (error && result.items.length === 0 && result.unowned.length === 0)
      throw new CliError(`${file}${error.line ? `:${error.line}:${error.column}` : ''}: ${error.message}`);
    printProblems(file, result.diagnostics);
    if (result.items.length === 0 && result.unowned.length === 0) throw new CliError(`${file} holds no object`);
  }
  let exitCode = state.problem ? EXIT_USAGE : EXIT_OK;

  const described = [];
  let uncovered = 0;
  // The objects themselves, for naming what no definition covers (a kind or name that is not
  // a string is named as written): read from the text only when needed.
  let parsedObjects = typeof input === 'string' ? null : input;
  const objectAt = (index) => {
    parsedObjects ??= api.parseObjects(/** @type {string} */ (input)).objects;
    return parsedObjects[index] ?? {};
  };
  for (const item of result.items) {
    if (!item.view) {
      uncovered += 1;
      const object = objectAt(item.index);
      const type = `${label(object.kind, '<no kind>')} (${label(object.apiVersion, '<no apiVersion>')})`;
      const name = label(isPlainObject(object.metadata) ? object.metadata.name : undefined, '<unnamed>');
      if (given) printError(`warning: no definition in ${displayName(values.definition)} covers ${type} for ${name}; not described`);
      else
        printError(
          `warning: no definition covers ${type} for ${name}; not described ("workload-map definitions" lists what is available, or pass --definition FILE)`,
        );
      continue;
    }
    let origin = item.given === undefined ? catalogOrigin(item) : given ? given[item.given].origin : cluster.origins[item.given];
    const conflict = item.given === undefined ? cluster?.conflicts.get(`${item.apiVersion}/${item.kind}`) : undefined;
    if (conflict) {
      const said = `${conflict.length} Kartas claim ${item.kind} (${item.apiVersion}): ${conflict.map((n) => `Karta/${n}`).join(', ')}; read with the catalog's definition`;
      origin = { ...origin, note: origin.note ? `${said}; ${origin.note}` : said };
    }
    const view = fromKarta(origin) ? withoutDefinitionPositions(item.view) : item.view;
    described.push({ view, origin, file: fileAt(item.index) });
    if (item.view.diagnostics.some((d) => d.severity === 'error') && exitCode === EXIT_OK) exitCode = EXIT_INVALID;
  }
  // Objects that belong to no workload: said beside the output, with the reason.
  for (const unowned of result.unowned) {
    const d = unowned.diagnostic;
    const where = escapeTerminal(fileAt(unowned.index) ?? '');
    printError(
      `${d.severity}: ${where}: ${escapeTerminal(`${unowned.kind}/${unowned.name || '<unnamed>'}: ${d.message}`)} (${d.code})${d.help ? `\n  help: ${d.help}` : ''}`,
    );
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
