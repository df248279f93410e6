// `workload-map get`: the workloads of a live cluster, one row each, as the core reads them.
// The objects are fetched (bin/kube: the rows' types, every pod in scope and the owners between
// them) and handed to `resolveAll` as one List, the same reading as `describe -f` of those
// objects: which object is a workload (one whose controller chain reaches no other object of
// the input: a Deployment owned by an InferenceService is not a row), its phases, its GPUs and
// its ready pods all come from the core's views. Nothing here reads a workload.

import { loadApi, parse, print, printError } from '../command.mjs';
import { CliError, EXIT_NO_DEFINITION, EXIT_OK } from '../errors.mjs';
import {
  chunkSizeOf,
  CLUSTER_HELP,
  CLUSTER_OPTIONS,
  cliErrorOf,
  clusterDefinitions,
  connectWith,
  humanAge,
  kartaWarnings,
  loadKube,
  withCluster,
} from '../live.mjs';
import { table } from '../table.mjs';
import { escapeTerminal } from '../terminal.mjs';
import { toYaml } from '../yaml.mjs';

/** The phases --phase takes (any case). */
export const PHASES = ['Undefined', 'Initializing', 'Running', 'Degraded', 'Suspending', 'Suspended', 'Resuming', 'Completed', 'Failed'];

export const HELP = `List the workloads of the cluster, each read through its definition.

Usage:
  workload-map get [TYPE[/NAME] | TYPE NAME] [-n NS | -A] [-l SELECTOR] [--phase P]
                   [--all-types] [-o table|wide|json|yaml|name] [--watch]

TYPE is a resource type as kubectl takes it: plural, singular, short name or kind, optionally
with its group (jobs.batch) or version and group (jobs.v1.batch, Job.v1.batch). Without TYPE
(or with --all-types): every type a definition covers that the cluster serves. An object is
listed only when it is top level (no object in its controller chain is of a covered type: a
JobSet's Jobs, or a Deployment owned by an InferenceService, are parts of those, not rows).
Definitions are the embedded catalog, replaced per type by the Karta resources of the cluster
("workload-map definitions --cluster" lists them). A type two Kartas claim is read with the
catalog's definition, its rows marked (ORIGIN "catalog (conflict)"); the conflict, and every
Karta with errors or warnings, is said once on standard error.

Rows: NAME, NAMESPACE, TYPE, PHASE (the matched phases; Terminating, as kubectl shows it, for an
object being deleted: --phase still reads its phases), GPUS (requested by the spec), READY
(ready pods / desired pods; a terminating pod is not ready), AGE (when the objects were read);
wide adds DEFINITION and ORIGIN (catalog or cluster). In -o json and yaml, amounts are numbers,
null when not known exactly (a lower bound or unknown), each with its text (gpusText,
ready.desiredText: "16", "≥ 16", "n/a"); the rows of a type two Kartas claim name them in
"conflict".

Options:
  -A, --all-namespaces   Every namespace
  -l, --selector SEL     Only rows whose object matches the label selector (not with NAME)
      --phase P          Only rows in phase P (repeatable, or a comma list; any of them):
                         ${PHASES.slice(0, 5).join(', ')},
                         ${PHASES.slice(5).join(', ')}
      --all-types        Every covered type (the default without TYPE)
  -o, --output FORMAT    table (default), wide, json, yaml ({items, count}; one NAME: the row),
                         name (kind.group/name)
  -w, --watch            After the rows, print each row again when it changes (until stopped)
      --no-headers       Leave out the header row
${CLUSTER_HELP}
  -h, --help             Show this help

Exit codes: 0 ok (also when nothing is found), 2 usage error, 3 the type or NAME does not exist,
4 no definition covers TYPE, 5 no cluster configured, unreachable, or the credentials refused.
`;

export const OPTIONS = {
  'all-namespaces': { type: 'boolean', short: 'A', description: 'Every namespace' },
  selector: { type: 'string', short: 'l', valueName: 'SELECTOR', description: 'A label selector' },
  phase: { type: 'string', multiple: true, valueName: 'PHASE', values: PHASES, description: 'Only rows in this phase (repeatable)' },
  'all-types': { type: 'boolean', description: 'Every covered type' },
  output: { type: 'string', short: 'o', values: ['table', 'wide', 'json', 'yaml', 'name'], description: 'Output format' },
  watch: { type: 'boolean', short: 'w', description: 'Print rows again as they change' },
  'no-headers': { type: 'boolean', description: 'No header row' },
  ...CLUSTER_OPTIONS,
};

