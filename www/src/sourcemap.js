// Which editor lines a node of the role tree came from. The view names components and
// instances but carries no source positions for them, so this reads the YAML text's indentation:
// the block of the component definition whose `name:` is the component's, and in the manifest
// the list item or mapping whose `name:` is the instance id. Good enough to point the eye; it
// never affects results.

/** Line ranges (1-based, inclusive) of the definition block of `componentName`. */
export function definitionLines(text, componentName) {
  const lines = text.split('\n');
  const structure = sectionRange(lines, 'structureDefinition');
  return nameBlocks(lines, componentName, structure);
}

/** Line ranges in the manifest that mention the instance id as a `name:`. */
export function manifestLines(text, instanceId) {
  const lines = text.split('\n');
  return nameBlocks(lines, instanceId, [0, lines.length - 1]);
}

function nameBlocks(lines, name, [first, last]) {
  const blocks = [];
  const pattern = new RegExp(`^(\\s*)(-\\s+)?name:\\s*(["']?)${escapeRegExp(name)}\\3\\s*(#.*)?$`);
  for (let i = first; i <= last; i++) {
    const match = pattern.exec(lines[i]);
    if (!match) continue;
    blocks.push(match[2] ? itemBlock(lines, i, match[1].length) : mappingBlock(lines, i, match[1].length));
  }
  return blocks;
}

/** `- name: x` at column `dash`: the item runs while lines are blank or indented deeper. */
function itemBlock(lines, start, dash) {
  let end = start;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    if (indentOf(lines[i]) <= dash) break;
    end = i;
  }
  return [start + 1, end + 1];
}

/** `name: x` inside a mapping at `column`: the mapping's lines plus the key that holds it. */
function mappingBlock(lines, at, column) {
  let start = at;
  for (let i = at - 1; i >= 0; i--) {
    if (lines[i].trim() === '') continue;
    if (indentOf(lines[i]) < column) {
      start = i;
      break;
    }
    start = i;
  }
  let end = at;
  for (let i = at + 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    if (indentOf(lines[i]) < column) break;
    end = i;
  }
  return [start + 1, end + 1];
}

function sectionRange(lines, key) {
  const start = lines.findIndex((line) => new RegExp(`^\\s*${key}:`).test(line));
  if (start < 0) return [0, lines.length - 1];
  const indent = indentOf(lines[start]);
  let end = lines.length - 1;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].trim() !== '' && indentOf(lines[i]) <= indent) {
      end = i - 1;
      break;
    }
  }
  return [start, end];
}

function indentOf(line) {
  return line.length - line.trimStart().length;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
