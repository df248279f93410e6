// Reading what the user names: files, standard input, folders and glob patterns, and the
// text encodings files come in.

import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

import { CliError } from './errors.mjs';

/** Extensions a folder is searched for (as kubeconform does). */
export const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

const GLOB_CHARACTERS = /[*?[{]/;

/**
 * The files that `args` name, in order: `-` (standard input) and files as given, a folder as
 * every `*.yaml`, `*.yml` and `*.json` file below it (sorted; symbolic links to folders are not
 * followed and folders whose name starts with a dot, like `.git`, not searched), a pattern that names no existing path as the files it matches (`*`, `?`, `[...]`,
 * `{a,b}` within a path segment, `**` for any folders). Returns `{ files, problems }`: a
 * problem for a folder without such files or a pattern that matches nothing.
 */
export function expandPaths(args) {
  const files = [];
  const problems = [];
  for (const arg of args) {
    if (arg === '-') {
      files.push(arg);
      continue;
    }
    const stat = statOrNull(arg);
    if (stat?.isDirectory()) {
      const found = walk(arg, Infinity).filter((file) => MANIFEST_EXTENSIONS.includes(path.extname(file).toLowerCase()));
      if (found.length === 0) problems.push({ file: arg, message: `${arg}: the folder holds no ${MANIFEST_EXTENSIONS.map((e) => `*${e}`).join(', ')} file` });
      files.push(...found);
    } else if (!stat && GLOB_CHARACTERS.test(arg)) {
      const found = glob(arg);
      if (found.length === 0) problems.push({ file: arg, message: `no file matches "${arg}"` });
      files.push(...found);
    } else {
      files.push(arg);
    }
  }
  return { files, problems };
}

function statOrNull(file) {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/**
 * Every file below `dir` (at most `depth` folders down), sorted, joined to `dir` with `/`;
 * folders whose name starts with a dot (`.git`) are not searched.
 */
function walk(dir, depth) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out = [];
  for (const entry of entries) {
    const full = dir.endsWith('/') ? `${dir}${entry.name}` : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (depth > 0 && !entry.name.startsWith('.')) out.push(...walk(full, depth - 1));
    } else if (entry.isFile() || (entry.isSymbolicLink() && statOrNull(full)?.isFile())) {
      out.push(full);
    }
  }
  return out;
}

/** The files a glob pattern matches, sorted. */
export function glob(pattern) {
  const normalised = path.sep === '\\' ? pattern.replaceAll('\\', '/') : pattern;
  const segments = normalised.split('/');
  const firstGlob = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  const baseSegments = segments.slice(0, firstGlob);
  const rest = segments.slice(firstGlob);
  const base = baseSegments.length === 0 ? '.' : baseSegments.join('/') || '/';
  const depth = rest.includes('**') ? Infinity : rest.length - 1;
  const matcher = new RegExp(`^${rest.map(segmentPattern).join('')}$`);
  const prefix = base === '.' && !normalised.startsWith('./') ? '' : base.endsWith('/') ? base : `${base}/`;
  return walk(base, depth)
    .map((file) => (base === '.' ? file.slice(2) : file.slice(prefix.length)))
    .filter((relative) => matcher.test(relative))
    .map((relative) => `${prefix}${relative}`);
}

/** A regular expression for one path segment of a glob, followed by its `/` but the last. */
function segmentPattern(segment, index, all) {
  const last = index === all.length - 1;
  if (segment === '**') return last ? '.*' : '(?:[^/]+/)*';
  // `*` and `?` do not match a leading dot (as in shells): hidden files are named explicitly.
  let out = segment.startsWith('.') ? '' : '(?!\\.)';
  for (let i = 0; i < segment.length; i += 1) {
    const c = segment[i];
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replaceAll('\\', '\\\\')}]`;
      i = close;
    } else if (c === '{') {
      const close = segment.indexOf('}', i);
      if (close === -1) {
        out += '\\{';
        continue;
      }
      out += `(?:${segment
        .slice(i + 1, close)
        .split(',')
        .map(escapeRegExp)
        .join('|')})`;
      i = close;
    } else out += escapeRegExp(c);
  }
  return last ? out : `${out}/`;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The most bytes an input may hold: the core's text limit (`MAX_TEXT_BYTES` in src/yaml.rs,
 * 64 MiB; tests/node/cli-inputs.test.mjs checks that the two agree). Reading stops one byte past
 * it, whatever the input is (a file, a device like /dev/zero, a fifo, standard input), so a
 * file that never ends costs 64 MiB, not all the memory there is.
 */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;

/** The text of `file` (`-` for standard input), decoded (see decodeText); at most MAX_TEXT_BYTES. */
export function readInput(file) {
  return decodeText(readBytes(file), displayName(file));
}

/**
 * The bytes of `file` (`-` for standard input), read in chunks up to MAX_TEXT_BYTES; a longer
 * input is a `CliError` naming it (exit 2). `name` is how messages show the file.
 */
export function readBytes(file, name = displayName(file)) {
  let fd;
  try {
    fd = file === '-' ? 0 : openSync(file, 'r');
  } catch (error) {
    throw new CliError(`cannot read ${name}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
  try {
    const tooLarge = () =>
      new CliError(
        `${name}: the input holds more than ${MAX_TEXT_BYTES / (1024 * 1024)} MiB, the most that is read (is it a device or a stream that does not end?)`,
      );
    // A regular file says its size: one that is too large is refused without reading it.
    if (fd !== 0 && fstatSync(fd).isFile() && fstatSync(fd).size > MAX_TEXT_BYTES) throw tooLarge();
    const chunks = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, MAX_TEXT_BYTES + 1 - total));
      const read = readChunk(fd, chunk, name);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > MAX_TEXT_BYTES) throw tooLarge();
    }
    return Buffer.concat(chunks, total);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/** One `readSync`; 0 at the end. Standard input left non-blocking by a parent is waited for. */
