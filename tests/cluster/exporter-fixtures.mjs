// What the exporter's cluster test and the scale benchmark share: starting the exporter as the
// CLI runs it, reading /metrics, applying CRDs from ../shared/crds in place, and creating the
// objects of a catalog test manifest in a real API server (owners first, ownerReferences given
// the created owners' uids, status written through the status subresource, since no controller
// or kubelet runs).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { parse } from 'yaml';

import { eventually, root } from './cluster.mjs';

export const sharedCrds = path.resolve(root, '..', 'shared', 'crds');

/** A CRD of ../shared/crds (gzip, read in place), created and Established. */
export async function applySharedCrd(cp, file) {
  const full = path.join(sharedCrds, file);
  if (!existsSync(full)) throw new Error(`${full} is missing (the shared CRDs are read in place)`);
  const crd = parse(gunzipSync(readFileSync(full)).toString('utf8'));
  const res = await cp.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (![201, 409].includes(res.status)) throw new Error(`creating ${file}: ${res.status} ${res.body.slice(0, 300)}`);
  await eventually(`${crd.metadata.name} is Established`, async () => {
    const got = await cp.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
    return got.json?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
  });
  const version = crd.spec.versions.find((v) => v.storage).name;
  await eventually(
    `${crd.metadata.name} is served`,
    async () => (await cp.request('GET', `/apis/${crd.spec.group}/${version}/${crd.spec.names.plural}`)).status === 200,
  );
  return crd;
}

/** The Karta CRD the package ships. */
export async function applyKartaCrd(cp) {
  const crd = parse(readFileSync(path.join(root, 'crd', 'kartas.run.ai.yaml'), 'utf8'));
  const res = await cp.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (![201, 409].includes(res.status)) throw new Error(`creating the Karta CRD: ${res.status} ${res.body}`);
  await eventually('kartas are served', async () => (await cp.request('GET', '/apis/run.ai/v1alpha1/kartas')).status === 200);
}

const PLURALS = { Pod: 'pods', Job: 'jobs', ReplicaSet: 'replicasets', Deployment: 'deployments', StatefulSet: 'statefulsets', JobSet: 'jobsets' };

/** The collection path of an object's type in its namespace. */
export function collectionOf(object) {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const plural = PLURALS[object.kind] ?? `${object.kind.toLowerCase()}s`;
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return `${base}/namespaces/${object.metadata.namespace}/${plural}`;
}

/**
 * Fills in what the API server requires and a test manifest leaves out: an image per container,
 * a Job's or a ReplicaSet's pod template and selector.
 */
export function realise(object) {
  const o = structuredClone(object);
  const images = (spec) => {
    for (const list of [spec?.containers, spec?.initContainers]) for (const c of list ?? []) c.image ??= 'registry.invalid/workload:1';
  };
  if (o.kind === 'Pod') images(o.spec);
  if (o.kind === 'Job' && o.apiVersion === 'batch/v1') {
    o.spec ??= {};
    o.spec.template ??= { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } };
  }
  if (['Deployment', 'StatefulSet'].includes(o.kind) && o.apiVersion === 'apps/v1') {
    o.spec.selector ??= { matchLabels: o.spec.template?.metadata?.labels ?? {} };
  }
  if (o.kind === 'ReplicaSet') {
    o.spec ??= {};
    o.spec.selector ??= { matchLabels: { rs: o.metadata.name } };
    o.spec.template ??= { metadata: { labels: { rs: o.metadata.name } }, spec: { containers: [{ name: 'main' }] } };
  }
  const walk = (value) => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value.containers)) images(value);
    for (const child of Object.values(value)) walk(child);
  };
  walk(o.spec);
  return o;
}

/**
 * Creates `objects` (owners before what they own, as a manifest lists them), giving each
 * ownerReference the uid of the created owner of that kind and name; then writes each object's
 * `status` through the status subresource. Returns the created objects by `Kind/name`.
 */
export async function createAll(cp, objects) {
  const created = new Map();
  for (const source of objects) {
    const object = realise(source);
    const status = object.status;
    delete object.status;
    for (const ref of object.metadata.ownerReferences ?? []) {
      const owner = created.get(`${ref.kind}/${ref.name}`);
      if (!owner) throw new Error(`${object.kind}/${object.metadata.name}: its owner ${ref.kind}/${ref.name} was not created first`);
      ref.uid = owner.metadata.uid;
    }
    const res = await cp.request('POST', collectionOf(object), object);
    if (res.status !== 201) throw new Error(`creating ${object.kind}/${object.metadata.name}: ${res.status} ${res.body.slice(0, 400)}`);
    let stored = res.json;
    if (status) stored = await setStatus(cp, stored, status);
    created.set(`${object.kind}/${object.metadata.name}`, stored);
  }
  return created;
}

/** Writes an object's status through the status subresource (a merge patch). */
export async function setStatus(cp, object, status) {
  const res = await cp.request('PATCH', `${collectionOf(object)}/${object.metadata.name}/status`, JSON.stringify({ status }), {
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  if (res.status !== 200) throw new Error(`status of ${object.kind}/${object.metadata.name}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.json;
}

/** A namespace, created. */
export async function createNamespace(cp, name) {
  const res = await cp.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (![201, 409].includes(res.status)) throw new Error(`namespace ${name}: ${res.status} ${res.body}`);
}

/**
 * Starts `workload-map exporter` (the CLI) on a free loopback port with `args`; resolves with
 * `{ child, url, stderr(), stop() }` once it says where it serves.
 */
export async function startExporter(args, env = {}) {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'workload-map.mjs'), 'exporter', '--listen', '127.0.0.1:0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const match = /serving \/metrics on ([^\s]+)/.exec(log);
      if (match) resolve(`http://${match[1]}`);
    });
    child.on('exit', (code) => reject(new Error(`the exporter exited (${code}) before serving: ${log}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    child,
    url,
    stderr: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** GET of the exporter; `{ status, body }`. */
export function fetchText(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

/** The sample lines of an exposition (no comments), the exporter's own families (and the definitions' and Kartas') left out unless `all`. */
export function samples(text, { all = false } = {}) {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .filter(
      (line) =>
        all || !(line.startsWith('workload_map_exporter_') || line.startsWith('workload_map_definition_info') || line.startsWith('workload_map_karta_')),
    );
}

/** The value of one series (`name{labels}` exactly as written), or undefined. */
export function valueOf(text, series) {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Waits until the exporter's /metrics satisfies `check(text)`; returns the text. */
export async function metricsWhen(url, what, check, timeoutMs = 30000) {
  return eventually(
    what,
    async () => {
      try {
        const { status, body } = await fetchText(`${url}/metrics`);
        return status === 200 && check(body) ? body : false;
      } catch {
        return false;
      }
    },
    timeoutMs,
  );
}

/** A catalog test manifest: its object (or objectFrom) and related objects, in order. */
export function catalogManifest(dir, file) {
  const read = (f) => parse(readFileSync(path.join(root, 'catalog', dir, 'tests', f), 'utf8'));
  const c = read(file);
  const object = c.object ?? read(c.objectFrom).object;
  return [object, ...(c.related ?? [])];
}
