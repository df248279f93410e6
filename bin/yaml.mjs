// The CLI's YAML output: the `yaml` package (the one YAML emitter of the project; the playground's
// test cases use it with the same options). Block style, no line folding; the YAML 1.1 schema,
// so strings that a YAML 1.1 reader (kubectl's among them) would take for a boolean, a number or
// null (yes, no, on, off, y, n, 0x10, 012, ~) are quoted.
import { stringify } from 'yaml';

/** The options of every YAML text the project writes. */
export const YAML_OPTIONS = Object.freeze({ version: '1.1', lineWidth: 0 });

/** YAML for a JSON value, without the final newline (print() adds one). */
export function toYaml(value) {
  return stringify(value, YAML_OPTIONS).replace(/\n$/, '');
}
