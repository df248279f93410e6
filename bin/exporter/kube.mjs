// The exporter's access to the API server: kubeconfig read the kubectl way through
// @kubernetes/client-node (--kubeconfig, else KUBECONFIG, else ~/.kube/config, else the
// in-cluster service account; --context), and plain HTTPS requests with the credentials it
// applies (token, client certificate, CA), so that lists are paged and watches streamed as the
// exporter needs them.

import http from 'node:http';
import https from 'node:https';

/** An error answer of the API server, with its HTTP status. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads the kubeconfig as kubectl does; `{ kc, server }`.
 * @param {{ kubeconfig?: string, context?: string }} [options]
 */
export async function loadKubeConfig({ kubeconfig, context } = {}) {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if (kubeconfig) kc.loadFromFile(kubeconfig);
  else kc.loadFromDefault();
  if (context) {
    if (!kc.getContexts().some((c) => c.name === context)) throw new Error(`the kubeconfig has no context "${context}"`);
    kc.setCurrentContext(context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('no cluster in the kubeconfig (set KUBECONFIG, --kubeconfig or run in a cluster)');
  return { kc, server: cluster.server };
}

/** A client of one API server. */
export class KubeClient {
  constructor(kc, server) {
    this.kc = kc;
    this.server = server.replace(/\/+$/, '');
  }

  /** @param {{ kubeconfig?: string, context?: string }} [options] */
  static async connect(options) {
    const { kc, server } = await loadKubeConfig(options);
    return new KubeClient(kc, server);
  }

  async #options(method, path, signal) {
    const url = new URL(this.server + path);
    const options = { method, headers: { Accept: 'application/json' }, signal };
    await this.kc.applyToHTTPSOptions(options);
    return { url, options, transport: url.protocol === 'http:' ? http : https };
  }

  /**
   * One request; resolves with the parsed JSON body, rejects with an ApiError for a status >= 400.
   * @param {string} path
   * @param {{ signal?: AbortSignal }} [options]
   * @returns {Promise<any>}
   */
  async get(path, { signal } = {}) {
    const { url, options, transport } = await this.#options('GET', path, signal);
    return new Promise((resolve, reject) => {
      const req = transport.request(url, options, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {}
          if (res.statusCode >= 400) reject(new ApiError(res.statusCode, `GET ${path}: ${res.statusCode} ${json?.message ?? text.slice(0, 200)}`));
          else if (json === undefined) reject(new ApiError(res.statusCode, `GET ${path}: not JSON`));
          else resolve(json);
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  /**
   * A watch: calls `onEvent(event)` for every event line the server streams; resolves when the
   * server ends the stream, rejects on a connection error or an error status (ApiError).
   * `onOpen` is called when the server has accepted the watch.
   * @param {string} path
   * @param {(event: any) => void} onEvent
   * @param {{ signal?: AbortSignal, onOpen?: () => void }} [options]
   * @returns {Promise<void>}
   */
  async watch(path, onEvent, { signal, onOpen = () => {} } = {}) {
    const { url, options, transport } = await this.#options('GET', path, signal);
    return new Promise((resolve, reject) => {
      const req = transport.request(url, options, (res) => {
        if (res.statusCode >= 400) {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => reject(new ApiError(res.statusCode, `watch ${path}: ${res.statusCode} ${text.slice(0, 200)}`)));
          return;
        }
        onOpen();
        res.setEncoding('utf8');
        let buffered = '';
        res.on('data', (chunk) => {
          buffered += chunk;
          let newline;
          while ((newline = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, newline);
            buffered = buffered.slice(newline + 1);
            if (!line.trim()) continue;
            let event;
            try {
              event = JSON.parse(line);
            } catch {
              req.destroy(new Error(`watch ${path}: a line that is not JSON`));
              return;
            }
            onEvent(event);
          }
        });
        res.on('error', reject);
        res.on('aborted', () => reject(new Error(`watch ${path}: the connection was cut`)));
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
  }
}
