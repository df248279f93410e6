// `workload-map definitions`: the embedded catalog, listed or one entry printed; with --cluster,
// the definitions in effect on a cluster (the catalog, replaced per type by its Karta
// resources), each with its origin.

import { loadApi, outputFormat, parse, print, printError } from '../command.mjs';
import { CliError, EXIT_NOT_FOUND, EXIT_OK } from '../errors.mjs';
import { chunkSizeOf, CLUSTER_OPTIONS, clusterDefinitions, connectWith, kartaWarnings, loadKube, withCluster } from '../live.mjs';
import { table } from '../table.mjs';
import { escapeTerminal } from '../terminal.mjs';
import { toYaml } from '../yaml.mjs';

export const HELP = `List the definitions in the embedded catalog, or those in effect on a cluster.

Usage:
  workload-map definitions [NAME] [-o text|json|yaml] [--no-headers]
  workload-map definitions --cluster [NAME] [--kubeconfig FILE] [--context NAME] [-o ...]

Without NAME: one row per definition (name, apiVersion, kind, components).
With NAME: that definition (text and yaml print its YAML, ready for "workload-map validate -").

With --cluster (or --kubeconfig/--context): the definitions the cluster's workloads are read
with: the catalog's, each replaced by the cluster's Karta resource for the same apiVersion and
kind. An ORIGIN column says where each comes from: "catalog", or "cluster" (a Karta; "replaces
NAME" when it replaces a catalog entry; "invalid" when the core finds errors in it: they are
listed on standard error, located by the Karta's name and field path, as are its warnings and
the fields the API server dropped from what "kubectl apply" recorded). Two Kartas claiming one
type are named on standard error and neither is used: the catalog's definition reads the type
(ORIGIN "catalog (conflict: NAME, NAME)"). -o json adds "valid" and "diagnostics" to each
Karta and "conflict" to a catalog entry two Kartas contest.

Options:
  -o, --output FORMAT    text (default), json or yaml
      --no-headers       Leave out the header row of the table
      --cluster          Read the cluster's Kartas too
      --kubeconfig FILE  The kubeconfig (implies --cluster)
      --context NAME     The kubeconfig context (implies --cluster)
  -h, --help             Show this help

Exit codes: 0 ok, 2 usage error or no definition named NAME, 3 (--cluster) no definition named
NAME, 5 no cluster configured, unreachable, or the credentials refused.
`;

export const OPTIONS = {
  output: { type: 'string', short: 'o', values: ['text', 'json', 'yaml'], description: 'Output format' },
  'no-headers': { type: 'boolean', description: 'No header row in the table' },
  cluster: { type: 'boolean', description: 'The definitions in effect on the cluster' },
  kubeconfig: CLUSTER_OPTIONS.kubeconfig,
  context: CLUSTER_OPTIONS.context,
};

export async function run(args) {
  const { values, positionals } = parse(args, OPTIONS, 'definitions');
  if (values.help) return print(HELP, EXIT_OK);
  const format = outputFormat(values.output, ['text', 'json', 'yaml'], 'definitions');
  if (positionals.length > 1) throw new CliError('definitions takes at most one NAME');
  const api = await loadApi();
  if (values.cluster || values.kubeconfig !== undefined || values.context !== undefined) return clusterRun(api, values, positionals[0], format);
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

/** The definitions in effect on the cluster, with their origin. */
async function clusterRun(api, values, name, format) {
  const kube = await loadKube();
  const effective = await withCluster(async () => {
    const connection = await connectWith(kube, values);
    return clusterDefinitions(kube, api, connection, chunkSizeOf(values));
  });
  const warnings = kartaWarnings(kube, effective);
  if (warnings.length > 0) printError(warnings.join('\n'));
  const problemsOf = (name) => effective.kartas.find((k) => k.name === name)?.problems ?? [];
  const items = effective.entries.map((e) => ({
    name: e.name,
    apiVersion: e.apiVersion,
    kind: e.kind,
    origin: e.origin,
    ...(e.replaces ? { replaces: e.replaces } : {}),
    ...(e.conflict ? { conflict: e.conflict } : {}),
    ...(e.origin === 'cluster' ? { valid: e.valid, diagnostics: problemsOf(e.name) } : {}),
  }));
  if (name !== undefined) {
    const entry = effective.entries.find((e) => e.name === name);
    if (!entry)
      throw new CliError(`no definition named "${name}" on the cluster. Run "workload-map definitions --cluster" to see what is available`, EXIT_NOT_FOUND);
    const text = entry.origin === 'cluster' ? toYaml(JSON.parse(entry.text)) : entry.text;
    if (format === 'json') print(JSON.stringify({ ...items.find((i) => i.name === name), text }, null, 2));
    else print(text.trimEnd());
    return EXIT_OK;
  }
  if (format === 'json') return print(JSON.stringify({ items, count: items.length }, null, 2), EXIT_OK);
  if (format === 'yaml') return print(toYaml({ items, count: items.length }), EXIT_OK);
  const rows = [['NAME', 'APIVERSION', 'KIND', 'ORIGIN', 'COMPONENTS']];
  for (const e of effective.entries) {
    const components = componentNames(api, e.text);
    rows.push([e.name, e.apiVersion, e.kind || '<none>', originCell(e), components.join(', ')].map(escapeTerminal));
  }
  print(table(values['no-headers'] ? rows.slice(1) : rows).join('\n'));
  return EXIT_OK;
}

/** The ORIGIN cell: catalog or cluster, what a Karta replaces, whether it is invalid, a conflict over the type. */
function originCell(e) {
  const notes = [];
  if (e.replaces) notes.push(`replaces ${e.replaces}`);
  if (e.origin === 'cluster' && !e.valid) notes.push('invalid');
  if (e.conflict) notes.push(`conflict: ${e.conflict.join(', ')}`);
  return notes.length > 0 ? `${e.origin} (${notes.join('; ')})` : e.origin;
}

/** The component names of a definition text, root first. */
function componentNames(api, text) {
  const definition = new api.Definition(text);
  try {
    return definition.componentNames;
  } finally {
    definition.free();
  }
}
