// Reads catalog/ for the playground's examples picker (at build time only).
//
// catalog/<entry>/definition.yaml is a definition; catalog/<entry>/tests/*.yaml are its cases,
// each `{description, object, expect}`. The example's manifest is the `object` text exactly as
// written in the case file (comments kept), dedented.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isScalar, parseDocument, stringify } from 'yaml';

/**
 * @returns {{name: string, dir: string, apiVersion: string, kind: string, text: string,
 *   examples: {file: string, description: string, text: string}[]}[]}
 */
export function readCatalog(dir) {
  if (!existsSync(dir)) return [];
  const entries = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const definitionPath = join(dir, entry.name, 'definition.yaml');
    if (!existsSync(definitionPath)) continue;
    const text = readFileSync(definitionPath, 'utf8');
    const definition = parseDocument(text).toJS() ?? {};
    const kind = definition?.spec?.structureDefinition?.rootComponent?.kind ?? {};
    const apiVersion = kind.group ? `${kind.group}/${kind.version}` : `${kind.version ?? ''}`;
    entries.push({
      name: definition?.metadata?.name ?? entry.name,
      dir: entry.name,
      apiVersion,
      kind: kind.kind ?? '',
      text,
      examples: readExamples(join(dir, entry.name, 'tests')),
    });
  }
  return entries.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

function readExamples(dir) {
  if (!existsSync(dir)) return [];
  const examples = [];
  for (const file of readdirSync(dir).sort()) {
    if (!/\.ya?ml$/.test(file)) continue;
    const source = readFileSync(join(dir, file), 'utf8');
    const document = parseDocument(source);
    const object = document.get('object', true);
    if (!object) continue;
    examples.push({
      file: file.replace(/\.ya?ml$/, ''),
      description: String(document.get('description') ?? file),
      text: objectText(source, object),
    });
  }
  return examples;
}

function objectText(source, node) {
  if (isScalar(node) && typeof node.value === 'string') return node.value;
  const [start, end] = node.range ?? [];
  if (start === undefined) return stringify(node);
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  if (source.slice(lineStart, start).trim() !== '' && source.slice(lineStart, start).trim() !== '-') {
    return stringify(node.toJSON());
  }
  const lines = (' '.repeat(start - lineStart) + source.slice(start, end)).replace(/\s+$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join('\n') + '\n';
}
