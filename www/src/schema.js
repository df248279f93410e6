// The API schema on the page (issue 23): a CRD or Kubernetes OpenAPI document the user loads by
// pasting, from a file (.gz too), after finding where to get it in a bundled index of the
// schemas the catalog is checked against (names and upstream addresses only: the schemas
// themselves are never bundled, and the page never fetches anything from elsewhere). Once
// loaded, the definition editor completes paths from the schema and shows each path's type on
// hover, unknown paths are underlined (the core's `checkDefinition`, in the worker, a moment
// after each edit), and an unknown type can be drafted from the schema.
//
// The schema text is kept in the worker (schema-worker.js): a check or a completion sends only
// the definition or a path. A replaced worker (watchdog, trap) gets it again before the next ask.

import index from './schema-index.json';
import { fill, h } from '../../js/render/dom.js';
import { parsePath } from './jqpaths.js';

/** The largest schema read, decompressed (the largest shared CRD is 2.7 MB). */
export const MAX_SCHEMA_BYTES = 32 * 1024 * 1024;
/** How long after an edit the definition is checked against the schema. */
export const CHECK_DEBOUNCE_MS = 200;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The index entries for a type (`apiVersion`, `kind`), its own version first.
 *
 * @param {{ apiVersion?: unknown, kind?: unknown }} [type]
 */
export function indexEntries({ apiVersion, kind } = {}) {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return [];
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  return index.filter((e) => e.kind === kind && e.group === group);
}

/** A simple jq path's steps as the path `schemaFields` reads (`.a[]["b.c"]`; `.` for none). */
export function schemaPath(steps) {
  const text = steps.map((s) => (s.each || s.index !== undefined ? '[]' : IDENT.test(s.key) ? `.${s.key}` : `[${JSON.stringify(s.key)}]`)).join('');
  return text === '' ? '.' : text;
}

