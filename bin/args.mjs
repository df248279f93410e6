// Command-line arguments, read the way our help texts describe them, with errors in our words.
//
// An option spec is `{ type: 'string' | 'boolean', short?, multiple?, values?, valueName?,
// description? }`: the shape of node:util parseArgs, plus what messages and the completion
// scripts use (`values` lists the choices; the command checks them, with its own message). Forms accepted: `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped short
// booleans (`-qs`), `--` to end options; a lone `-` is a positional (standard input).

/** A problem with the arguments; the caller adds where to find usage. */
export class ArgumentError extends Error {}

/** The options every command has. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h', description: 'Show help' },
};

/**
 * Reads `args` against `options` (plus `--help`). Returns `{ values, positionals }`: a string
 * option's value (an array of every value for `multiple`), `true` for a boolean given.
 */
export function parseArguments(args, options) {
  const specs = { ...COMMON_OPTIONS, ...options };
  const byShort = new Map(Object.entries(specs).filter(([, s]) => s.short).map(([name, s]) => [s.short, name]));
  const values = {};
  const positionals = [];

  const set = (name, value, written) => {
    const spec = specs[name];
    if (spec.type === 'boolean') {
      values[name] = true;
      return;
    }
    if (spec.multiple) {
      (values[name] ??= []).push(value);
    } else if (Object.hasOwn(values, name) && values[name] !== value) {
      throw new ArgumentError(`${written} is given twice ("${values[name]}" and "${value}"); give it once`);
    } else {
      values[name] = value;
    }
  };

  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const written = `--${name}`;
      if (!Object.hasOwn(specs, name)) throw unknownOption(written, specs);
      const spec = specs[name];
      if (spec.type === 'boolean') {
        if (eq !== -1) throw new ArgumentError(`${written} takes no value (found "${arg.slice(eq + 1)}")`);
        set(name, true, written);
      } else if (eq !== -1) {
        set(name, arg.slice(eq + 1), written);
      } else {
        if (i + 1 >= args.length) throw missingValue(written, spec);
        i += 1;
        set(name, args[i], written);
      }
      continue;
    }
    // Short options: booleans may be grouped (-qs); a string option takes the rest of the
    // argument (-ojson) or the next one (-o json).
    for (let k = 1; k < arg.length; k += 1) {
      const letter = arg[k];
      const written = `-${letter}`;
      const name = byShort.get(letter);
      if (name === undefined) throw unknownOption(written, specs, arg);
      const spec = specs[name];
      if (spec.type === 'boolean') {
        set(name, true, written);
        continue;
      }
      const rest = arg.slice(k + 1);
      if (rest !== '') {
        set(name, rest.startsWith('=') ? rest.slice(1) : rest, written);
      } else {
        if (i + 1 >= args.length) throw missingValue(written, spec);
        i += 1;
        set(name, args[i], written);
      }
      break;
    }
  }
  return { values, positionals };
}

function missingValue(written, spec) {
  const what = spec.values ? list(spec.values) : spec.valueName ?? 'a value';
  return new ArgumentError(`${written} needs ${what}`);
}

function unknownOption(written, specs, group) {
  const names = Object.entries(specs).flatMap(([name, s]) => [`--${name}`, ...(s.short ? [`-${s.short}`] : [])]);
  const close = written.startsWith('--') ? closest(written, names.filter((n) => n.startsWith('--'))) : undefined;
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