/** `TYPE[/NAME]` or `TYPE NAME`: `{ type, name }`. */
export function typeAndName(positionals, command) {
  if (positionals.length === 0) return { type: undefined, name: undefined };
  if (positionals.length > 2) throw new CliError(`${command} takes TYPE[/NAME] or TYPE NAME, not ${positionals.length} arguments`);
  const [first, second] = positionals;
  const slash = first.indexOf('/');
  if (slash >= 0) {
    if (second !== undefined) throw new CliError(`${command}: give the name once: TYPE/NAME or TYPE NAME`);
    const type = first.slice(0, slash);
    const name = first.slice(slash + 1);
    if (!type || !name || name.includes('/')) throw new CliError(`${command}: "${first}" is not TYPE/NAME`);
    return { type, name };
  }
  return { type: first, name: second };
}

/** The phases of --phase (repeatable, comma lists), in their canonical spelling. */
export function phasesOf(values) {
  if (!values.phase) return undefined;
  const wanted = new Set();
  for (const word of values.phase.flatMap((v) => v.split(','))) {
    const phase = PHASES.find((p) => p.toLowerCase() === word.trim().toLowerCase());
    if (!phase) throw new CliError(`--phase: unknown phase "${word}": use ${PHASES.join(', ')}`);
    wanted.add(phase);
  }
  return wanted;
}

/** The arguments of get, checked before any cluster is asked. */
export function readGetArguments(args) {
  const { values, positionals } = parse(args, OPTIONS, 'get');
  if (values.help) return { help: true };
  const format = values.output ?? 'table';
  if (!OPTIONS.output.values.includes(format)) throw new CliError(`unknown output format "${format}" for get: use ${OPTIONS.output.values.join(', ')}`);
  const { type, name } = typeAndName(positionals, 'get');
  if (values['all-namespaces'] && values.namespace !== undefined) throw new CliError('get: -n and -A exclude each other: give one');
  if (values['all-types'] && type !== undefined) throw new CliError('get: --all-types lists every covered type: give it or TYPE, not both');
  if (values.selector !== undefined && name !== undefined) throw new CliError('get: -l selects among many objects: it cannot be given with NAME');
  if (values.watch && !['table', 'wide', 'name'].includes(format)) throw new CliError('get: --watch prints rows: use it with -o table, wide or name');
  return { values, type, name, format, phases: phasesOf(values), chunkSize: chunkSizeOf(values) };
}

/**
 * What a row says, every value from the core's view: `{ uid, name, namespace, kind, apiVersion,
 * createdAt, definition, origin, conflict?, phases, terminating, gpus, gpusText, ready, desired,
 * desiredText, readAt }` (`conflict`: the Kartas that claim the type together, when they do; the
 * row is then the catalog's reading). An amount that is not exact (a lower bound, or unknown)
 * is null, its text says which (`≥ 16`, `n/a`). `readAt`: when the objects were read (ms), the
 * time AGE is counted to, as kubectl counts it to the moment it has read the objects.
 */
export function rowOf(item, object, origins, readAt, conflict) {
  const view = item.view;
  const pods = view.table.pods;
  const origin = item.given !== undefined ? origins[item.given] : { label: 'catalog', name: item.definition?.name };
  return {
    uid: object.metadata?.uid,
    name: item.name,
    namespace: item.namespace,
    kind: item.kind,
    apiVersion: item.apiVersion,
    createdAt: item.creationTimestamp,
    definition: origin.name,
    origin: origin.label,
    ...(conflict ? { conflict } : {}),
    phases: view.phases,
    terminating: view.terminating === true,
    gpus: view.resources.lowerBounds?.includes('gpus') ? null : view.resources.gpus,
    gpusText: view.resources.text.gpus,
    ready: pods.ready ?? 0,
    desired: pods.incomplete ? null : pods.desired,
    desiredText: pods.text,
    readAt,
  };
}

/** The row's cells: PHASE says Terminating as kubectl does; AGE is counted to `row.readAt`. */
export function cellsOf(row, wide) {
  const phase = row.terminating ? 'Terminating' : row.phases.join(',');
  const cells = [row.name, row.namespace ?? '<none>', row.kind, phase, row.gpusText, `${row.ready}/${row.desiredText}`, humanAge(row.createdAt, row.readAt)];
  if (wide) cells.push(row.definition ?? '<none>', row.conflict ? `${row.origin} (conflict)` : row.origin);
  return cells.map(escapeTerminal);
}

const HEADER = ['NAME', 'NAMESPACE', 'TYPE', 'PHASE', 'GPUS', 'READY', 'AGE'];

