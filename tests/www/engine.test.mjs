// The worker client's ordering rules, with a scripted stand-in for the Worker: only the newest
// request's result is delivered, requests made during a run collapse to the newest, a run that
// overstays is terminated and the engine restarted, a worker whose engine trapped is replaced,
// and share links are read in the worker with a time limit.

import assert from 'node:assert/strict';
import { test } from 'node:test';

const workers = [];
class ScriptedWorker {
  constructor() {
    this.posted = [];
    this.terminated = false;
    workers.push(this);
  }
  postMessage(message) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  ready() {
    this.onmessage({ data: { type: 'ready', version: 'test', catalogSize: 0 } });
  }
  reply(id, extra = {}) {
    this.onmessage({ data: { type: 'result', id, view: null, definitionDiagnostics: [], ms: 1, ...extra } });
  }
}
globalThis.Worker = ScriptedWorker;
globalThis.document = { baseURI: 'http://127.0.0.1/' };
const { DECODE_TIMEOUT_MS, Engine, timeoutFrom } = await import('../../js/render/engine.js');

function engine(timeoutMs = 10_000) {
  workers.length = 0;
  const seen = { results: [], timeouts: [] };
  const instance = new Engine({ onResult: (r) => seen.results.push(r.id), onTimeout: (t) => seen.timeouts.push(t.id) }, timeoutMs);
  workers[0].ready();
  return { instance, seen, state: { definition: 'd', manifest: 'm' } };
}

test('requests made during a run collapse to the newest, and only its result is delivered', () => {
  const { instance, seen, state } = engine();
  const first = instance.run(state);
  instance.run(state);
  const third = instance.run(state);
  assert.deepEqual(
    workers[0].posted.map((m) => m.id),
    [first],
  );
  workers[0].reply(first);
  assert.deepEqual(seen.results, [], 'the first result is stale once a newer run was asked for');
  assert.deepEqual(
    workers[0].posted.map((m) => m.id),
    [first, third],
  );
  workers[0].reply(third);
  assert.deepEqual(seen.results, [third]);
});

test('a result that arrives for a run no longer in flight is ignored', () => {
  const { instance, seen, state } = engine();
  const id = instance.run(state);
  workers[0].reply(id);
  workers[0].reply(id);
  assert.deepEqual(seen.results, [id]);
});

test('a run that overstays is stopped, reported, and the engine restarted for the next run', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { instance, seen, state } = engine(20);
  const id = instance.run(state);
  t.mock.timers.tick(21);
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 2);
  assert.deepEqual(seen.timeouts, [id]);
  workers[1].ready();
  const next = instance.run(state);
  assert.deepEqual(
    workers[1].posted.map((m) => m.id),
    [next],
  );
  workers[1].reply(next);
  assert.deepEqual(seen.results, [next]);
});

test('a newer request waiting behind a runaway run is sent to the fresh engine', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { instance, seen, state } = engine(20);
  instance.run(state);
  const newer = instance.run(state);
  t.mock.timers.tick(21);
  assert.deepEqual(seen.timeouts, [], 'the stopped run was not the newest: nothing to report');
  assert.deepEqual(
    workers[1].posted.map((m) => m.id),
    [newer],
  );
  workers[1].reply(newer);
  assert.deepEqual(seen.results, [newer]);
});

test('the watchdog times evaluation, not loading: a run sent before the worker is ready is timed from ready', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  workers.length = 0;
  const timeouts = [];
  const instance = new Engine({ onTimeout: (r) => timeouts.push(r.id) }, 20);
  const id = instance.run({ definition: 'd', manifest: 'm' });
  t.mock.timers.tick(100);
  assert.deepEqual(timeouts, [], 'still loading');
  workers[0].ready();
  t.mock.timers.tick(21);
  assert.deepEqual(timeouts, [id]);
});

test('a result from an engine that trapped is delivered and its worker replaced before the next run', () => {
  const { instance, seen, state } = engine();
  const trapped = instance.run(state);
  const newer = instance.run(state);
  workers[0].reply(trapped, { trapped: true, error: 'the engine stopped on this input' });
  assert.equal(workers[0].terminated, true);
  assert.equal(instance.restarts, 1);
  assert.deepEqual(
    workers[1].posted.map((m) => m.id),
    [newer],
    'the waiting request goes to the fresh worker',
  );
  workers[1].reply(newer);
  assert.deepEqual(seen.results, [newer]);
});

test('a share link is read by the worker', async () => {
  const { instance } = engine();
  const reading = instance.decodeShare('#s=abc');
  const request = workers[0].posted.at(-1);
  assert.deepEqual([request.type, request.hash], ['decode', '#s=abc']);
  workers[0].onmessage({ data: { type: 'decoded', id: request.id, state: { definition: 'd', manifest: 'm', options: {} } } });
  assert.equal((await reading).definition, 'd');
  const failing = instance.decodeShare('#s=x');
  workers[0].onmessage({ data: { type: 'decoded', id: workers[0].posted.at(-1).id, error: 'the link is damaged' } });
  await assert.rejects(failing, /the link is damaged/);
});

