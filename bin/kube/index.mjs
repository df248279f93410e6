// Reading a live cluster, for the CLI's get/describe/definitions and the exporter: the
// kubeconfig (config.mjs), requests, paged lists and watches (client.mjs), discovery and type
// tokens (discovery.mjs), the objects of a workload and of whole types (objects.mjs), and the
// definitions in effect, the catalog overridden by the cluster's Kartas (definitions.mjs). Every
// problem is a KubeError with a reason (errors.mjs). Nothing here reads a workload: the core does.

import { KubeClient } from './client.mjs';
import { loadKubeConfig } from './config.mjs';
import { Discovery } from './discovery.mjs';

export { DEFAULT_CHUNK_SIZE, KubeClient } from './client.mjs';
export { kubeconfigFiles, loadKubeConfig } from './config.mjs';
export {
  conflictReport,
  droppedFields,
  effectiveDefinitions,
  kartaProblems,
  kartaReport,
  kartaText,
  kartaType,
  KARTA_RESOURCE,
  LAST_APPLIED,
  readKartas,
} from './definitions.mjs';
export { collectionPath, Discovery, objectPath } from './discovery.mjs';
export { KubeError } from './errors.mjs';
export { controllerOf, fetchWorkload, Listings, MAX_OWNER_HOPS } from './objects.mjs';

/**
 * A connection to the cluster the kubeconfig names: `{ client, discovery, namespace, context,
 * server, inCluster }` (discovery read once).
 *
 * @param {Parameters<typeof loadKubeConfig>[0]} [options]
 */
export async function connect(options = {}) {
  const config = await loadKubeConfig(options);
  const client = new KubeClient(config.kubeConfig, config.server);
  const discovery = await Discovery.read(client);
  return { client, discovery, namespace: config.namespace, context: config.context, server: config.server, inCluster: config.inCluster };
}
