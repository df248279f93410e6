// A YAML stream split into its documents, each kept at its place in the file.
//
// A line that starts with `---` (then a space, a tab or its end) begins a document: YAML does
// not allow such a line inside content, not even in a block scalar, so this split is exact for
// the streams Kubernetes tools write. A document that holds only comments, directives or
// nothing is left out (kubeconform does the same).

const START = /^---(?=[ \t\r]|$)/;
const EMPTY_LINE = /^\s*(#.*)?$/;

/**
 * The documents of `text`: `{ text, line, index }`, where `text` is the document preceded by
 * as many empty lines as come before it in the file (so the positions the engine reports in it
 * are positions in the file), `line` the 1-based line it starts on and `index` its 0-based
 * position among the documents kept. A text with one document or none is returned whole.
 */
export function splitDocuments(text) {
  const lines = text.split('\n');
  const starts = [0];
  lines.forEach((line, i) => {
    if (i > 0 && START.test(line)) starts.push(i);
  });
  const documents = [];
  starts.forEach((start, k) => {
    const end = k + 1 < starts.length ? starts[k + 1] : lines.length;
    const body = lines.slice(start, end);
    if (!body.some(hasContent)) return;
    documents.push({ text: `${'\n'.repeat(start)}${body.join('\n')}`, line: start + 1, index: documents.length });
  });
  if (documents.length <= 1) return [{ text, line: 1, index: 0 }];
  return documents;
}

function hasContent(line) {
  const rest = START.test(line) ? line.slice(3) : line;
  if (/^(\.\.\.|%)/.test(rest)) return false;
  return !EMPTY_LINE.test(rest);
}
