// Which definition the worker evaluates with. In catalog mode (the default) the manifest's own
// apiVersion/kind chooses a catalog entry at every run; in custom mode the editor's text is the
// definition, pinned until the user switches back. Pure functions of the texts and a catalog
// lookup, so the worker's protocol stays plain data.

/** True when a text holds nothing but blank lines and comments. */
export function isBlank(text) {
  return typeof text !== 'string' || text.split('\n').every((line) => /^\s*(#.*)?$/.test(line));
}

/**
 * The index of the workload among the objects of a manifest (a List or a multi-document stream):
 * among the objects that no other object of the list owns (ownerReferences, by uid or kind and
 * name) and that are not Pods, the first that `wanted` accepts, else the first of them. A list of
 * only Pods (or only owned objects) picks among all.
 *
 * @param {object[]} objects
 * @param {(object: object) => boolean} wanted
 */
export function workloadIndex(objects, wanted) {
  if (objects.length <= 1) return 0;
  const uids = new Set(objects.map((o) => o?.metadata?.uid).filter((uid) => typeof uid === 'string' && uid !== ''));
  const names = new Set(objects.map((o) => `${o?.kind}/${o?.metadata?.name}`));
  const owned = (o) =>
    (Array.isArray(o?.metadata?.ownerReferences) ? o.metadata.ownerReferences : []).some(
      (ref) => (typeof ref?.uid === 'string' && uids.has(ref.uid)) || names.has(`${ref?.kind}/${ref?.name}`),
    );
  const all = objects.map((_, i) => i);
  const tops = all.filter((i) => objects[i]?.kind !== 'Pod' && !owned(objects[i]));
  const candidates = tops.length > 0 ? tops : all;
  return candidates.find((i) => wanted(objects[i])) ?? candidates[0];
}

/** The catalog entry for an object's apiVersion/kind (same group and kind at another version too), or null. */
export function entryFor(catalog, object) {
  const apiVersion = object?.apiVersion;
  const kind = object?.kind;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || apiVersion === '' || kind === '') return null;
  return catalog.find(apiVersion, kind) ?? null;
}

/**
 * The definition a run uses.
 *
 * @param {{find(apiVersion: string, kind: string): object | null}} catalog
 * @param {{mode?: string, definition: string, parsed: {objects: object[], diagnostics: object[]}}} run
 * @returns {{text?: string, workloadIndex?: number, source: object}}
 *   `text` undefined: there is no definition to run (an unknown type in catalog mode, or an empty
 *   custom definition); `source` says which case it is, for the page to show:
 *   `{mode: 'custom', empty?}` or `{mode: 'catalog', followed?: {name, apiVersion, kind,
 *   exactVersion, objectApiVersion}, unknown?: {apiVersion, kind}, kept?}`.
 */
export function chooseDefinition(catalog, { mode, definition, parsed }) {
  if (mode !== 'catalog') {
    return isBlank(definition) ? { source: { mode: 'custom', empty: true } } : { text: definition, source: { mode: 'custom' } };
  }
  if (parsed.diagnostics.length > 0) {
    // The manifest cannot be read, so its type is unknown: keep the entry followed last (the
    // editor shows it) so that the manifest's own problems are reported as usual.
    return isBlank(definition) ? { source: { mode: 'catalog', unknown: { apiVersion: '', kind: '' } } } : { text: definition, source: { mode: 'catalog', kept: true } };
  }
  if (parsed.objects.length === 0) return { source: { mode: 'catalog', unknown: { apiVersion: '', kind: '' } } };
  const index = workloadIndex(parsed.objects, (o) => entryFor(catalog, o) !== null);
  const object = parsed.objects[index];
  const entry = entryFor(catalog, object);
  if (!entry) {
    return { source: { mode: 'catalog', unknown: { apiVersion: stringOr(object?.apiVersion), kind: stringOr(object?.kind) } } };
  }
  return {
    text: entry.text,
    workloadIndex: index,
    source: {
      mode: 'catalog',
      followed: { name: entry.name, apiVersion: entry.apiVersion, kind: entry.kind, exactVersion: entry.exactVersion !== false, objectApiVersion: object.apiVersion },
    },
  };
}

function stringOr(value) {
  return typeof value === 'string' ? value : '';
}
