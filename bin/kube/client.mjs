// Requests to the API server: JSON reads, paged lists and watches, with the kubeconfig's
// credentials applied by @kubernetes/client-node (bearer tokens, client certificates, exec
// plugins) on every request, so that expiring credentials are refreshed as kubectl refreshes
// them.

import http from 'node:http';
import https from 'node:https';

import { KubeError, reasonOfStatus } from './errors.mjs';

/** kubectl's default page size (`--chunk-size`). */
export const DEFAULT_CHUNK_SIZE = 500;

/** What a request may take before it is given up (lists and reads; watches are not timed). */
const REQUEST_TIMEOUT_MS = 30000;

export class KubeClient {
  /**
   * @param {import('@kubernetes/client-node').KubeConfig} kubeConfig with the context to use current
   * @param {string} server the cluster's URL
   */
  constructor(kubeConfig, server) {
    this.kubeConfig = kubeConfig;
    this.server = server;
  }

  /** Node request options for `path`, with the credentials applied. */
  async #options(path, method, headers) {
    const url = new URL(`${this.server}${path}`);
    /** @type {import('node:https').RequestOptions} */
    const options = { method, headers: { Accept: 'application/json', 'User-Agent': 'workload-map', ...headers } };
    try {
      await this.kubeConfig.applyToHTTPSOptions(options);
    } catch (error) {
      throw new KubeError('config', `the kubeconfig's credentials cannot be used: ${error.message}`, { cause: error });
    }
    return { url, options };
  }

  /**
   * Sends a request; resolves `{ status, body }` (the text) for any answer, rejects with a
   * KubeError `unreachable` when there is none.
   *
   * @param {string} method
   * @param {string} path with its query
   * @param {{ body?: unknown, headers?: Record<string, string>, timeoutMs?: number, signal?: AbortSignal }} [options]
   *   signal: aborts the request (it then rejects with the abort's error)
   */
  async raw(method, path, { body, headers = {}, timeoutMs = REQUEST_TIMEOUT_MS, signal } = {}) {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const { url, options } = await this.#options(path, method, payload === undefined ? headers : { 'Content-Type': 'application/json', ...headers });
    if (signal) options.signal = signal;
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'http:' ? http : https).request(url, options, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => reject(unreachable(this.server, error)));
      });
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      request.on('error', (error) => reject(unreachable(this.server, error)));
      request.end(payload);
    });
  }

  /**
   * The JSON answer of a request, or a KubeError with the server's message and a reason from
   * its status (401 unauthorized, 403 forbidden, 404 not-found, 410 gone).
   */
  async json(method, path, options) {
    const { status, body } = await this.raw(method, path, options);
    let parsed;
    try {
      parsed = body ? JSON.parse(body) : undefined;
    } catch {
      parsed = undefined;
    }
    if (status < 200 || status >= 300) {
      const message = parsed && typeof parsed.message === 'string' ? parsed.message : body.trim().slice(0, 200) || `HTTP ${status}`;
      throw new KubeError(reasonOfStatus(status), `${method} ${path.split('?')[0]}: ${message} (HTTP ${status})`, { status });
    }
    if (parsed === undefined) throw new KubeError('api', `${method} ${path.split('?')[0]}: the answer is not JSON`, { status });
    return parsed;
  }

  /**
   * GET `path` as JSON.
   *
   * @param {string} path
   * @param {{ signal?: AbortSignal }} [options]
   */
  get(path, { signal } = {}) {
    return this.json('GET', path, { signal });
  }

  /**
   * Every item of a list, read in pages of `chunkSize` (`limit`/`continue`, as kubectl's
   * `--chunk-size`; 0 reads it at once). Items get the list's `apiVersion` and `kind` (derived
   * from the list's kind) when they lack them, as `kubectl get -o yaml` prints them. Resolves
   * `{ items, resourceVersion }`. With `onPage(items)`, each page's items are handed to it as they
   * come and not collected (`items` is then empty): a large collection is never held twice.
   *
   * @param {string} path the collection, e.g. `/apis/batch/v1/namespaces/ml/jobs`
   * @param {{ chunkSize?: number, labelSelector?: string, fieldSelector?: string, apiVersion?: string, kind?: string, signal?: AbortSignal, onPage?: (items: any[]) => void }} [options]
   */
  async list(path, { chunkSize = DEFAULT_CHUNK_SIZE, labelSelector, fieldSelector, apiVersion, kind, signal, onPage } = {}) {
    const items = [];
    let token;
    let resourceVersion = '';
    do {
      const query = new URLSearchParams();
      if (chunkSize > 0) query.set('limit', String(chunkSize));
      if (token) query.set('continue', token);
      if (labelSelector) query.set('labelSelector', labelSelector);
      if (fieldSelector) query.set('fieldSelector', fieldSelector);
      const page = await this.get(`${path}${query.size > 0 ? `?${query}` : ''}`, { signal });
      const itemKind = kind ?? (typeof page.kind === 'string' && page.kind.endsWith('List') ? page.kind.slice(0, -4) : undefined);
      const pageItems = (page.items ?? []).map((item) =>
        item.kind && item.apiVersion ? item : { apiVersion: apiVersion ?? page.apiVersion, kind: itemKind, ...item },
      );
      if (onPage) onPage(pageItems);
      else for (const item of pageItems) items.push(item);
      token = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
    } while (token);
    return { items, resourceVersion };
  }

  /**
   * Watches a collection from `resourceVersion`: calls `onEvent({ type, object })` for each
   * event (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) and `onEnd(error?)` when the stream ends
   * (the server closes watches after a while: the caller watches again from the last
   * resourceVersion, or lists again after a 410 ERROR event). `onOpen()` is called once the
   * server has accepted the watch; `timeoutSeconds` asks the server to end it after that long.
   * Returns a function that stops it.
   *
   * @param {string} path the collection
   * @param {{ resourceVersion?: string, labelSelector?: string, timeoutSeconds?: number, onOpen?: () => void, onEvent: (event: { type: string, object: any }) => void, onEnd: (error?: Error) => void }} options
   */
  watch(path, { resourceVersion, labelSelector, timeoutSeconds, onOpen, onEvent, onEnd }) {
    const query = new URLSearchParams({ watch: '1', allowWatchBookmarks: 'true' });
    if (resourceVersion) query.set('resourceVersion', resourceVersion);
    if (labelSelector) query.set('labelSelector', labelSelector);
    if (timeoutSeconds) query.set('timeoutSeconds', String(timeoutSeconds));
    let request;
    let stopped = false;
    let ended = false;
    const end = (error) => {
      if (ended) return;
      ended = true;
      if (!stopped) onEnd(error);
    };
    this.#options(`${path}?${query}`, 'GET', {}).then(
      ({ url, options }) => {
        if (stopped) return;
        request = (url.protocol === 'http:' ? http : https).request(url, options, (response) => {
          if ((response.statusCode ?? 0) >= 300) {
            const chunks = [];
            response.on('data', (chunk) => chunks.push(chunk));
            response.on('end', () => {
              const status = response.statusCode ?? 0;
              end(new KubeError(reasonOfStatus(status), `watch ${path}: HTTP ${status} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`, { status }));
            });
            return;
          }
          onOpen?.();
          let buffered = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            buffered += chunk;
            let newline;
            while ((newline = buffered.indexOf('\n')) >= 0) {
              const line = buffered.slice(0, newline).trim();
              buffered = buffered.slice(newline + 1);
              if (!line) continue;
              try {
                onEvent(JSON.parse(line));
              } catch (error) {
                request.destroy(/** @type {Error} */ (error));
                return;
              }
            }
          });
          response.on('end', () => end());
          response.on('error', (error) => end(error));
          // A connection cut mid-stream (the server gone) ends the watch with an error.
          response.on('aborted', () => end(unreachable(this.server, new Error('the connection was cut'))));
        });
        request.on('error', (error) => end(stopped ? undefined : unreachable(this.server, error)));
        request.end();
      },
      (error) => end(error),
    );
    return () => {
      stopped = true;
      request?.destroy();
    };
  }
}

function unreachable(server, error) {
  return new KubeError('unreachable', `cannot reach the cluster at ${server}: ${error.message}`, { cause: error });
}
