// Share links are untrusted input: decodeShare (run in the worker) reads a link back, and stops
// decompressing as soon as the text passes the cap, so a small link that inflates to hundreds of
// megabytes is refused in milliseconds. Runs in Node, which has the same streams as browsers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';

const { MAX_SHARE_BYTES, decodeShare, encodeShare } = await import('../../www/src/state.js');

const link = (bytes) => `#s=${Buffer.from(bytes).toString('base64url')}`;

/** A state through a link and back. */
async function roundTrip(state) {
  return decodeShare(`#${await encodeShare(state, '1.2.3')}`);
}

test('a link reads back the state it was made from', async () => {
  const state = { definition: 'kind: Karta\n', manifest: 'name: ü\n', mode: 'custom', options: {} };
  assert.deepEqual(await roundTrip(state), { ...state, engine: '1.2.3' });
});

test('a link carries the Pods text when there is one', async () => {
  const state = { definition: 'kind: Karta\n', manifest: 'kind: JobSet\n', pods: 'kind: List\nitems: []\n', mode: 'catalog', options: {} };
  assert.deepEqual(await roundTrip(state), { ...state, engine: '1.2.3' });
});

test('a link carries the mode; one made before the mode existed pins its definition text', async () => {
  for (const mode of ['catalog', 'custom']) assert.equal((await roundTrip({ definition: 'kind: Karta\n', manifest: '', mode, options: {} })).mode, mode);
  assert.equal((await roundTrip({ definition: 'kind: Karta\n', manifest: '', options: {} })).mode, 'custom');
  assert.equal((await roundTrip({ definition: '  \n', manifest: '', options: {} })).mode, 'catalog');
  assert.equal((await roundTrip({ definition: 'kind: Karta\n', manifest: '', mode: 'other', options: {} })).mode, 'custom');
});

test('a link that inflates past the cap is refused without inflating it all', async () => {
  // 32 MB of spaces inside a JSON string (about 32 KB compressed): six times the cap.
  const bomb = deflateRawSync(Buffer.concat([Buffer.from('{"definition":"'), Buffer.alloc(32 * 1024 * 1024, 0x20), Buffer.from('","manifest":""}')]), {
    level: 9,
  });
  // The cap is the bound (the error says it was reached); the clock only guards against a hang.
  const started = performance.now();
  await assert.rejects(decodeShare(link(bomb)), new RegExp(`holds more than ${MAX_SHARE_BYTES / 1024 / 1024} MB of text`));
  assert.ok(performance.now() - started < 60_000, `took ${performance.now() - started} ms`);
});

test('damaged links say what is wrong', async () => {
  await assert.rejects(decodeShare('#s=%%%'), /not base64url/);
  await assert.rejects(decodeShare(link([1, 2, 3, 4])), /does not decompress/);
  await assert.rejects(decodeShare(link(deflateRawSync('not json'))), /not a playground state/);
  await assert.rejects(decodeShare(link(deflateRawSync('{"definition": 1}'))), /does not hold a playground state/);
  assert.equal(await decodeShare('#other'), undefined);
});
