// Command-line arguments, read by node:util parseArgs the way our help texts describe them, with
// errors in our words.
//
// An option spec is `{ type: 'string' | 'boolean', short?, multiple?, values?, valueName?,
// description? }`: the shape of parseArgs, plus what messages and the completion scripts use
// (`values` lists the choices; the command checks them, with its own message). Forms accepted:
// `--name value`, `--name=value`, `-n value`, `-nvalue`, `-n=value`, grouped short booleans
// (`-qs`), `--` to end options; a lone `-` is a positional (standard input).

import { parseArgs } from 'node:util';

/** A problem with the arguments; the caller adds where to find usage. */
export class ArgumentError extends Error {}

/** The options every command has. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h', description: 'Show help' },
};

/**
 * Reads `args` against `options` (plus `--help`) with node:util parseArgs, whose tokens are
 * checked here so that every problem is said in our words. Returns `{ values, positionals }`: a
 * string option's value (an array of every value for `multiple`), `true` for a boolean given.
 */
export function parseArguments(args, options) {
  const specs = { ...COMMON_OPTIONS, ...options };
  // parseArgs reads the options' shape only (type, short, multiple); strict: false leaves
  // unknown options and missing values to the checks below.
  const config = Object.fromEntries(Object.entries(specs).map(([name, s]) => [name, { type: s.type, ...(s.short ? { short: s.short } : {}) }]));
  const { tokens } = parseArgs({ args, options: config, strict: false, allowPositionals: true, tokens: true });
  const values = {};
  const positionals = [];

  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue;
    const written = token.rawName;
    // A short option inside a group (-qx) is named with its group.
    const group = written.startsWith('--') ? undefined : args[token.index];
    if (!Object.hasOwn(specs, token.name) || (!written.startsWith('--') && specs[token.name].short !== written.slice(1))) {
      throw unknownOption(written, specs, group);
    }
    const spec = specs[token.name];
    if (spec.type === 'boolean') {
      // parseArgs gives a boolean written --name=value its value; -q=x is a group (-q, -=, -x).
      if (token.inlineValue) throw new ArgumentError(`${written} takes no value (found "${token.value}")`);
      values[token.name] = true;
      continue;
    }
    if (token.value === undefined) throw missingValue(written, spec);
    // -o=json: the short form takes what follows its letter, as -ojson does, without the `=`.
    const value = token.inlineValue && !written.startsWith('--') && token.value.startsWith('=') ? token.value.slice(1) : token.value;
    if (spec.multiple) {
      (values[token.name] ??= []).push(value);
    } else if (Object.hasOwn(values, token.name) && values[token.name] !== value) {
      throw new ArgumentError(`${written} is given twice ("${values[token.name]}" and "${value}"); give it once`);
    } else {
      values[token.name] = value;
    }
  }
  return { values, positionals };
}

function missingValue(written, spec) {
  const what = spec.values ? list(spec.values) : (spec.valueName ?? 'a value');
  return new ArgumentError(`${written} needs ${what}`);
}

function unknownOption(written, specs, group) {
  const names = Object.entries(specs).flatMap(([name, s]) => [`--${name}`, ...(s.short ? [`-${s.short}`] : [])]);
  const close = written.startsWith('--')
    ? closest(
        written,
        names.filter((n) => n.startsWith('--')),
      )
    : undefined;
  const within = group && group !== written ? ` (in "${group}")` : '';
  const known = Object.entries(specs)
    .map(([name, s]) => (s.short ? `-${s.short}/--${name}` : `--${name}`))
    .join(', ');
  return new ArgumentError(`unknown option ${written}${within}${close ? `; did you mean ${close}?` : ''}\nOptions: ${known}`);
}

/** The name at most two edits away from `word`, if any (the nearest). */
function closest(word, names) {
  let best;
  let bestDistance = 3;
  for (const name of names) {
    const d = distance(word, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

function distance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** `a, b or c`. */
export function list(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
