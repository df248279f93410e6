// A real Kubernetes control plane for the tests: etcd and kube-apiserver, built from the Go module
// proxy (the Go module in tests/cluster/ pins both) into the user's cache folder once, then started
// on loopback as controller-runtime's envtest starts them: free ports, a temporary folder with the
// etcd data, a static token file (one admin token in system:masters), service-account signing
// keys made with node:crypto, and a cert dir in which kube-apiserver writes its self-signed
// serving certificate (which, with its CA, the clients then trust: no TLS check is switched off).
//
//   import { start } from './control-plane.mjs';
//   const cp = await start();          // builds once if needed; waits for /readyz
//   await cp.request('GET', '/api');   // { status, headers, body, json }
//   await cp.stop();                   // stops both and removes the temporary folder
//
// From a shell: `node scripts/control-plane.mjs build` builds (or finds) the binaries;
// `node scripts/control-plane.mjs run -- CMD ARGS...` starts the control plane, runs the command
// with WORKLOAD_MAP_CLUSTER_* and KUBECONFIG set to reach it, then stops it.

import { spawn, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { cacheRoot } from './toolchain.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const moduleDir = path.join(root, 'tests', 'cluster');

function log(message) {
  console.error(`[control-plane] ${message}`);
}

/** The pinned versions, read from tests/cluster/go.mod (its one source). */
export function versions() {
  const goMod = readFileSync(path.join(moduleDir, 'go.mod'), 'utf8');
  const of = (module) => {
    const match = new RegExp(`^\\s*(?:require\\s+)?${module.replace(/\./g, '\\.')}\\s+(v\\S+)`, 'm').exec(goMod);
    if (!match) throw new Error(`tests/cluster/go.mod requires no ${module}`);
    return match[1];
  };
  return { kubernetes: of('k8s.io/kubernetes'), etcd: of('go.etcd.io/etcd/server/v3') };
}

/**
 * The cache folder of this build: named after the versions and a hash of what the build reads
 * (go.mod, go.sum, the etcd main), so that a change of any of them builds anew.
 */
export function cacheDir() {
  const { kubernetes, etcd } = versions();
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum', path.join('etcd', 'main.go')]) hash.update(readFileSync(path.join(moduleDir, file)));
  return path.join(cacheRoot(), `control-plane-kubernetes-${kubernetes}-etcd-${etcd}-${hash.digest('hex').slice(0, 12)}`);
}

export function binaries() {
  const dir = cacheDir();
  return { etcd: path.join(dir, 'etcd'), kubeApiserver: path.join(dir, 'kube-apiserver') };
}

function goBuild(target, output) {
  const partial = `${output}.partial-${process.pid}`;
  // One package at a time and at the lowest priority: the machine is shared.
  // The release is stamped as Kubernetes' own build does, so that /version tells it.
  const { kubernetes } = versions();
  const [major, minor] = kubernetes.slice(1).split('.');
  const stamp = ['gitVersion', kubernetes, 'gitMajor', major, 'gitMinor', minor, 'gitTreeState', 'clean'].reduce(
    (acc, value, i, all) => (i % 2 ? acc : `${acc} -X k8s.io/component-base/version.${value}=${all[i + 1]}`),
    '',
  );
  // At low priority, so a developer's machine stays usable; on all cores (a first build in CI,
  // where nothing else runs, is most of the step's time: about 15 minutes on one busy core).
  const args = ['-n', '19', 'go', 'build', `-ldflags=-s -w${stamp}`, '-o', partial, target];
  const estimate = target === './etcd' ? 'about 2 minutes' : 'about 8 to 15 minutes';
  log(`building ${path.basename(output)} (once per version, ${estimate} on 2 cores): nice ${args.join(' ')} (in tests/cluster)`);
  const result = spawnSync('nice', args, { cwd: moduleDir, stdio: 'inherit', env: { ...process.env, GOWORK: 'off' } });
  if (result.error) throw new Error(`go build could not start (is Go installed?): ${result.error.message}`);
  if (result.status === 127) throw new Error('go build could not start: no `go` on PATH (Go is needed to build the test control plane)');
  if (result.status !== 0) throw new Error(`go build ${target} failed with exit code ${result.status ?? result.signal}`);
  renameSync(partial, output);
}

/** Builds etcd and kube-apiserver into the cache folder unless they are there; returns their paths. */
export function ensureBinaries() {
  const bins = binaries();
  mkdirSync(path.dirname(bins.etcd), { recursive: true });
  const started = Date.now();
  let built = false;
  if (!existsSync(bins.etcd)) {
    goBuild('./etcd', bins.etcd);
    built = true;
  }
  if (!existsSync(bins.kubeApiserver)) {
    goBuild('k8s.io/kubernetes/cmd/kube-apiserver', bins.kubeApiserver);
    built = true;
  }
  if (built) log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s into ${path.dirname(bins.etcd)}`);
  return bins;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function startProcess(name, bin, args, dir) {
  const logFile = path.join(dir, `${name}.log`);
  const out = createWriteStream(logFile);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  child.logFile = logFile;
  child.label = name;
  return child;
}

async function stopProcess(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer;
  const done = await Promise.race([child.exited.then(() => true), new Promise((resolve) => (timer = setTimeout(resolve, 15000, false)))]);
  clearTimeout(timer);
  if (!done) {
    log(`${child.label} did not stop within 15 s of SIGTERM: killing it`);
    child.kill('SIGKILL');
    await child.exited;
  }
}

/** Polls `check` until it returns true; fails early when `child` exits. */
async function waitFor(what, child, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${child.label} exited (${child.exitCode ?? child.signalCode}) before ${what}; its log ends:\n${tail(child.logFile)}`);
    }
    try {
      if (await check()) return;
    } catch (error) {
      last = error.message;
    }
    await sleep(200);
  }
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s (${last}); ${child.label}'s log ends:\n${tail(child.logFile)}`);
}

