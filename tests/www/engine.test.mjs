// The worker client's ordering rules, with a scripted stand-in for the Worker: only the newest
// request's result is delivered, requests made during a run collapse to the newest, and a run
// that overstays is terminated and the engine restarted.

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
  reply(id) {
    this.onmessage({ data: { type: 'result', id, view: null, definitionDiagnostics: [], ms: 1 } });
  }
}
globalThis.Worker = ScriptedWorker;
globalThis.document = { baseURI: 'http://127.0.0.1/' };
const { Engine } = await import('../../www/src/engine.js');

function engine(timeoutMs = 10_000) {
  workers.length = 0;
  const seen = { results: [], timeouts: [] };
  const instance = new Engine({ onResult: (r) => seen.results.push(r.id), onTimeout: (t) => seen.timeouts.push(t.id) }, timeoutMs);
  return { instance, seen, state: { definition: 'd', manifest: 'm' } };
}

test('requests made during a run collapse to the newest, and only its result is delivered', () => {
  const { instance, seen, state } = engine();
  const first = instance.run(state);
  instance.run(state);
  const third = instance.run(state);
  assert.deepEqual(workers[0].posted.map((m) => m.id), [first]);
  workers[0].reply(first);
  assert.deepEqual(seen.results, [], 'the first result is stale once a newer run was asked for');
  assert.deepEqual(workers[0].posted.map((m) => m.id), [first, third]);
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
  const next = instance.run(state);
  assert.deepEqual(workers[1].posted.map((m) => m.id), [next]);
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
  assert.deepEqual(workers[1].posted.map((m) => m.id), [newer]);
  workers[1].reply(newer);
  assert.deepEqual(seen.results, [newer]);
});
