// The catalog definitions one run needs, each looked up once per type and compiled once (the
// edit commands: the definition of their one object; describe hands its objects to resolveAll,
// which does the same in the core).

/** Catalog lookups for one run; `free()` the compiled definitions at the end. */
export class CatalogDefinitions {
  #api;
  /** `apiVersion\nkind` → `{ definition, origin }` or null. */
  #byType = new Map();
  /** Catalog entry name → compiled Definition (versions falling back to one entry share it). */
  #byName = new Map();

  constructor(api) {
    this.#api = api;
  }

  /**
   * The definition covering `object`'s apiVersion and kind, `{ definition, origin: { label,
   * name, note? } }`, or null. The same object is returned for every object of the type.
   */
  find(object) {
    const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
    const kind = typeof object.kind === 'string' ? object.kind : '';
    if (!apiVersion || !kind) return null;
    const key = `${apiVersion}\n${kind}`;
    if (!this.#byType.has(key)) this.#byType.set(key, this.#lookup(apiVersion, kind));
    return this.#byType.get(key);
  }

  #lookup(apiVersion, kind) {
    const found = this.#api.catalog.find(apiVersion, kind);
    if (!found) return null;
    let definition = this.#byName.get(found.name);
    if (!definition) {
      definition = new this.#api.Definition(found.text);
      this.#byName.set(found.name, definition);
    }
    const note = found.exactVersion ? undefined : `no catalog definition for ${apiVersion}; using the one written for ${found.apiVersion}`;
    return { definition, origin: { label: 'catalog', name: found.name, note } };
  }

  /** How many definitions were compiled so far. */
  get compiled() {
    return this.#byName.size;
  }

  /** Frees every compiled definition; the object is empty afterwards. */
  free() {
    for (const definition of this.#byName.values()) definition.free();
    this.#byName.clear();
    this.#byType.clear();
  }
}
