// What the cluster tests and the scale benchmark share: the CRDs of ../shared/crds (read in place,
// never copied) and the Karta CRD applied and served; the objects of a catalog test manifest made
// real in an API server (owners first, every ownerReference given its created owner's uid, status
// written through the status subresource, since no controller or kubelet runs); the objects read
// back as `kubectl get -o yaml` exports them; the CLI run as a process; and the exporter started
// as the CLI runs it, with its /metrics read.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { parse } from 'yaml';

import { eventually, root } from './cluster.mjs';

export const sharedCrds = path.resolve(root, '..', 'shared', 'crds');
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const IMAGE = 'registry.invalid/workload:1';

/**
 * Why a test that reads ../shared/crds cannot run here, or undefined when it can. Under
 * CI=true the folder must be there: its absence throws, so the test fails instead of skipping.
 */
export function sharedCrdsMissing() {
  if (existsSync(sharedCrds)) return undefined;
  const reason = `${sharedCrds} is missing (the cluster tests read the shared CRDs in place)`;
  if (process.env.CI === 'true') throw new Error(reason);
  return reason;
}

/** A CRD of ../shared/crds (gzip), read in place. */
export function sharedCrd(file) {
  const full = path.join(sharedCrds, file);
  if (!existsSync(full)) throw new Error(`${full} is missing (the shared CRDs are read in place)`);
  return parse(gunzipSync(readFileSync(full)).toString('utf8'));
}

/** Creates a CRD (or finds it made) and waits until it is Established and every served version answers. */
export async function applyCrd(cp, crd) {
  const res = await cp.request('POST', CRDS, crd);
  if (![201, 409].includes(res.status)) throw new Error(`creating ${crd.metadata.name}: ${res.status} ${res.body.slice(0, 300)}`);
  await eventually(`${crd.metadata.name} is Established`, async () => {
    const got = await cp.request('GET', `${CRDS}/${crd.metadata.name}`);
    return got.json?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
  });
  for (const version of crd.spec.versions.filter((v) => v.served)) {
    const list = `/apis/${crd.spec.group}/${version.name}/${crd.spec.names.plural}`;
    await eventually(`${list} is served`, async () => (await cp.request('GET', list)).status === 200);
  }
  return crd;
}

/** A CRD of ../shared/crds, created, Established and served. */
export function applySharedCrd(cp, file) {
  return applyCrd(cp, sharedCrd(file));
}

/** The Karta CRD the package ships. */
export function applyKartaCrd(cp) {
  return applyCrd(cp, parse(readFileSync(path.join(root, 'crd', 'kartas.run.ai.yaml'), 'utf8')));
}

/** A namespace, created. */
export async function createNamespace(cp, name) {
  const res = await cp.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (![201, 409].includes(res.status)) throw new Error(`namespace ${name}: ${res.status} ${res.body}`);
}

/** The resource name of a kind (every kind these tests make is its lower-case kind plus "s"). */
export function pluralOf(kind) {
  return `${kind.toLowerCase()}s`;
}

/** The collection path of an object's type: in its namespace, or cluster-wide when it has none. */
export function collectionOf(object) {
  const base = object.apiVersion.includes('/') ? `/apis/${object.apiVersion}` : `/api/${object.apiVersion}`;
  const namespace = object.metadata.namespace;
  return namespace ? `${base}/namespaces/${namespace}/${pluralOf(object.kind)}` : `${base}/${pluralOf(object.kind)}`;
}

/** `Kind/namespace/name` (`Kind/name` for a cluster-scoped object): how the tests name an object. */
export function keyOf(object) {
  return [object.kind, object.metadata.namespace, object.metadata.name].filter((part) => part !== undefined).join('/');
}

/**
 * Fills in what the API server requires and a test manifest leaves out: an image per container,
 * a Job's pod template, and the selector and template of a Deployment, StatefulSet, DaemonSet or
 * ReplicaSet.
 */
export function realise(object) {
  const o = structuredClone(object);
  const images = (spec) => {
    for (const list of [spec?.containers, spec?.initContainers]) for (const c of list ?? []) c.image ??= IMAGE;
  };
  const walk = (value) => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value.containers)) images(value);
    for (const child of Object.values(value)) walk(child);
  };
  if (o.kind === 'Pod') {
    o.spec ??= {};
    o.spec.containers ??= [{ name: 'main' }];
  }
  if (o.kind === 'Job' && o.apiVersion === 'batch/v1') {
    o.spec ??= {};
    o.spec.template ??= { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } };
  }
  if (o.apiVersion === 'apps/v1' && ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(o.kind)) {
    o.spec ??= {};
    const labels = o.spec.template?.metadata?.labels ?? { 'workload-map.test/owner': o.metadata.name };
    o.spec.template ??= { spec: { containers: [{ name: 'main' }] } };
    o.spec.template.metadata ??= {};
    o.spec.template.metadata.labels ??= labels;
    o.spec.selector ??= { matchLabels: labels };
  }
  walk(o);
  return o;
}

