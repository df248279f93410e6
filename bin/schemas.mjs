// API schemas named on the command line (`--crd FILE|DIR|-`): CustomResourceDefinitions and
// Kubernetes OpenAPI v3 documents, plain or gzip-compressed, for `validate --crd` and
// `draft --crd`.

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { CliError } from './errors.mjs';
import { decodeText, displayName, MAX_TEXT_BYTES, readBytes } from './inputs.mjs';

/** Extensions a --crd folder is searched for. */
const SCHEMA_EXTENSIONS = ['.yaml', '.yml', '.json', '.gz'];

/**
 * The schema texts `--crd` names, as `{ name, text }`: files (gzip-compressed ones are
 * recognised by their first bytes), folders (every *.yaml, *.yml, *.json and *.gz file below
 * them, sorted; folders whose name starts with a dot are not searched) and - (standard input).
 * What cannot be read goes to `unreadable(name, CliError)`.
 */
export function readSchemas(args, unreadable) {
  const files = [];
  for (const arg of args) {
    if (arg !== '-' && statOrNull(arg)?.isDirectory()) {
      const found = walk(arg).filter((f) => SCHEMA_EXTENSIONS.includes(path.extname(f).toLowerCase()));
      if (found.length === 0) unreadable(arg, new CliError(`${arg}: the folder holds no ${SCHEMA_EXTENSIONS.map((e) => `*${e}`).join(', ')} file`));
      files.push(...found);
    } else {
      files.push(arg);
    }
  }
  const schemas = [];
  for (const file of files) {
    const name = file === '-' ? '<stdin>' : displayName(file);
    try {
      // Read up to the text cap whatever the file is, and unpack at most as much.
      let bytes = readBytes(file, name);
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
        try {
          bytes = gunzipSync(bytes, { maxOutputLength: MAX_TEXT_BYTES });
        } catch (error) {
          if (error.code === 'ERR_BUFFER_TOO_LARGE')
            throw new CliError(`${name}: unpacks to more than ${MAX_TEXT_BYTES / (1024 * 1024)} MiB, the most that is read`);
          throw error;
        }
      }
      schemas.push({ name, text: decodeText(bytes, name) });
    } catch (error) {
      const message = error instanceof CliError ? error.message : `cannot read ${name}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`;
      unreadable(name, new CliError(message));
    }
  }
  return schemas;
}

function statOrNull(file) {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** Every file below `dir`, sorted; folders whose name starts with a dot are not searched. */
function walk(dir) {
  const out = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = `${dir.replace(/\/+$/, '')}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) out.push(...walk(full));
    } else if (entry.isFile()) {
      out.push(full);
    }
  }
  return out;
}