/** `kind.group/name`, as kubectl get -o name prints an object. */
function nameOf(row) {
  const group = row.apiVersion.includes('/') ? row.apiVersion.split('/')[0] : '';
  return escapeTerminal(`${row.kind.toLowerCase()}${group ? `.${group}` : ''}/${row.name}`);
}

/** The rows, newest first, then by kind, then by name (as upstream sorts them). */
function sortRows(rows) {
  return rows.sort(
    (a, b) =>
      (Date.parse(b.createdAt ?? '') || 0) - (Date.parse(a.createdAt ?? '') || 0) ||
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** The JSON of a row (what -o json/yaml print): amounts as numbers (null when not exact) beside their texts. */
export function jsonOf(row) {
  const { uid: _, readAt: __, ready, desired, desiredText, ...rest } = row;
  return { ...rest, ready: { ready, desired, desiredText } };
}

export async function run(args) {
  const parsed = readGetArguments(args);
  if (parsed.help) return print(HELP, EXIT_OK);
  const { values, type, name, format, phases, chunkSize } = parsed;
  const api = await loadApi();
  const kube = await loadKube();
  const session = await withCluster(async () => {
    const connection = await connectWith(kube, values);
    const namespace = values['all-namespaces'] ? undefined : connection.namespace;
    const definitions = await clusterDefinitions(kube, api, connection, chunkSize);
    const listings = new kube.Listings(connection.client, connection.discovery, { namespace, chunkSize });
    const pods = connection.discovery.forKind('v1', 'Pod');
    /** Whether a definition in effect covers a type (the catalog's also at another version). */
    const covered = (apiVersion, kind) =>
      definitions.entries.some((e) => e.apiVersion === apiVersion && e.kind === kind) || Boolean(api.catalog.find(apiVersion, kind));
    let resource;
    if (type !== undefined) {
      resource = connection.discovery.resolve(type);
      if (!covered(resource.apiVersion, resource.kind)) {
        throw new CliError(
          `no definition covers ${resource.kind} (${resource.apiVersion}): "workload-map definitions --cluster" lists what is available`,
          EXIT_NO_DEFINITION,
        );
      }
      await listings.add(resource, { rows: true, labelSelector: values.selector, fieldSelector: name === undefined ? undefined : `metadata.name=${name}` });
      if (name !== undefined && listings.rowUids().size === 0) {
        throw new kube.KubeError(
          'not-found',
          `${resource.resource}${resource.group ? `.${resource.group}` : ''} "${name}" not found${resource.namespaced && namespace ? ` in namespace "${namespace}"` : ''}`,
        );
      }
    } else {
      for (const covered of coveredResources(api, connection.discovery, definitions.entries)) {
        await listings.add(covered, { rows: true, labelSelector: values.selector });
      }
    }
    if (pods && !(resource === pods && values.selector === undefined && name === undefined)) await listings.add(pods);
    // The owners up the controller chains (§4.1: an object is top level when no object of its
    // chain is of a covered type): from a pod or an object of a type no definition covers (a
    // ReplicaSet), every owner, to reach the workload; from a covered object, only covered
    // owners (a JobSet's Job is part of the JobSet; a Deployment owned by an uncovered kind
    // stays a row). Which object is a workload is then the core's reading of them all.
    const isPod = (o) => o.apiVersion === 'v1' && o.kind === 'Pod';
    await listings.addOwnerTypes((object, ref) => isPod(object) || !covered(object.apiVersion, object.kind) || covered(ref.apiVersion, ref.kind));
    return { listings, definitions, namespace, covered, resource };
  });

  const { listings, definitions, namespace, covered, resource } = session;
  // What is wrong with the Kartas of the types read is said once, whatever the rows are.
  const sameType = (apiVersion, kind) => kind === resource?.kind && (apiVersion.includes('/') ? apiVersion.split('/')[0] : '') === resource?.group;
  const kartaLines = kartaWarnings(kube, definitions, resource ? { reads: sameType, everyType: false } : {});
  /** The rows of the objects now held; ages are counted to `changedAt` (a watch's last change), else to when each row's object was read. */
  const rowsNow = (changedAt) => {
    let objects = listings.objects();
    // One reading by the core, as `describe -f` of these objects; `related: []` asks for the
    // pods' placement even when the scope holds no pod. A workload of a type no definition
    // covers (a DaemonSet, a bare ReplicaSet: fetched as owners) is no row and hides nothing
    // (§4.1: only covered owners make an object part of another): it leaves the List, and what
    // it held is read again, its top-level objects then rows of their own.
    let result = api.resolveAll(objects, definitions.options({ related: [] }));
    for (;;) {
      const uncovered = new Set(result.items.filter((item) => !covered(item.apiVersion, item.kind)).map((item) => item.index));
      if (uncovered.size === 0) break;
      objects = objects.filter((_, k) => !uncovered.has(k));
      result = api.resolveAll(objects, definitions.options({ related: [] }));
    }
    const rowUids = listings.rowUids();
    const rows = [];
    for (const item of result.items) {
      const object = objects[item.index];
      if (!rowUids.has(object.metadata?.uid) || !item.view) continue;
      const conflict = item.given === undefined ? definitions.conflicts.get(`${item.apiVersion}/${item.kind}`) : undefined;
      const row = rowOf(item, object, definitions.origins, changedAt ?? listings.readAt(object.metadata?.uid) ?? Date.now(), conflict);
      if (phases && !row.phases.some((p) => phases.has(p))) continue;
      rows.push(row);
    }
    return { rows: sortRows(rows) };
  };

  const wide = format === 'wide';
  const { rows } = rowsNow();
  if (format === 'json' || format === 'yaml') {
    const output = name !== undefined && rows.length === 1 ? jsonOf(rows[0]) : { items: rows.map(jsonOf), count: rows.length };
    print(format === 'json' ? JSON.stringify(output, null, 2) : toYaml(output));
  } else if (format === 'name') {
    if (rows.length > 0) print(rows.map(nameOf).join('\n'));
  } else if (rows.length > 0) {
    const header = wide ? [...HEADER, 'DEFINITION', 'ORIGIN'] : HEADER;
    print(table(values['no-headers'] ? rows.map((r) => cellsOf(r, wide)) : [header, ...rows.map((r) => cellsOf(r, wide))]).join('\n'));
  }
  if (rows.length === 0 && format !== 'json' && format !== 'yaml') {
    printError(namespace === undefined ? 'No workloads found in any namespace.' : `No workloads found in namespace ${escapeTerminal(namespace)}.`);
  }
  if (kartaLines.length > 0) printError(kartaLines.join('\n'));
  if (!values.watch) return EXIT_OK;
  return watchRows(listings, rowsNow, rows, { format, wide, kube });
}

/**
 * The covered types the cluster serves: each definition's apiVersion/kind, or, when the cluster
 * serves its group and kind at another version only, that version (the catalog reads it with
 * the definition written for another version, and says so). Each group and kind once.
 */
function coveredResources(api, discovery, entries) {
  const chosen = new Map();
  for (const entry of entries) {
    const exact = discovery.forKind(entry.apiVersion, entry.kind);
    const group = entry.apiVersion.includes('/') ? entry.apiVersion.split('/')[0] : '';
    const key = `${group}/${entry.kind}`;
    if (exact) chosen.set(key, exact);
    else if (!chosen.has(key)) {
      const other = discovery.resources.find((r) => r.group === group && r.kind === entry.kind && r.preferred && api.catalog.find(r.apiVersion, r.kind));
      if (other) chosen.set(key, other);
    }
  }
  return [...chosen.values()].filter((r) => r.verbs.length === 0 || r.verbs.includes('list'));
}

/**
 * Watches the listings and prints each row again when what it shows changes (kubectl get
 * --watch: no header, the first table's column widths). Ends only when the process does, or
 * with the error that stopped a watch.
 */
function watchRows(listings, rowsNow, first, { format, wide, kube }) {
  const key = (row) => JSON.stringify(jsonOf(row));
  const shown = new Map(first.map((row) => [row.uid, key(row)]));
  const widths = HEADER.map((h, i) => Math.max(h.length, ...first.map((r) => cellsOf(r, wide)[i]?.length ?? 0)));
  return new Promise((resolve, reject) => {
    let pending;
    /** When the last change was read: the rows it prints again are counted to it, as kubectl prints an event. */
    let changedAt;
    const refresh = () => {
      pending = undefined;
      const { rows } = rowsNow(changedAt);
      for (const row of rows) {
        const k = key(row);
        if (shown.get(row.uid) === k) continue;
        shown.set(row.uid, k);
        if (format === 'name') print(nameOf(row));
        else print(table([widths.map((w) => ''.padEnd(w)), cellsOf(row, wide)])[1]);
      }
    };
    listings.watch({
      onChange: () => {
        changedAt = Date.now();
        pending ??= setTimeout(refresh, 50);
      },
      onError: (error) => {
        listings.stop();
        if (pending) clearTimeout(pending);
        reject(cliErrorOf(kube, error));
      },
    });
    process.once('SIGINT', () => {
      listings.stop();
      resolve(EXIT_OK);
    });
  });
}