test('a share link the worker does not read in time is given up and the worker replaced', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { instance } = engine();
  const reading = instance.decodeShare('#s=abc');
  t.mock.timers.tick(DECODE_TIMEOUT_MS + 1);
  await assert.rejects(reading, /took longer than/);
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 2);
});

test('the Pods text, the workload picked and the edit request ride along with a run; empty ones are left out', () => {
  const { instance, state } = engine();
  instance.run({ ...state, pods: 'kind: List\n', workload: 'v1 Pod ml/p', edit: { action: 'pod', component: 'c', instance: 'i', merge: '{}' } });
  assert.deepEqual(
    [workers[0].posted[0].pods, workers[0].posted[0].workload, workers[0].posted[0].edit],
    ['kind: List\n', 'v1 Pod ml/p', { action: 'pod', component: 'c', instance: 'i', merge: '{}' }],
  );
  workers[0].reply(workers[0].posted[0].id);
  instance.run({ ...state, pods: '', workload: '', edit: null });
  assert.deepEqual(['pods' in workers[0].posted[1], 'workload' in workers[0].posted[1], 'edit' in workers[0].posted[1]], [false, false, false]);
});

test('a run says when the page already holds the workload object; otherwise it is left out', () => {
  const { instance, state } = engine();
  instance.run({ ...state, objectKnown: true });
  assert.equal(workers[0].posted[0].objectKnown, true);
  workers[0].reply(workers[0].posted[0].id);
  instance.run({ ...state, objectKnown: false });
  assert.equal('objectKnown' in workers[0].posted[1], false);
});

test('the definition mode rides along with a run', () => {
  const { instance, state } = engine();
  instance.run({ ...state, mode: 'catalog' });
  assert.equal(workers[0].posted[0].mode, 'catalog');
});

test('a draft is asked of the worker and its answer delivered while runs go on', async () => {
  const { instance, seen, state } = engine();
  const run = instance.run(state);
  const drafting = instance.ask('draft', { manifest: 'kind: TrainRun\n' });
  const request = workers[0].posted.at(-1);
  assert.deepEqual([request.type, request.manifest], ['draft', 'kind: TrainRun\n']);
  workers[0].onmessage({ data: { type: 'answer', id: request.id, result: { text: 'kind: Karta\n', diagnostics: [] } } });
  assert.equal((await drafting).text, 'kind: Karta\n');
  workers[0].reply(run);
  assert.deepEqual(seen.results, [run], 'the answer is not taken for a run result');
});

test('an answer that does not come in time is given up and the worker replaced', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { instance } = engine(100);
  const drafting = instance.ask('draft', { manifest: '' });
  t.mock.timers.tick(DECODE_TIMEOUT_MS + 1);
  await assert.rejects(drafting, /took longer than 5 s/);
  assert.equal(workers[0].terminated, true);
});

test('timeout parameter is clamped to 100 ms .. 60 s, anything else is the 2 s default', () => {
  const cases = [
    [null, 2000],
    ['', 2000],
    ['abc', 2000],
    ['Infinity', 2000],
    ['0', 100],
    ['-5', 100],
    ['1', 100],
    ['750', 750],
    ['1e9', 60000],
  ];
  assert.deepEqual(
    cases.map(([value]) => [value, timeoutFrom(value)]),
    cases,
  );
});

test('runAll asks for resolveAll under the same rules, and a given worker factory is used for every worker', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  workers.length = 0;
  const made = [];
  const results = [];
  const instance = new Engine({ onResult: (r) => results.push(r.id), onTimeout: () => {} }, 20, () => {
    made.push(new ScriptedWorker());
    return made.at(-1);
  });
  made[0].ready();
  const first = instance.runAll({ objects: 'kind: List', related: undefined });
  const run = instance.run({ definition: 'd', manifest: 'm' });
  const all = instance.runAll({ objects: [{ kind: 'JobSet' }], related: [] });
  assert.deepEqual(made[0].posted, [{ type: 'resolveAll', id: first, objects: 'kind: List' }]);
  made[0].reply(first);
  assert.deepEqual(results, []);
  assert.deepEqual(made[0].posted.at(-1), { type: 'resolveAll', id: all, objects: [{ kind: 'JobSet' }], related: [] });
  assert.ok(run < all);
  t.mock.timers.tick(21);
  assert.equal(made.length, 2, 'the watchdog replaced the worker through the factory');
  assert.equal(workers.length, 2, 'no worker from the default location');
});
