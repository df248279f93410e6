// What a share link carries besides the texts (issue 18, point 7): the tab shown, the role tree
// node selected (its position among the tree's nodes), the Edit panel's preview (its request and
// the merge patch typed) and where a custom definition came from ("drafted from …", "a copy of
// catalog entry …"). A link is untrusted input: only these fields, of these types, are kept.

const TABS = new Set(['overview', 'json']);
const ACTIONS = new Set(['suspend', 'resume', 'pod']);
const MAX_TEXT = 64 * 1024;

const text = (value) => (typeof value === 'string' && value.length <= MAX_TEXT ? value : undefined);

/** The page state part of a link, checked field by field; undefined when there is none. */
export function uiStateOf(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out = {};
  if (TABS.has(value.tab)) out.tab = value.tab;
  if (Number.isSafeInteger(value.node) && value.node >= 0) out.node = value.node;
  if (text(value.origin) !== undefined) out.origin = value.origin;
  if (text(value.merge) !== undefined) out.merge = value.merge;
  const edit = value.edit;
  if (edit && typeof edit === 'object' && ACTIONS.has(edit.action)) {
    out.edit = { action: edit.action };
    for (const key of ['component', 'instance', 'merge']) if (text(edit[key]) !== undefined) out.edit[key] = edit[key];
  }
  return out;
}
