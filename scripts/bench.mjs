// `npm run bench`: the corpus pass of issue 12, every row of its table in one run.
//
//   - every STATE event of every recording in the conformance corpus (../shared/conformance,
//     read in place), each resolved with its recording's definition, compiled once per definition:
//       * in Node from JS objects (the `yaml` package's parse of the recording),
//       * in Node from YAML text (`yaml.stringify` of each event's object),
//       * the `yaml` package's parse of the same texts, the floor the first two are measured against,
//       * natively, the same texts through examples/bench.rs (`cargo --profile bench`);
//   - the gzip -9 size of pkg/workload_map_bg.wasm;
//   - 2,000 compiles of one catalog definition text (`new Definition` with the handles kept, and
//     with free() after each; `validate`): ms each and the RSS growth (src/cache.rs shares one
//     compiled definition between them);
//   - checking a definition against the largest CRD of ../shared/crds (2.7 MB) in Node
//     (`checkDefinition`: read, index and check; then again with the schema kept);
//   - the playground's keystroke-to-DOM latency (tests/bench/keystroke.mjs) when www/dist/ and
//     Chromium are there.
//
// It also prints a row per speed lever of issue 21, measured in the same run:
//   - plain paths without jaq (src/expr/jq/fast.rs): the native passes with and without them
//     (examples/bench.rs turns them off through a hidden switch);
//   - per-crate opt-levels (Cargo.toml's profile `release-hot`): first, the bench builds that
//     variant of the main .wasm (scripts/build-hot.mjs, into target/hot: minutes the first time,
//     cargo's incremental work is kept; pkg/ is not touched). The Node passes then run on pkg/ as
//     built and, interleaved, on a copy of pkg/ with that .wasm (same glue); both gzip sizes are
//     printed. A failed build is a row saying so, with the first lines of the error.
//     --compare-wasm=FILE measures FILE instead (a module built with other settings from the same
//     sources as pkg/), without building; --no-hot skips the build and the row says so.
//
// Options: --no-native, --no-playground, --no-scale (skips describe and resolveAll at scale),
// --rounds=N (timed rounds per pass, default 15), --no-hot, --compare-wasm=FILE.
// Needs `npm run build` first (and `node www/build.mjs` for the playground rows). Without the
// corpus it says so and exits 0 (and builds no variant).

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import YAML from 'yaml';
import { scaleRows } from './bench-scale.mjs';
import { buildHot, hotProfile } from './build-hot.mjs';
import { replicatedJobSet } from '../tests/www/generated-manifests.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(root, '..', 'shared', 'conformance');
const args = new Set(process.argv.slice(2));
const roundsArg = process.argv.find((a) => a.startsWith('--rounds='));
const ROUNDS = roundsArg ? Math.max(3, Number(roundsArg.slice('--rounds='.length)) || 15) : 15;
const compareWasm = process.argv.find((a) => a.startsWith('--compare-wasm='))?.slice('--compare-wasm='.length);

/**
 * The module the lever of per-crate opt-levels compares with pkg/'s: `{ wasm, file, label }` (the
 * `release-hot` variant, built now by scripts/build-hot.mjs, or --compare-wasm=FILE), or
 * `{ label, skipped }` (--no-hot), or `{ label, error }` when the build failed.
 */
function leverModule() {
  if (compareWasm) return { wasm: path.resolve(compareWasm), file: compareWasm, label: path.basename(compareWasm) };
  const label = `per-crate opt-levels (${hotProfile})`;
  if (args.has('--no-hot')) return { label, skipped: true };
  console.log(`[bench] building the ${hotProfile} .wasm into target/hot (scripts/build-hot.mjs: cargo, wasm-bindgen, wasm-opt; minutes the first time) ...`);
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  try {
    const wasm = buildHot({ quiet: true });
    console.log(`[bench] the ${hotProfile} .wasm is built (${seconds()}): ${path.relative(root, wasm)}`);
    return { wasm, file: path.relative(root, wasm), label };
  } catch (error) {
    const lines = errorLines(error);
    console.log(`[bench] the ${hotProfile} build failed after ${seconds()}; the bench goes on without it:`);
    for (const line of lines) console.log(`[bench]   ${line}`);
    return { label, error: `the ${hotProfile} build failed: ${lines.slice(0, 3).join(' / ')}` };
  }
}

