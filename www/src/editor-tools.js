// The tools above each editor (issue 18, "what authors expect"): Format (YAML through the `yaml`
// package, comments kept; JSON re-indented; a text that cannot be read is left as it is and the
// place of the first error is said), Open (a file, also dropped on the pane), URL (fetched with a
// bounded size and a clear error when the server refuses or does not allow it), Copy and
// Download. What a text means is the engine's business: formatting only re-lays the same
// documents out.

import { parseAllDocuments } from 'yaml';
import { h } from '../../js/render/dom.js';
import { utf8Of } from './state.js';

/** The largest text loaded from a file or a URL (characters; the engine's own limits apply after). */
export const MAX_LOAD_BYTES = 16 * 1024 * 1024;
/** How long a URL may take to answer before the load gives up. */
const FETCH_TIMEOUT_MS = 20_000;

/**
 * The text formatted, or where it cannot be read: `{text}` or `{error: {line, column, message}}`.
 * YAML stays YAML (block indentation of 2, sequences indented, comments and document markers
 * kept, no line folding); a text that opens with `{` or `[` is JSON and is written back as JSON.
 *
 * @param {string} text
 * @returns {{text: string} | {error: {line: number, column: number, message: string}}}
 */
export function formatText(text) {
  const documents = parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(documents) ? documents : [];
  for (const document of list) {
    const error = document.errors[0];
    if (error) {
      const at = error.linePos?.[0] ?? { line: 1, col: 1 };
      return { error: { line: at.line, column: at.col, message: error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '') } };
    }
  }
  if (/^\s*[{[]/.test(text)) {
    return { text: list.map((document) => `${JSON.stringify(document.toJS(), null, 2)}\n`).join('') };
  }
  const out = list.map((document) => document.toString({ lineWidth: 0, indent: 2, indentSeq: true })).join('');
  return { text: out.endsWith('\n') || out === '' ? out : `${out}\n` };
}

/** Reads a stream of bytes as UTF-8 text, giving up past `limit` bytes. */
async function readCapped(stream, limit, what) {
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new Error(`${what} is larger than ${limit / (1024 * 1024)} MB: not loaded`);
    }
    chunks.push(value);
  }
  try {
    return utf8Of(chunks, total);
  } catch {
    throw new Error(`${what} is not UTF-8 text`);
  }
}

/** A file's text, at most MAX_LOAD_BYTES. */
export async function readFile(file) {
  if (file.size > MAX_LOAD_BYTES) throw new Error(`${file.name} is larger than ${MAX_LOAD_BYTES / (1024 * 1024)} MB: not loaded`);
  return readCapped(file.stream(), MAX_LOAD_BYTES, file.name);
}

/**
 * The text at an http(s) address, at most MAX_LOAD_BYTES; rejects with an Error that says why
 * (not an address, the server's status, no answer or no permission to read it (CORS), too large).
 */