function readChunk(fd, chunk, name) {
  for (;;) {
    try {
      return readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === 'EOF') return 0;
      if (error.code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw new CliError(`cannot read ${name}: ${error.message}`);
    }
  }
}

// --- text encodings ---------------------------------------------------------------------------

/**
 * A file's text: UTF-8 (a byte order mark is dropped) or UTF-16 with a byte order mark (LE or
 * BE, as Windows tools write it). Bytes that are not valid in the encoding are an error located
 * at the first bad one, never silently replaced by U+FFFD (which would then show up in names).
 */
export function decodeText(bytes, name) {
  const starts = (...prefix) => prefix.every((byte, i) => bytes[i] === byte);
  if (starts(0xff, 0xfe, 0x00, 0x00) || starts(0x00, 0x00, 0xfe, 0xff)) {
    throw new CliError(`${name}: UTF-32 is not supported: save the file as UTF-8`);
  }
  if (starts(0xff, 0xfe)) return decodeUtf16(bytes.subarray(2), 'utf-16le', name);
  if (starts(0xfe, 0xff)) return decodeUtf16(bytes.subarray(2), 'utf-16be', name);
  const body = starts(0xef, 0xbb, 0xbf) ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const at = firstInvalidUtf8(body);
    const lineStart = body.lastIndexOf(0x0a, at - 1) + 1;
    const line = 1 + countByte(body.subarray(0, lineStart), 0x0a);
    const column = new TextDecoder('utf-8', { ignoreBOM: true }).decode(body.subarray(lineStart, at)).length + 1;
    throw located(name, line, column, `invalid UTF-8 (byte 0x${hex(body[at])}): save the file as UTF-8`);
  }
}

function decodeUtf16(body, encoding, name) {
  const units = [];
  for (let i = 0; i + 1 < body.length; i += 2) units.push(encoding === 'utf-16le' ? body[i] | (body[i + 1] << 8) : (body[i] << 8) | body[i + 1]);
  for (let i = 0; i < units.length; i += 1) {
    const unit = units[i];
    const high = unit >= 0xd800 && unit <= 0xdbff;
    const low = unit >= 0xdc00 && unit <= 0xdfff;
    if (high && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff) {
      i += 1;
    } else if (high || low) {
      throw utf16Error(units, i, name, `an unpaired surrogate 0x${unit.toString(16).toUpperCase()}`);
    }
  }
  if (body.length % 2 === 1) throw utf16Error(units, units.length, name, 'an odd number of bytes');
  return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
}

function utf16Error(units, at, name, what) {
  const before = String.fromCharCode(...units.slice(units.lastIndexOf(0x0a, at - 1) + 1, at));
  return located(name, 1 + units.slice(0, at).filter((u) => u === 0x0a).length, before.length + 1, `invalid UTF-16 (${what}): save the file as UTF-8`);
}

/** The offset of the first byte that is not part of a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes) {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
      continue;
    }
    // Allowed range of the second byte (no overlong forms, no surrogates, nothing past U+10FFFF).
    let length;
    let [low, high] = [0x80, 0xbf];
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) [length, low, high] = [3, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf];
    else if (b >= 0xf0 && b <= 0xf4) [length, low, high] = [4, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf];
    else return i;
    for (let k = 1; k < length; k += 1) {
      const next = bytes[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (next === undefined || next < min || next > max) return i;
    }
    i += length;
  }
  return bytes.length;
}

function countByte(bytes, byte) {
  let count = 0;
  for (const b of bytes) if (b === byte) count += 1;
  return count;
}

function hex(byte) {
  return byte.toString(16).toUpperCase().padStart(2, '0');
}

function located(name, line, column, message) {
  const error = new CliError(`${name}:${line}:${column}: ${message}`);
  error.line = line;
  error.column = column;
  return error;
}

export function displayName(file) {
  return file === '-' ? 'stdin' : file;
}
