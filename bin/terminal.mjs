// Colour, only where it helps and only where it is wanted.
//
// FORCE_COLOR (any value but "0" or "false") turns colour on and FORCE_COLOR=0 off, whatever the
// output is; otherwise NO_COLOR (any non-empty value, https://no-color.org) turns it off;
// otherwise a terminal gets colour (unless TERM=dumb) and a pipe or a file does not.

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39], bold: [1, 22], dim: [2, 22] };

/** Whether to colour what goes to `stream` under `env`. */
export function colourEnabled(stream, env = process.env) {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  if (env.NO_COLOR) return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/** Functions that wrap text in one style each (`red`, `green`, ...); identity when `enabled` is false. */
export function palette(enabled) {
  const styles = {};
  for (const [name, [open, close]] of Object.entries(CODES)) {
    styles[name] = enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
  }
  /** The severity word in its colour: error red, warning yellow, info cyan. */
  styles.severity = (severity) => {
    const colour = { error: styles.red, warning: styles.yellow, info: styles.cyan }[severity] ?? ((t) => t);
    return colour(severity);
  };
  return styles;
}