export async function fetchText(address) {
  let url;
  try {
    url = new URL(address.trim());
  } catch {
    throw new Error(`"${address.trim()}" is not an address (it must start with https://)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`only http and https addresses can be loaded, not ${url.protocol}`);
  let response;
  try {
    response = await fetch(url, { credentials: 'omit', redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    if (error?.name === 'TimeoutError') throw new Error(`${url.host} did not answer within ${FETCH_TIMEOUT_MS / 1000} s`);
    throw new Error(
      `${url.host} could not be read from this page: the address did not answer, or its server does not let other sites read it (CORS: it must send Access-Control-Allow-Origin). Download the file and open it instead.`,
    );
  }
  if (!response.ok) throw new Error(`${url.host} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  const length = Number(response.headers.get('content-length'));
  if (length > MAX_LOAD_BYTES) throw new Error(`${url.pathname.split('/').pop() || url.host} is larger than ${MAX_LOAD_BYTES / (1024 * 1024)} MB: not loaded`);
  if (!response.body) return '';
  return readCapped(response.body, MAX_LOAD_BYTES, url.pathname.split('/').pop() || url.host);
}

/** Downloads a text as a file (a Blob link, clicked). */
export function downloadText(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = h('a', { attrs: { href: url, download: name } });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Copies a text; says on the button whether it worked, then restores its label. Without
 * clipboard access, `shown` (the element that shows the text, if any) is selected instead.
 */
export async function copyText(button, text, shown = undefined) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    if (shown && shown.getClientRects().length > 0) {
      getSelection()?.selectAllChildren(shown);
      button.textContent = 'Selected: press Ctrl+C';
    } else {
      button.textContent = 'Copy failed';
    }
  }
  setTimeout(() => (button.textContent = label), 1500);
}

/**
 * The tools of one editor pane, drawn into `bar` (and the URL row after it).
 *
 * @param {HTMLElement} pane the pane (files dropped anywhere on it are loaded)
 * @param {HTMLElement} bar where the buttons go
 * @param {object} options
 * @param {string} options.id a prefix for the controls' ids (`definition`, `manifest`)
 * @param {string} options.label the editor's name in labels ("definition")
 * @param {() => string} options.text the editor's text
 * @param {(text: string) => void} options.replace puts a formatted text in the editor (one undoable change)
 * @param {(text: string, from: string) => void} options.load puts a loaded text in the editor (`from`: the file or address)
 * @param {() => string} options.fileName the name of a downloaded file
 * @param {(line: number, column: number) => void} options.reveal shows a place of the text (an error Format found)
 * @param {(message: string) => void} options.say a message about the last action ('' clears it)
 */
export function createEditorTools(pane, bar, options) {
  const { id, label } = options;
  const button = (name, text, title, onClick) =>
    /** @type {HTMLButtonElement} */ (h('button', { class: 'tool', attrs: { type: 'button', id: `${id}-${name}`, title }, on: { click: onClick } }, text));
  const picker = /** @type {HTMLInputElement} */ (
    h('input', {
      attrs: { type: 'file', hidden: '', accept: '.yaml,.yml,.json,.txt,text/*,application/json,application/yaml', 'aria-hidden': 'true', tabindex: '-1' },
    })
  );
  const address = /** @type {HTMLInputElement} */ (
    h('input', {
      class: 'url-input',
      attrs: { type: 'url', id: `${id}-url-input`, placeholder: 'https://…/manifest.yaml', spellcheck: 'false', autocomplete: 'url' },
    })
  );
  const urlRow = h(
    'div',
    { class: 'url-row', attrs: { id: `${id}-url-row`, hidden: '' } },
    h('label', { attrs: { for: `${id}-url-input` } }, `Load the ${label} from`),
    address,
    button('url-load', 'Load', `Fetch the address into the ${label} editor`, () => loadUrl()),
    button('url-cancel', 'Cancel', 'Close this row', () => closeUrl()),
  );
  const format = button('format', 'Format', `Re-indent the ${label} (YAML: comments kept)`, () => {
    const result = formatText(options.text());
    if ('error' in result) {
      options.say(
        `Not formatted: the ${label} cannot be read at line ${result.error.line}, column ${result.error.column}: ${result.error.message}. Nothing was changed.`,
      );
      options.reveal(result.error.line, result.error.column);
      return;
    }
    if (result.text === options.text()) {
      options.say(`The ${label} is already formatted.`);
      return;
    }
    options.replace(result.text);
    options.say(`Formatted the ${label} (Ctrl+Z undoes it).`);
  });
  const open = button('open', 'Open…', `Load a file into the ${label} editor (or drop one on it)`, () => picker.click());
  const fromUrl = button('url', 'URL…', `Load the ${label} from an address`, () => {
    urlRow.hidden = !urlRow.hidden;
    if (!urlRow.hidden) address.focus();
  });
  const copy = button('copy', 'Copy', `Copy the ${label}`, (event) => copyText(event.currentTarget, options.text()));
  const download = button('download', 'Download', `Download the ${label} as a file`, () =>
    downloadText(options.fileName(), options.text(), 'application/yaml'),
  );
  bar.append(format, open, fromUrl, copy, download, picker);
  bar.after(urlRow);

  function closeUrl() {
    urlRow.hidden = true;
    fromUrl.focus();
  }

  async function loadUrl() {
    const target = address.value;
    options.say(`Loading ${target.trim()}…`);
    try {
      const text = await fetchText(target);
      options.load(text, target.trim());
      options.say(`Loaded ${target.trim()}.`);
      urlRow.hidden = true;
    } catch (error) {
      options.say(`Not loaded: ${error.message}`);
    }
  }

  async function loadFile(file) {
    try {
      const text = await readFile(file);
      options.load(text, file.name);
      options.say(`Loaded ${file.name}.`);
    } catch (error) {
      options.say(`Not loaded: ${error.message}`);
    }
  }

  address.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      loadUrl();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      closeUrl();
    }
  });
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    picker.value = '';
    if (file) loadFile(file);
  });
  // A file dropped anywhere on the pane replaces the editor's text (CodeMirror would insert it
  // at the drop point: the capture phase takes the drop first). Dropped text is left to it.
  const hasFiles = (event) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  pane.addEventListener(
    'dragover',
    (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      pane.classList.add('dropping');
    },
    true,
  );
  pane.addEventListener('dragleave', (event) => {
    if (!pane.contains(/** @type {Node | null} */ (event.relatedTarget))) pane.classList.remove('dropping');
  });
  pane.addEventListener(
    'drop',
    (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.stopPropagation();
      pane.classList.remove('dropping');
      const file = event.dataTransfer?.files?.[0];
      if (file) loadFile(file);
    },
    true,
  );

  return {
    /** Turns Format off while the text cannot be edited (a loaded text is always taken). */
    setReadOnly(readOnly) {
      format.disabled = readOnly;
      format.title = readOnly ? `The ${label} follows the catalog: "Edit a copy" to change it` : `Re-indent the ${label} (YAML: comments kept)`;
    },
    loadFile,
  };
}
