// The playground's state outside the editors: the share link (URL hash) and the local draft
// (IndexedDB).
//
// A share link carries the whole state, deflate-compressed (the browser's CompressionStream, so
// no library) and base64url-encoded: `#s=<payload>`. The engine version travels with it so a
// reader can tell when a link was made with another engine.
//
// A link is untrusted input: it is decoded in the worker (decodeShare), never on the page's
// thread, and decompression stops as soon as the text passes MAX_SHARE_BYTES, so a small link
// that inflates to hundreds of megabytes costs a few milliseconds, not the tab.

import { SHARE_FORMAT as FORMAT, SHARE_PREFIX, encodeShare } from '../../js/render/share-link.js';
import { uiStateOf } from './share-ui.js';

export { encodeShare };

/** The largest state a link may hold, decompressed (bytes of JSON). */
export const MAX_SHARE_BYTES = 5 * 1024 * 1024;
/** The longest `#s=` payload read at all (characters); browsers cap URLs near 2 MB anyway. */
export const MAX_SHARE_CHARS = 8 * 1024 * 1024;
/** Compressed bytes fed to the decompressor per step: bounds what one step can inflate to. */
const INFLATE_STEP = 1024;

const DRAFT_KEY = 'workload-map:draft';

/**
 * mode: 'catalog' (the definition follows the manifest's type; `definition` is the entry shown)
 * or 'custom' (`definition` is pinned). cases: the saved test cases (drafts only).
 * @typedef {{definition: string, manifest: string, pods?: string, mode: 'catalog' | 'custom', options: object,
 *   cases?: {name: string, description: string, text: string, definition: string, phases: string[], gpus: number}[]}} PlaygroundState
 */

/** True when the hash holds a share link (`#s=...`). */
export function isShare(hash) {
  return (hash.startsWith('#') ? hash.slice(1) : hash).startsWith(SHARE_PREFIX);
}

/**
 * Reads `#s=...` (in the worker); undefined when the hash holds no state, throws an Error that
 * says what is wrong when it is damaged or too large.
 */
export async function decodeShare(hash) {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.startsWith(SHARE_PREFIX)) return undefined;
  const payload = fragment.slice(SHARE_PREFIX.length);
  if (payload.length > MAX_SHARE_CHARS) throw new Error(`the link is longer than ${megabytes(MAX_SHARE_CHARS)}`);
  let bytes;
  try {
    bytes = fromBase64Url(payload);
  } catch {
    throw new Error('the link is damaged (not base64url)');
  }
  const text = await inflateCapped(bytes, MAX_SHARE_BYTES);
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('the link is damaged (not a playground state)');
  }
  return checkState(parsed);
}

/** Inflates deflate-raw `bytes`, giving up as soon as the output passes `limit` bytes. */
async function inflateCapped(bytes, limit) {
  let offset = 0;
  // A pull source hands the decompressor one small step at a time, only when it asks for more.
  const source = new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(offset, offset + INFLATE_STEP));
      offset += INFLATE_STEP;
    },
  });
  const reader = source.pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) {
        await reader.cancel();
        throw new Error(`the link holds more than ${megabytes(limit)} of text`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (/holds more than/.test(error.message)) throw error;
    throw new Error('the link is damaged (it does not decompress)');
  }
  try {
    return utf8Of(chunks, total);
  } catch {
    throw new Error('the link is damaged (not UTF-8 text)');
  }
}

/**
 * The UTF-8 text of byte `chunks` (`total` bytes in all), as read from a stream; throws a
 * TypeError when they are not UTF-8. Also the editors' file and URL loading (editor-tools.js).
 *
 * @param {Uint8Array[]} chunks
 * @param {number} total
 */
export function utf8Of(chunks, total) {
  const joined = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(joined);
}

function megabytes(bytes) {
  return `${bytes / (1024 * 1024)} MB`;
}

// Drafts live in IndexedDB (issue 21, item 6): a write is asynchronous and takes the state as a
// structured clone, where localStorage.setItem took a JSON.stringify of both texts and blocked
// the page for the write (15 ms at 1 MB, 70-90 ms at 4.7 MB, and a quota error past ~5 M
// characters). A draft an older page left in localStorage is read once and moved.
const DB_NAME = 'workload-map';
const DB_STORE = 'drafts';
/** @type {Promise<IDBDatabase> | undefined} */
let database;

function openDatabase() {
  database ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(DB_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('the draft store is blocked'));
  });
  return database;
}

/** One request in its own transaction; resolves with its result once the transaction is done. */
async function inStore(mode, use) {
  const db = await openDatabase();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(DB_STORE, mode);
    const request = use(transaction.objectStore(DB_STORE));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** Saves the draft without blocking the page; resolves when it is written (or could not be). */
export async function saveDraft(state) {
  try {
    await inStore('readwrite', (store) => store.put({ v: FORMAT, ...state, savedAt: Date.now() }, DRAFT_KEY));
    forgetLegacyDraft();
  } catch {
    // Storage full or disabled (private mode): drafts are a convenience, the page still works.
  }
}

/** The draft, or undefined (none, unreadable, or storage disabled). */
export async function loadDraft() {
  try {
    const saved = await inStore('readonly', (store) => store.get(DRAFT_KEY));
    if (saved) return checkState(saved);
  } catch {
    // no IndexedDB: the legacy draft, if any
  }
  try {
    const text = localStorage.getItem(DRAFT_KEY);
    return text ? checkState(JSON.parse(text)) : undefined;
  } catch {
    return undefined;
  }
}

export async function clearDraft() {
  forgetLegacyDraft();
  try {
    await inStore('readwrite', (store) => store.delete(DRAFT_KEY));
  } catch {
    // see saveDraft
  }
}

function forgetLegacyDraft() {
  try {
    localStorage.removeItem(DRAFT_KEY);
  } catch {
    // see saveDraft
  }
}

function checkState(value) {
  if (!value || typeof value !== 'object' || typeof value.definition !== 'string' || typeof value.manifest !== 'string') {
    throw new Error('the link does not hold a playground state');
  }
  return {
    definition: value.definition,
    manifest: value.manifest,
    // The Pods pane's text; links and drafts made before it existed have none.
    ...(typeof value.pods === 'string' ? { pods: value.pods } : {}),
    // Links and drafts made before the catalog mode existed pinned their definition text.
    mode: value.mode === 'catalog' || value.mode === 'custom' ? value.mode : value.definition.trim() === '' ? 'catalog' : 'custom',
    ...(Array.isArray(value.cases) ? { cases: value.cases.filter(isCase) } : {}),
    options: value.options && typeof value.options === 'object' ? value.options : {},
    // The tab, the selected node, the edit preview and the definition's origin (share-ui.js).
    ...(uiStateOf(value.ui) ? { ui: uiStateOf(value.ui) } : {}),
    engine: typeof value.engine === 'string' ? value.engine : undefined,
  };
}

function isCase(value) {
  return (
    value &&
    typeof value === 'object' &&
    ['name', 'description', 'text', 'definition'].every((key) => typeof value[key] === 'string') &&
    Array.isArray(value.phases) &&
    typeof value.gpus === 'number'
  );
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
