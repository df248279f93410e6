// Which definition the worker evaluates with. In catalog mode (the default) the manifest's own
// apiVersion/kind chooses a catalog entry at every run; in custom mode the editor's text is the
// definition, pinned until the user switches back. Pure functions of the texts and a catalog
// lookup, so the worker's protocol stays plain data.

/** True when a text holds nothing but blank lines and comments. */
export function isBlank(text) {
  return typeof text !== 'string' || text.split('\n').every((line) => /^\s*(#.*)?$/.test(line));
}

/** How a run names a workload the user chose (its index moves when the manifest is edited). */
export function workloadKey(workload) {
  return `${workload.apiVersion} ${workload.kind} ${workload.namespace ?? ''}/${workload.name}`;
}

/**
 * The workload a run shows, among the core's reading of the manifest (`readManifest`: which
 * objects are workloads is the core's to say, never decided here): the one the user chose (by
 * `workloadKey`), else the first one `known` accepts (in catalog mode: a type the catalog
 * has), else the first. Undefined when the manifest holds no workload.
 *
 * @param {{index: number, apiVersion: string, kind: string, name: string, namespace?: string}[]} workloads
 * @param {string} [wanted]
 * @param {(workload: object) => boolean} known
 */
export function pickWorkload(workloads, wanted, known = () => false) {
  if (wanted) {
    const chosen = workloads.find((w) => workloadKey(w) === wanted);
    if (chosen) return chosen;
  }
  return workloads.find(known) ?? workloads[0];
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
 * @param {{mode?: string, definition: string, readable: boolean, workloads: object[], wanted?: string}} run
 *   readable: the manifest could be read; workloads: the core's workloads of it (`readManifest`);
 *   wanted: the `workloadKey` the user chose, if any
 * @returns {{text?: string, workload?: object, source: object}}
 *   `text` undefined: there is no definition to run (an unknown type in catalog mode, or an empty
 *   custom definition); `workload`: the workload to resolve (catalog mode, or a custom run with a
 *   choice; otherwise the core picks the first of the definition's type); `source` says which
 *   case it is, for the page to show: `{mode: 'custom', empty?}` or `{mode: 'catalog',
 *   followed?: {name, apiVersion, kind, exactVersion, objectApiVersion}, unknown?: {apiVersion,
 *   kind}, kept?}`.
 */
export function chooseDefinition(catalog, { mode, definition, readable, workloads, wanted }) {
  if (mode !== 'catalog') {
    if (isBlank(definition)) return { source: { mode: 'custom', empty: true } };
    const chosen = wanted ? workloads.find((w) => workloadKey(w) === wanted) : undefined;
    return { text: definition, workload: chosen, source: { mode: 'custom' } };
  }
  if (!readable) {
    // The manifest cannot be read, so its type is unknown: keep the entry followed last (the
    // editor shows it) so that the manifest's own problems are reported as usual.
    return isBlank(definition)
      ? { source: { mode: 'catalog', unknown: { apiVersion: '', kind: '' } } }
      : { text: definition, source: { mode: 'catalog', kept: true } };
  }
  const workload = pickWorkload(workloads, wanted, (w) => entryFor(catalog, w) !== null);
  if (!workload) return { source: { mode: 'catalog', unknown: { apiVersion: '', kind: '' } } };
  const entry = entryFor(catalog, workload);
  if (!entry) {
    return { workload, source: { mode: 'catalog', unknown: { apiVersion: stringOr(workload.apiVersion), kind: stringOr(workload.kind) } } };
  }
  return {
    text: entry.text,
    workload,
    source: {
      mode: 'catalog',
      followed: {
        name: entry.name,
        apiVersion: entry.apiVersion,
        kind: entry.kind,
        exactVersion: entry.exactVersion !== false,
        objectApiVersion: workload.apiVersion,
      },
    },
  };
}

function stringOr(value) {
  return typeof value === 'string' ? value : '';
}
