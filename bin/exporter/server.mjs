// The exporter's HTTP server: /metrics (the Prometheus text format) and /healthz (200 once the
// first resolve is done, else 503).

import http from 'node:http';

import { CONTENT_TYPE } from './exposition.mjs';

/** `:9090`, `9090`, `127.0.0.1:9090`, `[::1]:9090` into `{ host, port }` (host undefined: every address). */
export function readListen(text) {
  const match = /^(?:\[([^\]]+)\]|([^:]*))?:?(\d+)$/.exec(text ?? '');
  const port = match ? Number(match[3]) : NaN;
  if (!match || !Number.isInteger(port) || port > 65535) return { error: `--listen takes [HOST]:PORT (found "${text}")` };
  const host = match[1] ?? (match[2] || undefined);
  return { host, port };
}

/** Starts the server; resolves with it once it listens (`server.address()` has the port). */
export function serve(exporter, { host, port }) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      const body = exporter.metrics();
      res.writeHead(200, { 'Content-Type': CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    } else if (path === '/healthz') {
      const ok = exporter.ready;
      res.writeHead(ok ? 200 : 503, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(ok ? 'ok\n' : 'not synced yet\n');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('workload-map exporter: /metrics, /healthz\n');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
