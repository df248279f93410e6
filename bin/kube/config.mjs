// The kubeconfig, read the way kubectl reads it: `--kubeconfig FILE` alone when given; else every
// file of KUBECONFIG (path-list separated; missing files skipped; the first file to set a value
// wins, the current context included); else ~/.kube/config; else the pod's service account
// (in-cluster: KUBERNETES_SERVICE_HOST/PORT and the mounted token and CA). `--context` picks
// another context; the namespace is `-n`, else the context's, else `default`. The
// @kubernetes/client-node KubeConfig holds the result (it applies the credentials: tokens, client
// certificates, exec plugins, auth providers) and is imported only when a cluster is asked for.

import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { KubeError } from './errors.mjs';

/** Where a pod's service account is mounted. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The kubeconfig files to read, in kubectl's order, or `[]` when none is set or present (the
 * caller then tries the in-cluster config).
 *
 * @param {{ kubeconfig?: string, env?: NodeJS.ProcessEnv, home?: string }} options
 * @returns {string[]}
 */
export function kubeconfigFiles({ kubeconfig, env = process.env, home = os.homedir() } = {}) {
  if (kubeconfig !== undefined) {
    if (!existsSync(kubeconfig)) throw new KubeError('config', `--kubeconfig ${kubeconfig}: no such file`);
    return [kubeconfig];
  }
  if (env.KUBECONFIG) return env.KUBECONFIG.split(path.delimiter).filter((file) => file && existsSync(file));
  const fallback = home ? path.join(home, '.kube', 'config') : '';
  return fallback && existsSync(fallback) ? [fallback] : [];
}

/**
 * The kubeconfig to talk to the cluster with: a client-node KubeConfig with the chosen context
 * current, and the namespace commands default to.
 *
 * @param {{ kubeconfig?: string, context?: string, namespace?: string, env?: NodeJS.ProcessEnv, home?: string, serviceAccountRoot?: string }} [options]
 * @returns {Promise<{ kubeConfig: import('@kubernetes/client-node').KubeConfig, context: string, namespace: string, server: string, inCluster: boolean }>}
 */
export async function loadKubeConfig(options = {}) {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const env = options.env ?? process.env;
  const files = kubeconfigFiles(options);
  const kubeConfig = new KubeConfig();
  let inCluster = false;
  if (files.length > 0) {
    const merged = { clusters: [], users: [], contexts: [], currentContext: undefined };
    for (const file of files) {
      const one = new KubeConfig();
      try {
        one.loadFromFile(file);
      } catch (error) {
        throw new KubeError('config', `${file}: not a kubeconfig (${error.message})`, { cause: error });
      }
      // kubectl's merge: the first file to name a cluster, user or context wins, and so does
      // the first current-context.
      for (const key of ['clusters', 'users', 'contexts']) {
        for (const item of one[key] ?? []) if (!merged[key].some((known) => known.name === item.name)) merged[key].push(item);
      }
      merged.currentContext ??= one.currentContext || undefined;
    }
    kubeConfig.loadFromOptions(merged);
  } else {
    // `serviceAccountRoot`: where the pod's file system is (tests give a folder of their own).
    const root = options.serviceAccountRoot ?? '';
    const dir = `${root}${SERVICE_ACCOUNT_DIR}`;
    if (!env.KUBERNETES_SERVICE_HOST || !env.KUBERNETES_SERVICE_PORT || !existsSync(path.join(dir, 'token'))) {
      throw new KubeError(
        'config',
        'no cluster configured: no kubeconfig (--kubeconfig, KUBECONFIG or ~/.kube/config) and not running in a pod with a service account',
      );
    }
    // As client-node's loadFromCluster, from `env` rather than the process's: the server from
    // the service's host and port, the token file read on each request, the mounted CA.
    const host = env.KUBERNETES_SERVICE_HOST.includes(':') ? `[${env.KUBERNETES_SERVICE_HOST}]` : env.KUBERNETES_SERVICE_HOST;
    const namespaceFile = path.join(dir, 'namespace');
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'in-cluster', server: `https://${host}:${env.KUBERNETES_SERVICE_PORT}`, caFile: path.join(dir, 'ca.crt'), skipTLSVerify: false }],
      users: [{ name: 'in-cluster', authProvider: { name: 'tokenFile', config: { tokenFile: path.join(dir, 'token') } } }],
      contexts: [
        {
          name: 'in-cluster',
          cluster: 'in-cluster',
          user: 'in-cluster',
          namespace: existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined,
        },
      ],
      currentContext: 'in-cluster',
    });
    inCluster = true;
  }
  if (options.context !== undefined) {
    if (!kubeConfig.getContextObject(options.context)) {
      const known = kubeConfig.getContexts().map((c) => c.name);
      throw new KubeError('config', `no context named "${options.context}" in the kubeconfig${known.length ? ` (contexts: ${known.join(', ')})` : ''}`);
    }
    kubeConfig.setCurrentContext(options.context);
  }
  const context = kubeConfig.getCurrentContext();
  if (!context || !kubeConfig.getContextObject(context)) {
    throw new KubeError(
      'config',
      context ? `the current context "${context}" is not in the kubeconfig` : 'the kubeconfig has no current context: give --context',
    );
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster || !cluster.server) throw new KubeError('config', `the context "${context}" names no cluster with a server`);
  const namespace = options.namespace || kubeConfig.getContextObject(context)?.namespace || 'default';
  return { kubeConfig, context, namespace: namespace.trim(), server: cluster.server.replace(/\/+$/, ''), inCluster };
}
