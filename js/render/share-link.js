// The playground's share link, written: `#s=<payload>`, the state as JSON, deflate-compressed
// (the browser's CompressionStream) and base64url-encoded, with the engine version beside it.
// The playground (www/src/state.js) reads and writes it; the dashboard's table element
// (js/element/table.mjs) writes one to open a workload in the playground. Reading a link is the
// playground's alone (it is untrusted input, decoded in its worker with capped inflation).

/** The hash prefix of a share link. */
export const SHARE_PREFIX = 's=';
/** The share link format written. */
export const SHARE_FORMAT = 1;

/**
 * The `#` fragment (without `#`) holding `state`.
 *
 * @param {object} state the playground state (definition, manifest, pods?, mode, options, ...)
 * @param {string} engineVersion
 */
export async function encodeShare(state, engineVersion) {
  const json = JSON.stringify({ v: SHARE_FORMAT, engine: engineVersion, ...state });
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return SHARE_PREFIX + toBase64Url(bytes);
}

/** @param {Uint8Array} bytes */
export function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