/** Owners before what they own (the order of a manifest need not be: a leader pod owns a StatefulSet listed before it). */
function ownersFirst(objects) {
  const byKey = new Map(objects.map((o) => [keyOf(o), o]));
  const ordered = [];
  const placed = new Set();
  const visit = (object, chain) => {
    const key = keyOf(object);
    if (placed.has(key)) return;
    if (chain.has(key)) throw new Error(`${key}: its owners form a cycle`);
    chain.add(key);
    for (const ref of object.metadata.ownerReferences ?? []) {
      const owner = byKey.get([ref.kind, object.metadata.namespace, ref.name].filter((p) => p !== undefined).join('/'));
      if (owner) visit(owner, chain);
    }
    placed.add(key);
    ordered.push(object);
  };
  for (const object of objects) visit(object, new Set());
  return ordered;
}

/**
 * Creates `objects` (each owner before what it owns), giving each ownerReference the uid of the
 * created owner of that kind and name in the object's namespace; then writes each object's
 * `status` through the status subresource. An object already in `created` (cases share a pod of
 * no workload) is made once. Returns `created`: the objects as the server returned them, by
 * `keyOf`.
 *
 * @param {{ fieldValidation?: 'Strict' | 'Warn' | 'Ignore' }} [options] how the server checks unknown fields
 */
export async function createAll(cp, objects, created = new Map(), { fieldValidation } = {}) {
  for (const source of ownersFirst(objects)) {
    if (created.has(keyOf(source))) continue;
    const object = realise(source);
    const status = object.status;
    delete object.status;
    for (const ref of object.metadata.ownerReferences ?? []) {
      const owner = created.get([ref.kind, object.metadata.namespace, ref.name].filter((p) => p !== undefined).join('/'));
      if (!owner) throw new Error(`${keyOf(object)}: its owner ${ref.kind}/${ref.name} was not created first`);
      ref.uid = owner.metadata.uid;
    }
    const query = fieldValidation ? `?fieldValidation=${fieldValidation}` : '';
    const res = await cp.request('POST', `${collectionOf(object)}${query}`, object);
    if (res.status !== 201) throw new Error(`creating ${keyOf(object)}: ${res.status} ${res.body.slice(0, 400)}`);
    let stored = res.json;
    if (status) stored = await setStatus(cp, stored, status);
    created.set(keyOf(object), stored);
  }
  return created;
}

/** Writes an object's status through the status subresource (a merge patch); returns the object. */
export async function setStatus(cp, object, status) {
  const res = await cp.request('PATCH', `${collectionOf(object)}/${object.metadata.name}/status`, JSON.stringify({ status }), {
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  if (res.status !== 200) throw new Error(`status of ${keyOf(object)}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.json;
}

/** The object as the server has it now. */
export async function readBack(cp, object) {
  const res = await cp.request('GET', `${collectionOf(object)}/${object.metadata.name}`);
  if (res.status !== 200) throw new Error(`reading ${keyOf(object)}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.json;
}

/** A catalog test manifest: its object (or objectFrom) and related objects, in order. */
export function catalogManifest(dir, file) {
  const read = (f) => parse(readFileSync(path.join(root, 'catalog', dir, 'tests', f), 'utf8'));
  const c = read(file);
  const object = c.object ?? read(c.objectFrom).object;
  return [object, ...(c.related ?? [])];
}

/**
 * Every object of some types as `kubectl get TYPES -A -o yaml` exports them: a List whose items
 * carry their apiVersion and kind. `types` are `[apiVersion, kind, listPath]`.
 */
export async function listAsKubectl(cp, types, filter = () => true) {
  const items = [];
  for (const [apiVersion, kind, listPath] of types) {
    const res = await cp.request('GET', listPath);
    if (res.status !== 200) throw new Error(`${listPath}: ${res.status} ${res.body.slice(0, 300)}`);
    for (const item of res.json.items) if (filter(item)) items.push({ apiVersion, kind, ...item });
  }
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items };
}

/**
 * The version kubectl reads a group at (its preferred version in discovery): `v1` for the core
 * group.
 */
export async function preferredVersion(cp, group) {
  if (group === '') return 'v1';
  const res = await cp.request('GET', `/apis/${group}`);
  if (res.status !== 200) throw new Error(`/apis/${group}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.json.preferredVersion.groupVersion;
}

/** Runs `file args` and resolves `{ code, signal, stdout, stderr }`. */
export function runProcess(file, args, env, { cwd = root } = {}) {
  // Never spawnSync: the test process pipes the control plane's logs, and a blocked event loop
  // would stall the API server on a full pipe.
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The environment of this process without colour settings and KUBECONFIG. */
export function baseEnv() {
  const { FORCE_COLOR, NO_COLOR, KUBECONFIG, ...inherited } = process.env;
  return inherited;
}

export const CLI = path.join(root, 'bin', 'workload-map.mjs');

/** Runs the CLI with a kubeconfig: `{ code, signal, stdout, stderr }`. */
export function runCli(args, { kubeconfig, env = {} } = {}) {
  return runProcess(process.execPath, [CLI, ...args], { ...baseEnv(), ...(kubeconfig ? { KUBECONFIG: kubeconfig } : {}), ...env });
}

/**
 * Starts `workload-map exporter` (the CLI) on a free loopback port with `args`; resolves with
 * `{ child, url, stderr(), stop() }` once it says where it serves.
 */
export async function startExporter(args, env = {}) {
  const child = spawn(process.execPath, [CLI, 'exporter', '--listen', '127.0.0.1:0', ...args], {
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