/** Reads a file's text, gunzipping a `.gz` (by its magic bytes), stopping past MAX_SCHEMA_BYTES. */
export async function readSchemaFile(file) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (!gzip && file.size > MAX_SCHEMA_BYTES) throw new Error(`${file.name} is larger than ${MAX_SCHEMA_BYTES / (1024 * 1024)} MB`);
  const stream = gzip ? file.stream().pipeThrough(new DecompressionStream('gzip')) : file.stream();
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    let step;
    try {
      step = await reader.read();
    } catch {
      throw new Error(`${file.name} could not be decompressed`);
    }
    if (step.done) break;
    total += step.value.length;
    if (total > MAX_SCHEMA_BYTES) {
      await reader.cancel();
      throw new Error(`${file.name} holds more than ${MAX_SCHEMA_BYTES / (1024 * 1024)} MB of text`);
    }
    chunks.push(step.value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${file.name} is not UTF-8 text`);
  }
}

function size(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function typeLabel(type) {
  return type ? `${type.kind} ${type.group ? `${type.group}/` : ''}${type.version}` : '';
}

/**
 * The schema panel and what the page asks of the schema.
 *
 * @param {HTMLDetailsElement} panel the `<details>` element the panel is drawn in
 * @param {object} hooks
 * @param {import('../../js/render/engine.js').Engine} hooks.engine
 * @param {() => string} hooks.definition the definition editor's text
 * @param {() => object | undefined} hooks.object the manifest's workload object (its type picks the schema's)
 * @param {() => void} hooks.onDiagnostics the check's diagnostics changed
 * @param {() => void} hooks.onLoaded a schema was loaded or forgotten
 */
export function createSchemaPanel(panel, { engine, definition, object, onDiagnostics, onLoaded }) {
  let loaded; // {name, text, type?, several}
  let sentTo = -1; // engine.restarts when the worker last got the schema
  let checkTimer;
  let checkedText;
  let diagnostics = [];
  let unlocated = [];
  let hintFor = '';

  const summary = h('span', { class: 'schema-summary' }, 'none');
  const status = h('p', { class: 'schema-status meta', attrs: { id: 'schema-status', role: 'status', 'aria-live': 'polite' } });
  const hint = h('p', { class: 'schema-hint', attrs: { id: 'schema-hint' } });
  const find = /** @type {HTMLSelectElement} */ (h('select', { attrs: { id: 'schema-index', 'aria-label': 'Where to get the API schema of a type' } }));
  const file = /** @type {HTMLInputElement} */ (
    h('input', { attrs: { id: 'schema-file', type: 'file', accept: '.yaml,.yml,.json,.gz,application/gzip,application/json,text/yaml' } })
  );
  const text = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      class: 'schema-text',
      attrs: {
        id: 'schema-text',
        rows: '4',
        spellcheck: 'false',
        placeholder: 'Paste a CustomResourceDefinition or a Kubernetes OpenAPI v3 document (YAML or JSON)',
      },
    })
  );
  const loadButton = /** @type {HTMLButtonElement} */ (h('button', { attrs: { id: 'schema-load', type: 'button' } }, 'Load pasted schema'));
  const forget = /** @type {HTMLButtonElement} */ (h('button', { attrs: { id: 'schema-forget', type: 'button' } }, 'Forget schema'));
  forget.disabled = true;

  fill(
    find,
    h('option', { attrs: { value: '' } }, 'Where to get a type’s schema…'),
    index.map((e, i) => h('option', { attrs: { value: String(i) } }, `${e.kind} (${e.group || 'core'}) ${e.versions.join(', ')}`)),
  );
  fill(
    panel,
    h('summary', null, 'API schema: ', summary),
    h(
      'div',
      { class: 'schema-body' },
      hint,
      h('p', { class: 'schema-row' }, h('label', null, 'Index ', find)),
      h('p', { class: 'schema-row' }, h('label', null, 'From a file (.yaml, .json, .gz) ', file)),
      h('label', { class: 'schema-paste', attrs: { for: 'schema-text' } }, 'Or paste it'),
      text,
      h('p', { class: 'schema-row' }, loadButton, ' ', forget),
      status,
    ),
  );

  /** Says where the type's schema is published (the index entry of `entries[0]`). */
  function showHint(entries, why) {
    if (entries.length === 0) {
      fill(hint);
      hint.hidden = true;
      return;
    }
    hint.hidden = false;
    const links = entries.map((e) => h('a', { attrs: { href: e.url, target: '_blank', rel: 'noopener noreferrer' } }, e.url.split('/').pop()));
    const e = entries[0];
    fill(
      hint,
      `${why}${e.kind} (${e.group || 'core'}, ${e.versions.join(', ')}) is published upstream: `,
      ...links.flatMap((a, i) => (i ? [', ', a] : [a])),
      '. Download it, then load the file or paste it here.',
    );
  }

  find.addEventListener('change', () => {
    const entry = index[Number(find.value)];
    if (entry) showHint([entry], 'The schema of ');
  });

  async function ask(type, payload) {
    if (loaded && sentTo !== engine.restarts) {
      sentTo = engine.restarts;
      await engine.ask('schema', { name: loaded.name, text: loaded.text });
    }
    const answer = await engine.ask(type, payload);
    if (answer?.error) throw new Error(answer.error);
    return answer;
  }

  function setStatus(...parts) {
    fill(status, ...parts);
  }

  function showCheck() {
    if (!loaded) return;
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    fill(summary, `${loaded.name}${loaded.type ? ` (${typeLabel(loaded.type)})` : ''}${errors ? ` · ${errors} path${errors > 1 ? 's' : ''} not in it` : ''}`);
    const against = unlocated.length ? unlocated.map((d) => d.message).join('; ') : '';
    setStatus(
      h('b', null, loaded.name),
      ` (${size(loaded.text.length)})${loaded.type ? `: ${typeLabel(loaded.type)}` : ': several types'}. `,
      checkedText === undefined
        ? ''
        : errors
          ? `${errors} path${errors > 1 ? 's' : ''} of the definition ${errors > 1 ? 'are' : 'is'} not in it or lead to the wrong kind of value. `
          : against
            ? ''
            : 'Every path the definition reads is in it. ',
      against,
    );
  }

  async function load(name, schemaText) {
    setStatus(`reading ${name}…`);
    let answer;
    try {
      sentTo = engine.restarts;
      answer = await engine.ask('schema', { name, text: schemaText });
      if (answer?.error) throw new Error(answer.error);
    } catch (error) {
      setStatus(`${name} could not be read: ${error.message}`);
      return false;
    }
    if (!answer.loaded) {
      loaded = undefined;
      setStatus(`${name} holds no schema the engine can read: ${answer.diagnostics.map((d) => d.message).join('; ') || 'empty'}`);
      fill(summary, 'none');
      forget.disabled = true;
      clear();
      return false;
    }
    loaded = { name, text: schemaText, type: answer.type, several: answer.several };
    panel.dataset.loaded = 'true';
    // Loaded: the panel folds back to its line (which says what was loaded and what the check
    // finds), and the editor gets its room back.
    panel.open = false;
    forget.disabled = false;
    checkedText = undefined;
    showCheck();
    onLoaded();
    checkNow();
    return true;
  }

  function clear() {
    diagnostics = [];
    unlocated = [];
    checkedText = undefined;
    delete panel.dataset.loaded;
    onDiagnostics();
    onLoaded();
  }

  loadButton.addEventListener('click', () => {
    if (text.value.trim() === '') {
      setStatus('Paste a schema first.');
      return;
    }
    load('pasted schema', text.value);
  });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    try {
      await load(chosen.name, await readSchemaFile(chosen));
    } catch (error) {
      setStatus(error.message);
    }
  });
  forget.addEventListener('click', async () => {
    loaded = undefined;
    forget.disabled = true;
    fill(summary, 'none');
    setStatus('');
    clear();
    try {
      await engine.ask('schema', { text: '' });
    } catch {
      // A worker that was replaced has no schema anyway.
    }
  });

  async function checkNow() {
    clearTimeout(checkTimer);
    if (!loaded) return;
    const textNow = definition();
    try {
      const answer = await ask('schemaCheck', { definition: textNow });
      // A newer check is on its way when the text changed meanwhile; positions of this one
      // still hold for the text they were found in.
      if (!loaded) return;
      checkedText = textNow;
      diagnostics = answer.diagnostics.filter((d) => d.source === 'definition' && d.line).map((d) => ({ ...d, source: 'definition' }));
      unlocated = answer.diagnostics.filter((d) => !d.line && d.severity !== 'info');
    } catch (error) {
      diagnostics = [];
      unlocated = [{ message: `the check failed: ${error.message}` }];
    }
    showCheck();
    onDiagnostics();
  }

  return {
    get loaded() {
      return Boolean(loaded);
    },
    /** The check's findings located in the definition (source `definition`). */
    get diagnostics() {
      return diagnostics;
    },
    /** Checks the definition again a moment after the last change. */
    checkSoon() {
      if (!loaded) return;
      clearTimeout(checkTimer);
      checkTimer = setTimeout(checkNow, CHECK_DEBOUNCE_MS);
    },
    /** The manifest's type changed: say where its schema is published, when the index knows it. */
    typeChanged(type) {
      const key = type ? `${type.apiVersion} ${type.kind}` : '';
      if (key === hintFor) return;
      hintFor = key;
      showHint(indexEntries(type), 'The schema of ');
    },
    /**
     * Completion after a typed path (`.spec.rep`): `{from, options}` (from: where the partial key
     * starts in `pathText`), or null.
     */
    async complete(pathText) {
      if (!loaded) return null;
      const parsed = parsePath(pathText);
      if (!parsed || parsed.partial === null) return null;
      const at = await ask('schemaFields', { path: schemaPath(parsed.steps), object: typeOf(object()) });
      if (!at.found) return null;
      const options = [];
      for (const field of at.fields) {
        const written = IDENT.test(field.name) ? field.name : JSON.stringify(field.name);
        const info = field.description;
        if (/\ban array\b|\ba map\b/.test(field.type))
          options.push({ label: `${written}[]`, detail: `each of ${field.type}`, info, type: 'property', boost: 1 });
        options.push({ label: written, detail: field.type, info, type: 'property' });
      }
      return { from: pathText.length - parsed.partial.length, options };
    },
    /** What the schema says a path is (`.spec.suspend: a boolean`), or null. */
    async describe(pathText) {
      if (!loaded) return null;
      const parsed = parsePath(pathText);
      if (!parsed) return null;
      const steps = parsed.partial ? [...parsed.steps, { key: parsed.partial }] : parsed.steps;
      const at = await ask('schemaFields', { path: schemaPath(steps), object: typeOf(object()) });
      const where = at.schema ? ` (${typeLabel(at.schema)})` : '';
      if (!at.found) return `${pathText}: not in the schema${where}`;
      if (!at.type) return `${pathText}: any value (the schema leaves it open)${where}`;
      return `${pathText}: ${at.type}${where}${at.description ? `\n${at.description}` : ''}`;
    },
    /** A definition drafted from the schema for the manifest: `{text, drafted?, diagnostics}`. */
    draft(manifest) {
      return ask('schemaDraft', { manifest });
    },
    /** Loads a schema text (as the Load button does); resolves to true when it was read. */
    load,
  };
}

function typeOf(value) {
  return value && typeof value === 'object' ? { apiVersion: value.apiVersion, kind: value.kind } : undefined;
}
