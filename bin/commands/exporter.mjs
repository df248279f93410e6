// `workload-map exporter`: the workloads of a cluster as Prometheus series (bin/exporter/).

import { readFileSync } from 'node:fs';

import { loadApi, parse, print, printError } from '../command.mjs';
import { CliError, EXIT_CLUSTER, EXIT_OK, EXIT_USAGE } from '../errors.mjs';

export const HELP = `Serve the cluster's workloads as Prometheus metrics: pod attribution, phases, pod counts, GPUs.

Usage:
  workload-map exporter [--listen [HOST]:PORT] [--kubeconfig FILE] [--context NAME]
                        [--shard I --total-shards N]

It watches the Karta definitions, every type they cover and pods (list, then watch), resolves
each workload with its definition (the catalog's, or a Karta of the cluster for the same type)
and serves the facts on /metrics; /healthz answers 200 once the first sync is done.
docs/exporter.md lists the metrics, the deployment and the recording rules.

Options:
  --listen [HOST]:PORT  Where to serve /metrics and /healthz (default :9090)
  --kubeconfig FILE     The kubeconfig (default: KUBECONFIG, ~/.kube/config, in-cluster)
  --context NAME        The kubeconfig context to use
  --shard I             This exporter's shard, 0 to N-1 (by a hash of the workload's uid)
  --total-shards N      How many shards there are (default 1)
  -h, --help            Show this help

Exit codes: 0 stopped (SIGTERM, SIGINT), 2 usage error, 5 the kubeconfig cannot be read or the
cluster cannot be reached at the start (as get and describe).
`;

export const OPTIONS = {
  listen: { type: 'string', valueName: '[HOST]:PORT', description: 'Where to serve /metrics' },
  kubeconfig: { type: 'string', valueName: 'FILE', description: 'The kubeconfig file' },
  context: { type: 'string', valueName: 'NAME', description: 'The kubeconfig context' },
  shard: { type: 'string', valueName: 'I', description: "This exporter's shard" },
  'total-shards': { type: 'string', valueName: 'N', description: 'How many shards there are' },
};

function packageVersion() {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? '';
  } catch {
    return '';
  }
}

export async function run(args) {
  const { values, positionals } = parse(args, OPTIONS, 'exporter');
  if (values.help) return print(HELP, EXIT_OK);
  if (positionals.length > 0) throw new CliError(`exporter takes no arguments ("${positionals[0]}")`, EXIT_USAGE);
  const { readListen, serve } = await import('../exporter/server.mjs');
  const { readSharding } = await import('../exporter/shard.mjs');
  const listen = readListen(values.listen ?? ':9090');
  if (listen.error) throw new CliError(listen.error, EXIT_USAGE);
  const sharding = readSharding(values.shard, values['total-shards']);
  if (sharding.error) throw new CliError(sharding.error, EXIT_USAGE);
  const api = await loadApi();
  // The kubeconfig and the requests are the live CLI's (bin/kube/), read the kubectl way.
  const { loadKubeConfig } = await import('../kube/config.mjs');
  const { KubeClient } = await import('../kube/client.mjs');
  const { Exporter } = await import('../exporter/exporter.mjs');
  let client;
  try {
    const config = await loadKubeConfig({ kubeconfig: values.kubeconfig, context: values.context });
    client = new KubeClient(config.kubeConfig, config.server);
  } catch (error) {
    throw new CliError(`cannot read the kubeconfig: ${error.message}`, EXIT_CLUSTER);
  }
  const log = (message) => printError(`workload-map exporter: ${message}`);
  const exporter = new Exporter({ api, client, shard: sharding.shard, totalShards: sharding.total, version: packageVersion(), log });
  const server = await serve(exporter, { host: listen.host, port: listen.port ?? 9090 });
  const address = server.address();
  log(`serving /metrics on ${typeof address === 'string' ? address : `${address.address}:${address.port}`} (shard ${sharding.shard} of ${sharding.total})`);
  try {
    await exporter.start();
  } catch (error) {
    server.close();
    throw new CliError(`cannot reach the cluster: ${error.message}`, EXIT_CLUSTER);
  }
  return new Promise((resolve) => {
    const stop = async () => {
      server.close();
      await exporter.stop();
      resolve(EXIT_OK);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
