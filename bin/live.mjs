// What the commands that read a live cluster share (get, describe TYPE/NAME, definitions
// --cluster): the kubectl options that choose the cluster, the connection, and the exit codes
// of cluster problems. bin/kube (and @kubernetes/client-node with it) is imported only here, only
// when a cluster is asked for, so that the offline commands never load it.

import { CliError, EXIT_CLUSTER, EXIT_NOT_FOUND } from './errors.mjs';
import { escapeTerminal } from './terminal.mjs';

/** The options that choose the cluster, as kubectl names them. */
export const CLUSTER_OPTIONS = {
  kubeconfig: { type: 'string', valueName: 'FILE', description: 'The kubeconfig file (else KUBECONFIG, ~/.kube/config, in-cluster)' },
  context: { type: 'string', valueName: 'NAME', description: 'The kubeconfig context to use' },
  namespace: { type: 'string', short: 'n', valueName: 'NAMESPACE', description: 'The namespace (else the context’s, else default)' },
  'chunk-size': { type: 'string', valueName: 'N', description: 'Read lists in pages of N (default 500; 0: at once)' },
};

/** The help lines of CLUSTER_OPTIONS. */
export const CLUSTER_HELP = `      --kubeconfig FILE  The kubeconfig (else every file of KUBECONFIG, else ~/.kube/config,
                         else the pod's service account when run in a cluster)
      --context NAME     The kubeconfig context to use (else its current context)
  -n, --namespace NS     The namespace (else the context's, else "default")
      --chunk-size N     Read lists in pages of N objects (default 500, as kubectl; 0: at once)`;

/** The page size of --chunk-size. */
export function chunkSizeOf(values) {
  if (values['chunk-size'] === undefined) return 500;
  const size = Number(values['chunk-size']);
  if (!/^\d+$/.test(values['chunk-size']) || !Number.isSafeInteger(size))
    throw new CliError(`--chunk-size takes a whole number (0: no paging), not "${values['chunk-size']}"`);
  return size;
}

/** bin/kube, loaded on first use. */
export function loadKube() {
  return import('./kube/index.mjs');
}

/**
 * Runs `work(kube)` and turns a cluster problem into a CliError: not found exits 3, every other
 * cluster problem (no kubeconfig, no answer, credentials refused) 5.
 *
 * @template T
 * @param {(kube: typeof import('./kube/index.mjs')) => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withCluster(work) {
  const kube = await loadKube();
  try {
    return await work(kube);
  } catch (error) {
    throw cliErrorOf(kube, error);
  }
}

/** A KubeError as the CLI says it (other errors as they are). */
export function cliErrorOf(kube, error) {
  if (!(error instanceof kube.KubeError)) return error;
  if (error.reason === 'not-found') return new CliError(error.message, EXIT_NOT_FOUND);
  const hint =
    error.reason === 'unauthorized'
      ? ' (the credentials were refused: check the kubeconfig user or its token)'
      : error.reason === 'forbidden'
        ? ' (the credentials may not read this)'
        : '';
  return new CliError(`${error.message}${hint}`, EXIT_CLUSTER);
}

/** Connects with the options of a command (CLUSTER_OPTIONS). */
export function connectWith(kube, values) {
  return kube.connect({ kubeconfig: values.kubeconfig, context: values.context, namespace: values.namespace });
}

/**
 * The definitions in effect on the cluster: the catalog overridden by its Kartas
 * (bin/kube/definitions.mjs), and the `resolveAll` options that read with them.
 */
export async function clusterDefinitions(kube, api, connection, chunkSize) {
  return definitionsOf(kube, api, await kube.readKartas(connection.client, connection.discovery, { chunkSize }));
}

/**
 * The definitions in force given `kartas` (Karta objects, from the cluster or from the objects
 * `describe -f` reads: an export of a cluster holds its Kartas too), as clusterDefinitions()
 * gives them.
 *
 * @param {any} kube bin/kube/index.mjs, or bin/kube/definitions.mjs alone
 * @param {any} api
 * @param {any[]} kartas
 */
export function definitionsOf(kube, api, kartas) {
  const effective = kube.effectiveDefinitions(api, kartas);
  /** @param {{}} [more] */
  const options = (more = {}) => (effective.texts.length > 0 ? { definitions: effective.texts, catalog: true, ...more } : { catalog: true, ...more });
  return { ...effective, options };
}

/**
 * The warnings of the Kartas that bear on what a command reads, as lines for standard error:
 * each type two Kartas claim, and each broken Karta in force (errors or warnings), once each,
 * when `reads(apiVersion, kind)` says the command reads that type; a Karta naming no root type
 * when `everyType`. The first line of each warning starts with "warning: ".
 *
 * @param {any} kube bin/kube/index.mjs, or bin/kube/definitions.mjs alone
 * @param {ReturnType<typeof definitionsOf>} definitions
 * @param {{ reads?: (apiVersion: string, kind: string) => boolean, everyType?: boolean }} [scope]
 */
export function kartaWarnings(kube, definitions, { reads = () => true, everyType = true } = {}) {
  const lines = [];
  for (const type of definitions.conflicts.keys()) {
    const slash = type.lastIndexOf('/');
    if (reads(type.slice(0, slash), type.slice(slash + 1))) lines.push(`warning: ${kube.conflictReport(definitions, type)}`);
  }
  for (const karta of definitions.kartas) {
    if (karta.state === 'no-root-kind' ? !everyType : !reads(karta.apiVersion, karta.kind)) continue;
    const [first, ...rest] = kube.kartaReport(karta);
    if (first !== undefined) lines.push(`warning: ${first}`, ...rest);
  }
  return lines.map(escapeTerminal);
}

/** kubectl's age of a timestamp: `45s`, `3m12s`, `5h`, `12d`, `<unknown>`. */
export function humanAge(timestamp, now = Date.now()) {
  const time = timestamp ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(time)) return '<unknown>';
  const seconds = Math.floor((now - time) / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  const both = (a, unitA, b, unitB) => (b === 0 ? `${a}${unitA}` : `${a}${unitA}${b}${unitB}`);
  if (minutes < 10) return both(minutes, 'm', seconds % 60, 's');
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return both(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return both(Math.floor(hours / 24), 'd', hours % 24, 'h');
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) return both(Math.floor(hours / 24 / 365), 'y', Math.floor(hours / 24) % 365, 'd');
  return `${Math.floor(hours / 24 / 365)}y`;
}
