// `node scripts/profile.mjs [--text] [--rounds=N] [--top=N] [WASM]`: where the corpus pass of
// `npm run bench` spends its time in WebAssembly.
//
// Runs the pass (every STATE event of ../shared/conformance through its definition, from JS
// objects, or from YAML text with --text) in a child `node --cpu-prof`, then prints the top
// functions by self time. Function names need a name section: give WASM, a .wasm with one for
// the same sources as pkg/ (`wasm-opt -Oz -g` keeps the names; CONTRIBUTING.md, "Speed levers",
// says on what); it replaces pkg/workload_map_bg.wasm in a copy of pkg/ for the run only.
// Without WASM, pkg/ as built is profiled (without names: functions show as wasm-function[N]).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusEvents, packageWith } from './bench.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => Number(argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const text = argv.includes('--text');
const rounds = option('rounds', 30);
const top = option('top', 25);
const wasm = argv.find((a) => !a.startsWith('--'));

const dir = mkdtempSync(path.join(tmpdir(), 'wm-profile-'));
const pkg = wasm ? packageWith(wasm, { load: false }) : { dir: path.join(root, 'pkg'), close() {} };
try {
  const { definitions, events } = corpusEvents();
  writeFileSync(path.join(dir, 'cases.json'), JSON.stringify({ definitions, events }));
  const script = `
    const wm = require(${JSON.stringify(path.join(pkg.dir, 'node.cjs'))});
    const { definitions, events } = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(path.join(dir, 'cases.json'))}, 'utf8'));
    const compiled = definitions.map((t) => new wm.Definition(t));
    const input = (e) => (${text} ? e.text : e.object);
    for (let r = 0; r < ${rounds}; r++) for (const e of events) compiled[e.definition].resolve(input(e));
  `;
  const profDir = path.join(dir, 'prof');
  const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=100', '-e', script], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(path.join(profDir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const name = byId.get(id)?.callFrame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)') return;
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  });
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`self time of ${rounds} passes from ${text ? 'YAML text' : 'JS objects'}: ${(total / 1000).toFixed(0)} ms sampled`);
  for (const [name, us] of rows) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name.slice(0, 140)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  pkg.close();
}
