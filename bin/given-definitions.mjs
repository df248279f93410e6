// The definitions of a --definition FILE (one, or a `---` stream of them, each for its type),
// for describe and the edit commands.

import { splitDocuments } from './documents.mjs';
import { CliError } from './errors.mjs';
import { displayName, readInput } from './inputs.mjs';

/**
 * The definitions of a --definition FILE: `{ definition, origin }` for its one definition, or
 * for each document of a `---` stream (each object then uses the one written for its type). A
 * document that is not YAML ends the command, located in FILE.
 */
export function readDefinitions(api, file) {
  const name = displayName(file);
  const given = [];
  for (const document of splitDocuments(readInput(file))) {
    const definition = new api.Definition(document.text);
    const syntax = definition.diagnostics.find((d) => d.code.startsWith('syntax/') && d.severity === 'error');
    if (syntax) {
      for (const other of [...given.map((g) => g.definition), definition]) other.free();
      throw new CliError(`${name}:${syntax.line ?? document.line}:${syntax.column ?? 1}: ${syntax.message}`);
    }
    given.push({ definition, text: document.text, origin: { label: name, location: name } });
  }
  return given;
}

/** True when a definition's root kind `gvk` is the object's apiVersion and kind. */
function covers(gvk, object) {
  return Boolean(gvk) && object.kind === gvk.kind && object.apiVersion === (gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version);
}

/** The given definition for `object`: the only one, or the one written for its type (or null). */
export function givenFor(given, object) {
  if (given.length === 1) return given[0];
  return given.find((g) => covers(g.definition.gvk, object)) ?? null;
}
