// The playground's state outside the editors: the share link (URL hash) and the local draft.
//
// A share link carries the whole state, deflate-compressed (the browser's CompressionStream, so
// no library) and base64url-encoded: `#s=<payload>`. The engine version travels with it so a
// reader can tell when a link was made with another engine.

const SHARE_PREFIX = 's=';
const DRAFT_KEY = 'workload-map:draft';
const FORMAT = 1;

/** @typedef {{definition: string, manifest: string, options: object}} PlaygroundState */

/** @param {PlaygroundState} state @param {string} engineVersion */
export async function encodeShare(state, engineVersion) {
  const json = JSON.stringify({ v: FORMAT, engine: engineVersion, ...state });
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return SHARE_PREFIX + toBase64Url(bytes);
}

/** Reads `#s=...`; undefined when the hash holds no state, throws when it is damaged. */
export async function decodeShare(hash) {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.startsWith(SHARE_PREFIX)) return undefined;
  const bytes = fromBase64Url(fragment.slice(SHARE_PREFIX.length));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const parsed = JSON.parse(await new Response(stream).text());
  return checkState(parsed);
}

export function saveDraft(state) {
  try {
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ v: FORMAT, ...state, savedAt: Date.now() }));
  } catch {
    // Storage full or disabled (private mode): drafts are a convenience, the page still works.
  }
}

export function loadDraft() {
  try {
    const text = localStorage.getItem(DRAFT_KEY);
    return text ? checkState(JSON.parse(text)) : undefined;
  } catch {
    return undefined;
  }
}

export function clearDraft() {
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
    options: value.options && typeof value.options === 'object' ? value.options : {},
    engine: typeof value.engine === 'string' ? value.engine : undefined,
  };
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
