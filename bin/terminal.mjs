// What the terminal is sent: colour, only where it helps and only where it is wanted, and text
// from the input with its control characters made visible (escapeTerminal).
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

// --- Text from the input, made safe to print ---------------------------------------------------

const NAMED_ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '^[' };

// C0 controls, DEL, C1 controls (U+009B is a CSI on some terminals), and the bidirectional
// overrides and isolates, which reorder what is shown.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character written out visibly, so that what a manifest, a
 * definition or a case holds can neither forge a line of output nor send a terminal escape
 * sequence (a title change, a hyperlink, a cursor move). Like kubectl's `EscapeTerminal`, ESC is
 * shown as `^[` and CR as `\r`; beyond it, LF and TAB are `\n` and `\t` and every other control
 * `\xHH` (C0, DEL) or `\uHHHH` (C1, bidirectional controls). Only for text output: the machine
 * formats (JSON, YAML, SARIF, JUnit, ...) escape in their own syntax.
 */
export function escapeTerminal(text) {
  return String(text).replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return NAMED_ESCAPES[c] ?? (code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/** A JSON value (a view, a result) with every string in it passed through `escapeTerminal`. */
export function escapeStrings(value) {
  if (typeof value === 'string') return escapeTerminal(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, escapeStrings(item)]));
  }
  return value;
}