/**
 * The first lines of a failed step: its message, then what the tool printed from its first
 * `error` line on (cargo prints what it compiled and its warnings before), at most 8 lines.
 */
export function errorLines(error) {
  const output = String(error?.output ?? '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const first = output.findIndex((line) => /^error\b/i.test(line));
  return [String(error?.message ?? error), ...output.slice(Math.max(0, first))].slice(0, 8);
}

/**
 * A copy of pkg/ whose .wasm is `wasm` (built from the same sources with other settings):
 * `{ dir, wm, close }`, `dir` the copy's package folder, `wm` its CommonJS entry loaded.
 */
export function packageWith(wasm, { load = true } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'wm-bench-wasm-'));
  cpSync(path.join(root, 'pkg'), path.join(dir, 'pkg'), { recursive: true });
  cpSync(path.resolve(wasm), path.join(dir, 'pkg', 'workload_map_bg.wasm'));
  // wasm-bindgen names its closure shims after a hash that differs between builds: point the
  // glue's names at the other module's (same shims, same order).
  const shims = (file) =>
    WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(file)))
      .map((e) => e.name)
      .filter((n) => n.startsWith('wasm_bindgen__convert__closures_'));
  const ours = shims(path.join(root, 'pkg', 'workload_map_bg.wasm'));
  const theirs = shims(wasm);
  for (const file of readdirSync(path.join(dir, 'pkg')).filter((f) => /\.(c|m)?js$/.test(f))) {
    const full = path.join(dir, 'pkg', file);
    writeFileSync(
      full,
      ours.reduce((text, name, i) => text.split(name).join(theirs[i] ?? name), readFileSync(full, 'utf8')),
    );
  }
  return {
    dir: path.join(dir, 'pkg'),
    wm: load ? createRequire(import.meta.url)(path.join(dir, 'pkg', 'node.cjs')) : undefined,
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The events of the corpus: `{ definition: index, object, text }`, with the definition texts. */
export function corpusEvents(dir = corpus) {
  const expectations = YAML.parse(readFileSync(path.join(dir, 'expectations.yaml'), 'utf8'));
  const definitions = [];
  const index = new Map();
  const events = [];
  for (const recording of expectations.recordings ?? []) {
    if (!index.has(recording.definition)) {
      index.set(recording.definition, definitions.length);
      definitions.push(readFileSync(path.join(dir, recording.definition), 'utf8'));
    }
    const parsed = YAML.parse(readFileSync(path.join(dir, recording.file), 'utf8'));
    for (const event of parsed?.events ?? []) {
      if (event?.kind !== 'STATE' || !event.object) continue;
      events.push({ definition: index.get(recording.definition), object: event.object, text: YAML.stringify(event.object) });
    }
  }
  return { definitions, events };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Times each pass `ROUNDS` times, interleaved so a busy moment on the machine hits all alike. */
function timePasses(passes) {
  for (const pass of Object.values(passes)) pass(); // warm up (JIT, wasm tiering)
  for (const pass of Object.values(passes)) pass();
  const samples = Object.fromEntries(Object.keys(passes).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, pass] of Object.entries(passes)) {
      const start = performance.now();
      pass();
      samples[name].push(performance.now() - start);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

function cargoTargetDir() {
  const result = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) return path.join(root, 'target');
  return JSON.parse(result.stdout).target_directory;
}

/**
 * The same events natively: builds examples/bench.rs and writes the cases; `run()` gives one
 * measurement (`{ objectsMs, textMs }` or `{ error }`), `close()` removes the cases file.
 */
function nativeBench(definitions, events, large) {
  console.log('[bench] building the native bench (cargo build --profile bench --example bench) ...');
  const build = spawnSync('cargo', ['build', '--quiet', '--profile', 'bench', '--example', 'bench'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return { error: 'the native bench did not build' };
  const dir = mkdtempSync(path.join(tmpdir(), 'workload-map-bench-'));
  const file = path.join(dir, 'cases.json');
  writeFileSync(file, JSON.stringify({ definitions, events: events.map(({ definition, text }) => ({ definition, text })), large }));
  // The bench profile writes to target/release (cargo's rule for `bench`).
  const binary = path.join(cargoTargetDir(), 'release', 'examples', process.platform === 'win32' ? 'bench.exe' : 'bench');
  return {
    run() {
      const run = spawnSync(binary, [file], { encoding: 'utf8' });
      if (run.status !== 0) return { error: `the native bench failed: ${run.stderr.trim()}` };
      return JSON.parse(run.stdout.trim().split('\n').pop());
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const ms = (v) => `${v.toFixed(1)} ms`;
const ratio = (v) => `${v.toFixed(2)}×`;

function printTable(rows) {
  const header = ['measure', 'measured', 'target', 'met'];
  const cells = rows.map((r) => [r.measure, r.value, r.target ?? '', r.met === undefined ? '' : r.met ? 'met' : 'NOT MET']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

/**
 * A List of `n` objects: JobSets, each with one Job, and 30 pods of the first JobSets' Jobs, as
 * `kubectl get jobsets,jobs,pods -o json` returns them (issue 17: describe on 1,000 objects
 * with 30 pods).
 */
export function describeList(n) {
  const items = [];
  const podCount = 30;
  const jobsets = Math.max(1, Math.floor((n - podCount) / 2));
  for (let i = 0; i < jobsets; i++) {
    const name = `train-${i}`;
    items.push({
      apiVersion: 'jobset.x-k8s.io/v1alpha2',
      kind: 'JobSet',
      metadata: { name, namespace: 'bench', uid: `js-${i}` },
      spec: {
        replicatedJobs: [
          {
            name: 'workers',
            replicas: 1,
            template: { spec: { parallelism: 1, template: { spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': 8 } } }] } } } },
          },
        ],
      },
    });
    items.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `${name}-workers-0`,
        namespace: 'bench',
        uid: `job-${i}`,
        ownerReferences: [{ apiVersion: 'jobset.x-k8s.io/v1alpha2', kind: 'JobSet', name, uid: `js-${i}`, controller: true }],
      },
    });
  }
  for (let p = 0; p < podCount; p++) {
    const i = p % jobsets;
    items.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `train-${i}-workers-0-${p}`,
        namespace: 'bench',
        labels: { 'jobset.sigs.k8s.io/jobset-name': `train-${i}`, 'jobset.sigs.k8s.io/replicatedjob-name': 'workers' },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: `train-${i}-workers-0`, uid: `job-${i}`, controller: true }],
      },
      spec: { containers: [{ name: 'c', resources: { limits: { 'nvidia.com/gpu': 8 } } }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
  }
  return { apiVersion: 'v1', kind: 'List', items };
}

/** The package's CommonJS entry. */
function pkgEntry() {
  return path.join(root, 'pkg', 'node.cjs');
}

/**
 * `describe -f` (the CLI, text output) against `resolveAll` of the same file, each in a process
 * of its own (both pay Node's start, the module's compile and the catalog's first compiles), at
 * 500, 1,000 and 2,000 objects: describe must stay within 2× and grow linearly (issue 17). The
 * warm in-process `resolveAll` is printed beside it.
 */
function describeRows(wm) {
  const rows = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'wm-bench-describe-'));
  const measured = [];
  try {
    for (const n of [500, 1000, 2000]) {
      const list = describeList(n);
      const file = path.join(dir, `list-${n}.json`);
      writeFileSync(file, JSON.stringify(list));
      const text = readFileSync(file, 'utf8');
      const best = (f, rounds) => {
        let min = Infinity;
        for (let r = 0; r < rounds; r++) {
          const start = performance.now();
          f();
          min = Math.min(min, performance.now() - start);
        }
        return min;
      };
      wm.resolveAll(text, { catalog: true });
      const warm = best(() => wm.resolveAll(wm.parseObjects(text).objects, { catalog: true }), 3);
      const processOf = (args) => () => {
        const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
        if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
      };
      const cli = best(processOf([path.join(root, 'bin', 'workload-map.mjs'), 'describe', '-f', file]), 3);
      // The same work without describe: a process that reads the file and resolves it all.
      const script = `const wm = require(${JSON.stringify(pkgEntry())}); const fs = require('node:fs'); const r = wm.resolveAll(fs.readFileSync(${JSON.stringify(file)}, 'utf8'), { catalog: true }); if (!r.items.length) process.exit(1);`;
      const all = best(processOf(['-e', script]), 3);
      measured.push({ n, all, cli });
      rows.push({
        measure: `describe -f, ${n} objects with 30 pods / resolveAll of them, each a process`,
        value: `${ms(cli)} / ${ms(all)} = ${ratio(cli / all)}`,
        target: '≤ 2×',
        met: cli / all <= 2,
      });
      rows.push({ measure: `  resolveAll of them in this process, warm`, value: ms(warm) });
    }
    const [, one, two] = measured;
    rows.push({
      measure: '  describe, 2,000 objects / 1,000 objects',
      value: ratio(two.cli / one.cli),
      target: '≈ 2× (linear)',
      met: two.cli / one.cli <= 2.5,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/**
 * 2,000 compiles of one catalog definition text in a process of its own (so that its RSS is
 * this loop's): `new Definition(text)` kept without free(), then with free(), and `validate`,
 * each a lookup once the text is compiled (src/cache.rs). ms each, and how much the process's
 * RSS grew over the loop that keeps every handle.
 */
export function compileRows() {
  const script = `
    const wm = require(${JSON.stringify(pkgEntry())});
    const text = wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet').text;
    new wm.Definition(text).free();
    const N = 2000;
    const timed = (f) => { const start = performance.now(); f(); return (performance.now() - start) / N; };
    globalThis.gc?.();
    const rss = process.memoryUsage().rss;
    const kept = [];
    const keptMs = timed(() => { for (let i = 0; i < N; i++) kept.push(new wm.Definition(text)); });
    const grown = process.memoryUsage().rss - rss;
    for (const d of kept) d.free();
    const freedMs = timed(() => { for (let i = 0; i < N; i++) new wm.Definition(text).free(); });
    const validateMs = timed(() => { for (let i = 0; i < N; i++) wm.validate(text); });
    console.log(JSON.stringify({ keptMs, grown, freedMs, validateMs }));
  `;
  const run = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8', maxBuffer: 16 << 20 });
  const measure = '2,000 new Definition(text) of one catalog text (JobSet), handles kept';
  if (run.status !== 0) return [{ measure, value: `not measured: ${run.stderr.trim().split('\n')[0]}` }];
  const { keptMs, grown, freedMs, validateMs } = JSON.parse(run.stdout.trim().split('\n').pop());
  return [
    { measure, value: `${keptMs.toFixed(3)} ms each, RSS +${(grown / 1e6).toFixed(1)} MB` },
    { measure: '  the same with free() after each / validate(text) 2,000 times', value: `${freedMs.toFixed(3)} ms / ${validateMs.toFixed(3)} ms each` },
  ];
}

async function main() {
  const pkgEntry = path.join(root, 'pkg', 'node.cjs');
  if (!existsSync(pkgEntry)) {
    console.error('[bench] pkg/ is missing: run `npm run build` first');
    process.exit(1);
  }
  const wm = createRequire(import.meta.url)(pkgEntry);
  // Built first, so that no measurement waits on it; not without the corpus (no row to fill).
  const lever = existsSync(path.join(corpus, 'expectations.yaml')) ? leverModule() : undefined;
  const scaling = [...compileRows(), ...(args.has('--no-scale') ? [] : [...describeRows(wm), ...scaleRows()])];
  if (!existsSync(path.join(corpus, 'expectations.yaml'))) {
    console.log(`[bench] no conformance corpus at ../shared/conformance (beside the repository): the corpus rows are not measured.`);
    printTable(scaling);
    return;
  }
  const { definitions, events } = corpusEvents();
  const compiled = definitions.map((text) => new wm.Definition(text));
  const texts = events.map((e) => e.text);
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  console.log(
    `[bench] ${events.length} STATE events from the corpus (${(bytes / 1024).toFixed(0)} KiB of YAML), ${definitions.length} definitions compiled once; ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`,
  );

  const leanOptions = { explain: false };
  const passes = {
    yaml: () => {
      for (const t of texts) YAML.parse(t);
    },
    objects: () => {
      for (const e of events) compiled[e.definition].resolve(e.object);
    },
    text: () => {
      for (const e of events) compiled[e.definition].resolve(e.text);
    },
  };
  let lean = false;
  try {
    compiled[0].resolve(events[0].object, leanOptions);
    lean = 'mappings' in (compiled[0].resolve(events[0].object).status ?? {}) && !('mappings' in compiled[0].resolve(events[0].object, leanOptions).status);
  } catch {
    lean = false;
  }
  if (lean) {
    passes.leanObjects = () => {
      for (const e of events) compiled[e.definition].resolve(e.object, leanOptions);
    };
  }
  let other;
  if (lever.wasm) {
    try {
      other = packageWith(lever.wasm);
      const otherCompiled = definitions.map((text) => new other.wm.Definition(text));
      otherCompiled[0]?.resolve(events[0]?.object);
      passes.otherObjects = () => {
        for (const e of events) otherCompiled[e.definition].resolve(e.object);
      };
      passes.otherText = () => {
        for (const e of events) otherCompiled[e.definition].resolve(e.text);
      };
    } catch (error) {
      other?.close();
      other = undefined;
      lever.error = `could not run a copy of pkg/ with ${lever.file}: ${String(error.message).split('\n')[0]}`;
    }
  }
  // Native runs just before and just after the Node passes (their mean), so that a busy moment
  // on a shared machine weighs on both sides alike.
  // One large object for the lever of one value tree: a JobSet of 999 replicated jobs (1.1 MB
  // of YAML, the playground's large manifest) with the catalog's JobSet definition.
  const large = { definition: wm.catalog.find('jobset.x-k8s.io/v1alpha2', 'JobSet')?.text, text: replicatedJobSet(999, { name: 'many-jobs' }).text };
  const native = args.has('--no-native') ? undefined : nativeBench(definitions, events, large);
  const nativeBefore = native?.run?.();
  const t = timePasses(passes);
  const nativeAfter = native?.run?.();
  native?.close?.();

  const rows = [];
  rows.push({ measure: `the yaml package's parse of the ${events.length} texts (floor)`, value: ms(t.yaml) });
  rows.push({
    measure: 'corpus pass in Node from JS objects',
    value: `${ms(t.objects)} = ${ratio(t.objects / t.yaml)} the parse`,
    target: '≤ 0.2× the parse',
    met: t.objects / t.yaml <= 0.2,
  });
  if (lean) {
    rows.push({
      measure: '  same, lean view (explain: false)',
      value: `${ms(t.leanObjects)} = ${ratio(t.leanObjects / t.yaml)} the parse`,
      target: '≤ 0.2× the parse',
      met: t.leanObjects / t.yaml <= 0.2,
    });
  }
  rows.push({
    measure: 'corpus pass in Node from YAML text',
    value: `${ms(t.text)} = ${ratio(t.text / t.yaml)} the parse`,
    target: '≤ 0.4× the parse',
    met: t.text / t.yaml <= 0.4,
  });

  if (!args.has('--no-native')) {
    const problem = native.error ?? nativeBefore?.error ?? nativeAfter?.error;
    if (problem) {
      rows.push({ measure: 'wasm in Node / native, same events', value: `not measured: ${problem}` });
    } else {
      const mean = (key) => (nativeBefore[key] + nativeAfter[key]) / 2;
      native.objectsMs = mean('objectsMs');
      native.textMs = mean('textMs');
      rows.push({ measure: '  native pass from parsed objects / from text', value: `${ms(native.objectsMs)} / ${ms(native.textMs)}` });
      rows.push({
        measure: 'wasm in Node / native, from text',
        value: ratio(t.text / native.textMs),
        target: '≤ 1.5×',
        met: t.text / native.textMs <= 1.5,
      });
      rows.push({
        measure: 'wasm in Node / native, from objects',
        value: ratio(t.objects / native.objectsMs),
        target: '≤ 1.5×',
        met: t.objects / native.objectsMs <= 1.5,
      });
    }
  }

  const wasm = readFileSync(path.join(root, 'pkg', 'workload_map_bg.wasm'));
  const gzip = gzipSync(wasm, { level: 9 }).length;
  rows.push({ measure: '.wasm gzip -9 (the default download, no CEL)', value: `${gzip.toLocaleString('en')} B`, target: '≤ 600,000 B', met: gzip <= 600_000 });
  const celGzip = gzipSync(readFileSync(path.join(root, 'pkg', 'workload_map_cel_bg.wasm')), { level: 9 }).length;
  rows.push({ measure: 'CEL .wasm gzip -9 (loaded on first need)', value: `${celGzip.toLocaleString('en')} B` });
  rows.push(...leverRows({ t, native, nativeBefore, nativeAfter, gzip, lever }));
  other?.close();

  rows.push(...schemaCheckRows(wm));

  const playgroundBench = path.join(root, 'tests', 'bench', 'keystroke.mjs');
  if (!args.has('--no-playground') && !existsSync(playgroundBench)) {
    rows.push({ measure: 'playground keystroke → DOM', value: 'not measured: tests/bench/keystroke.mjs is missing' });
  } else if (!args.has('--no-playground')) {
    const { keystrokeBench, playgroundReady } = await import(playgroundBench);
    const ready = playgroundReady();
    if (ready !== true) {
      rows.push({ measure: 'playground keystroke → DOM', value: `not measured: ${ready}` });
    } else {
      console.log('[bench] measuring the playground (Chromium) ...');
      const results = await keystrokeBench();
      for (const r of results) {
        if (r.error) {
          rows.push({ measure: `playground keystroke → new total in the DOM, ${r.label}`, value: `not measured: ${r.error}` });
          continue;
        }
        rows.push({
          measure: `playground keystroke → new total in the DOM, ${r.label}, p95`,
          value: `${ms(r.p95)} (p50 ${ms(r.p50)}, max ${ms(r.max)}; on screen p95 ${ms(r.frameP95)})`,
          target: r.targetP95 === undefined ? undefined : `≤ ${r.targetP95} ms`,
          met: r.targetP95 === undefined ? undefined : r.p95 <= r.targetP95,
        });
        rows.push({
          measure: `  main-thread tasks over 50 ms, ${r.label}`,
          value: `${r.longTasks} (longest ${ms(r.longestTask)})`,
          target: r.label.startsWith('default') ? undefined : '0',
          met: r.label.startsWith('default') ? undefined : r.longTasks === 0,
        });
      }
    }
  }
  console.log('');
  printTable([...rows, ...scaling]);
  for (const d of compiled) d.free();
}

/** One row per speed lever of issue 21, each measured in this run (or why not). */
function leverRows({ t, native, nativeBefore, nativeAfter, gzip, lever }) {
  const rows = [];
  const change = (before, after) => `${ms(before)} → ${ms(after)} (${after <= before ? '−' : '+'}${Math.abs(100 * (1 - after / before)).toFixed(0)}%)`;
  const nativeOk = native && !native.error && !nativeBefore?.error && !nativeAfter?.error && nativeBefore?.objectsMsWithoutFastPaths !== undefined;
  if (nativeOk) {
    const mean = (key) => (nativeBefore[key] + nativeAfter[key]) / 2;
    rows.push({
      measure: 'lever: plain paths without jaq, native pass from objects (jaq → fast path)',
      value: change(mean('objectsMsWithoutFastPaths'), native.objectsMs),
    });
    rows.push({
      measure: 'lever: plain paths without jaq, native pass from text (jaq → fast path)',
      value: change(mean('textMsWithoutFastPaths'), native.textMs),
    });
  } else {
    rows.push({ measure: 'lever: plain paths without jaq', value: 'not measured: needs the native bench (without --no-native)' });
  }
  if (nativeOk && nativeBefore.objectsMsWholeInput !== undefined) {
    const mean = (key) => (nativeBefore[key] + nativeAfter[key]) / 2;
    rows.push({
      measure: 'lever: jq reads only the parts it reaches, native pass from objects (whole input → parts)',
      value: change(mean('objectsMsWholeInput'), mean('objectsMs')),
    });
    if (typeof nativeBefore.largeMs === 'number') {
      rows.push({
        measure: 'lever: the same, native resolve of a 1.1 MB JobSet (whole input → parts)',
        value: change(mean('largeMsWholeInput'), mean('largeMs')),
      });
    }
  } else {
    rows.push({ measure: 'lever: jq reads only the parts it reaches', value: 'not measured: needs the native bench (without --no-native)' });
  }
  if (lever.skipped) {
    rows.push({
      measure: `lever: ${lever.label}`,
      value: `skipped (--no-hot): run without --no-hot to build and measure it, or give --compare-wasm=FILE`,
    });
  } else if (lever.error) {
    rows.push({ measure: `lever: ${lever.label}`, value: `not measured: ${lever.error}` });
  } else {
    const otherGzip = gzipSync(readFileSync(lever.wasm), { level: 9 }).length;
    rows.push({ measure: `lever: ${lever.label} against pkg/, Node pass from objects`, value: change(t.objects, t.otherObjects) });
    rows.push({ measure: `lever: ${lever.label} against pkg/, Node pass from text`, value: change(t.text, t.otherText) });
    rows.push({
      measure: `lever: ${lever.label} against pkg/, .wasm gzip -9`,
      value: `${gzip.toLocaleString('en')} B → ${otherGzip.toLocaleString('en')} B (${otherGzip >= gzip ? '+' : '−'}${Math.abs(otherGzip - gzip).toLocaleString('en')} B)`,
    });
  }
  return rows;
}

/**
 * The check of a definition against the largest CRD in ../shared/crds (issue 23: under 1 s in
 * Node): the median of 5 checks that each read the CRD afresh (a new name per round, so the
 * engine's kept schema set does not apply), then of 15 with the schema kept.
 */
function schemaCheckRows(wm) {
  const crds = path.resolve(root, '..', 'shared', 'crds');
  const file = 'serving.kserve.io_llminferenceservices.yaml.gz';
  const definition = path.join(root, 'catalog', 'serving-kserve-io-llminferenceservice-v1alpha2', 'definition.yaml');
  if (!existsSync(path.join(crds, file)) || typeof wm.checkDefinition !== 'function') {
    return [{ measure: 'check against a 2.7 MB CRD in Node', value: 'not measured: ../shared/crds or checkDefinition is missing' }];
  }
  const text = gunzipSync(readFileSync(path.join(crds, file))).toString('utf8');
  const def = readFileSync(definition, 'utf8');
  const fresh = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const result = wm.checkDefinition(def, [{ name: `${file}#${i}`, text }]);
    fresh.push(performance.now() - start);
    if (!result.valid || result.checked.length === 0) throw new Error(`the catalog definition does not check cleanly against ${file}`);
  }
  const kept = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    wm.checkDefinition(def, [{ name: `${file}#4`, text }]);
    kept.push(performance.now() - start);
  }
  const size = (Buffer.byteLength(text) / 1e6).toFixed(1);
  return [
    {
      measure: `check of a definition against a ${size} MB CRD in Node (read, index, check)`,
      value: ms(median(fresh)),
      target: '< 1000 ms',
      met: median(fresh) < 1000,
    },
    { measure: '  the same with the schema kept (later checks)', value: ms(median(kept)) },
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
