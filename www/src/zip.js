// A zip archive writer for the playground's "Export folder": stored entries only (no
// compression; the files are a few kilobytes of YAML), CRC-32 per entry, UTF-8 names. Enough
// for `unzip`, the browsers' and the operating systems' own archive tools; no dependency.
//
// Layout (APPNOTE.TXT 4.3): a local header + the bytes for each file, then the central
// directory (one record per file), then the end-of-central-directory record.

const encoder = new TextEncoder();

/** The CRC-32 table (IEEE 802.3 polynomial, reflected), built once on first use. */
let table;
function crcTable() {
  if (table) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** CRC-32 of bytes, as zip, gzip and PNG compute it. */
export function crc32(bytes) {
  const t = crcTable();
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = t[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** MS-DOS time and date fields (2-second resolution, local time, years 1980..2107). */
function dosDateTime(date) {
  const year = Math.min(2107, Math.max(1980, date.getFullYear()));
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** The one flag we set: names (and comments) are UTF-8. */
const UTF8_NAMES = 0x0800;
/** Version needed to extract: 2.0 (plain stored files and folders). */
const VERSION = 20;

/**
 * A zip archive of `files` (`{name, data}`: a path with `/` separators and the text or bytes).
 * Names must be relative and unique; more than 65535 files or 4 GB is refused (no zip64).
 *
 * @param {{name: string, data: string | Uint8Array}[]} files
 * @param {Date} [modified] the time written for every entry
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function zip(files, modified = new Date()) {
  if (files.length > 0xffff) throw new RangeError('a zip without zip64 holds at most 65535 files');
  const seen = new Set();
  const stamp = dosDateTime(modified);
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const file of files) {
    const name = String(file.name);
    if (name === '' || name.startsWith('/') || name.split('/').includes('..')) throw new TypeError(`not a relative file name: ${name}`);
    if (seen.has(name)) throw new TypeError(`two files named ${name}`);
    seen.add(name);
    const nameBytes = encoder.encode(name);
    const data = typeof file.data === 'string' ? encoder.encode(file.data) : file.data;
    const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, VERSION, true);
    local.setUint16(6, UTF8_NAMES, true);
    local.setUint16(8, 0, true); // stored
    local.setUint16(10, stamp.time, true);
    local.setUint16(12, stamp.date, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    local.setUint16(28, 0, true);
    locals.push(new Uint8Array(local.buffer), nameBytes, data);

    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, VERSION, true); // made by: MS-DOS attributes, version 2.0
    central.setUint16(6, VERSION, true);
    central.setUint16(8, UTF8_NAMES, true);
    central.setUint16(10, 0, true);
    central.setUint16(12, stamp.time, true);
    central.setUint16(14, stamp.date, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, data.length, true);
    central.setUint16(28, nameBytes.length, true);
    // extra, comment, disk, internal and external attributes: all zero
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), nameBytes);

    offset += 30 + nameBytes.length + data.length;
    if (offset > 0xffffffff) throw new RangeError('a zip without zip64 holds at most 4 GB');
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  return concat([...locals, ...centrals, new Uint8Array(end.buffer)]);
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