function httpGet(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
      .on('error', reject);
  });
}

/**
 * One HTTPS request to the API server, trusting only its own serving certificate's CA.
 * Returns `{ status, headers, body, json }` (json: the parsed body, when it is JSON).
 */
function apiRequest(base, token, ca, method, urlPath, body, options = {}) {
  const url = new URL(urlPath, base);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const headers = { Accept: 'application/json', Authorization: `Bearer ${options.token ?? token}`, ...options.headers };
  if (payload !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, headers, ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let json;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode, headers: res.headers, body: text, json });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

const running = new Set();
process.on('exit', () => {
  // A test run that ends without stop() (a crash) must not leave servers behind.
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Builds (once) and starts etcd and kube-apiserver; resolves when /readyz answers ok.
 * Returns `{ url, token, ca, caFile, kubeconfig, dir, processes, request(method, path, body?, options?), stop() }`.
 */
export async function start({ readyTimeoutMs = 180000 } = {}) {
  const bins = ensureBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), 'workload-map-control-plane-'));
  const children = [];
  const stop = async () => {
    for (const child of [...children].reverse()) {
      await stopProcess(child);
      running.delete(child);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [etcdClient, etcdPeer, securePort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const etcd = startProcess(
      'etcd',
      bins.etcd,
      ['--data-dir', path.join(dir, 'etcd'), '--listen-client-urls', etcdUrl, '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`],
      dir,
    );
    children.push(etcd);
    running.add(etcd);
    await waitFor('etcd answered /health', etcd, async () => JSON.parse((await httpGet(`${etcdUrl}/health`)).body).health === 'true', 60000);

    // Static token authentication: one admin token, in system:masters (all rights under RBAC).
    const token = randomBytes(24).toString('hex');
    const tokenFile = path.join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${token},workload-map-admin,workload-map-admin,"system:masters"\n`, { mode: 0o600 });
    // The service-account token signer: an RSA key pair, as envtest makes one.
    const certDir = path.join(dir, 'certs');
    mkdirSync(certDir);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const saKey = path.join(certDir, 'sa-signer.key');
    const saPub = path.join(certDir, 'sa-signer.pub');
    writeFileSync(saKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(saPub, publicKey.export({ type: 'spki', format: 'pem' }));

    const url = `https://127.0.0.1:${securePort}`;
    const apiserverArgs = [
      `--etcd-servers=${etcdUrl}`,
      `--cert-dir=${certDir}`,
      `--secure-port=${securePort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      // No endpoint for the `kubernetes` service: its address would be loopback, which Endpoints refuse.
      '--endpoint-reconciler-type=none',
      '--service-cluster-ip-range=10.0.0.0/24',
      '--allow-privileged=true',
      '--authorization-mode=RBAC',
      `--token-auth-file=${tokenFile}`,
      `--service-account-issuer=${url}/`,
      `--service-account-key-file=${saPub}`,
      `--service-account-signing-key-file=${saKey}`,
      // No controller manager runs, so nothing would create the default service accounts.
      '--disable-admission-plugins=ServiceAccount',
    ];
    let apiserver = startProcess('kube-apiserver', bins.kubeApiserver, apiserverArgs, dir);
    children.push(apiserver);
    running.add(apiserver);

    // kube-apiserver writes its self-signed serving certificate (with the CA that signed it) first.
    const certFile = path.join(certDir, 'apiserver.crt');
    await waitFor(
      'kube-apiserver wrote its serving certificate',
      apiserver,
      async () => existsSync(certFile) && readFileSync(certFile, 'utf8').includes('END CERTIFICATE'),
      readyTimeoutMs,
    );
    const ca = readFileSync(certFile, 'utf8');
    const request = (method, urlPath, body, options) => apiRequest(url, token, ca, method, urlPath, body, options);
    await waitFor(
      'kube-apiserver answered /readyz',
      apiserver,
      async () => {
        const res = await request('GET', '/readyz');
        if (res.status !== 200) throw new Error(`/readyz: ${res.status} ${res.body.slice(0, 200)}`);
        return true;
      },
      readyTimeoutMs,
    );

    const kubeconfig = path.join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: workload-map-test',
        '  cluster:',
        `    server: ${url}`,
        `    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
        'users:',
        '- name: workload-map-admin',
        '  user:',
        `    token: ${token}`,
        'contexts:',
        '- name: workload-map-test',
        '  context: {cluster: workload-map-test, user: workload-map-admin}',
        'current-context: workload-map-test',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );

    /**
     * Kills kube-apiserver (etcd keeps running), waits `downMs`, and starts it again on the same
     * port with the same certificate; resolves when it answers /readyz (for outage tests).
     */
    const restartApiServer = async (downMs = 5000) => {
      apiserver.kill('SIGKILL');
      await apiserver.exited;
      running.delete(apiserver);
      await sleep(downMs);
      const next = startProcess('kube-apiserver', bins.kubeApiserver, apiserverArgs, dir);
      children[children.indexOf(apiserver)] = next;
      running.add(next);
      apiserver = next;
      await waitFor(
        'kube-apiserver answered /readyz again',
        next,
        async () => {
          const res = await request('GET', '/readyz');
          if (res.status !== 200) throw new Error(`/readyz: ${res.status}`);
          return true;
        },
        readyTimeoutMs,
      );
    };

    return { url, token, ca, caFile: certFile, kubeconfig, dir, processes: children, request, stop, restartApiServer };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A control plane already started by `run` (its WORKLOAD_MAP_CLUSTER_* variables), or null.
 * Its `stop()` does nothing: the one that started it stops it.
 */
export function fromEnvironment(env = process.env) {
  const { WORKLOAD_MAP_CLUSTER_URL: url, WORKLOAD_MAP_CLUSTER_TOKEN: token, WORKLOAD_MAP_CLUSTER_CA_FILE: caFile } = env;
  if (!url || !token || !caFile) return null;
  const ca = readFileSync(caFile, 'utf8');
  return {
    url,
    token,
    ca,
    caFile,
    kubeconfig: env.KUBECONFIG,
    request: (method, urlPath, body, options) => apiRequest(url, token, ca, method, urlPath, body, options),
    stop: async () => {},
  };
}

/** The environment that points a child process (a test run) at a started control plane. */
export function environmentOf(cp) {
  return { WORKLOAD_MAP_CLUSTER_URL: cp.url, WORKLOAD_MAP_CLUSTER_TOKEN: cp.token, WORKLOAD_MAP_CLUSTER_CA_FILE: cp.caFile, KUBECONFIG: cp.kubeconfig };
}

/** Starts the control plane, runs `cmd args` against it (inheriting stdio), stops it; the exit code. */
export async function runWith(cmd, args) {
  const started = Date.now();
  const cp = await start();
  log(`ready at ${cp.url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  try {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...environmentOf(cp) } });
    return await new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    await cp.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, ...rest] = process.argv.slice(2);
  try {
    if (command === 'build') {
      const bins = ensureBinaries();
      console.log(`${bins.etcd}\n${bins.kubeApiserver}`);
    } else if (command === 'run' && rest[0] === '--' && rest.length > 1) {
      process.exitCode = await runWith(rest[1], rest.slice(2));
    } else {
      console.error('usage: node scripts/control-plane.mjs build | run -- CMD [ARGS...]');
      process.exitCode = 2;
    }
  } catch (error) {
    console.error(`[control-plane] ${error.message}`);
    process.exitCode = 1;
  }
}
