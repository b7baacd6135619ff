// The grid's loaded pages of columns, and where each loaded asset is: a
// cache of at most a budget of pages, the least recently used forgotten
// first (their sections keep their measured heights). No DOM: the grid
// asks it, and the unit tests drive it directly.

/**
 * @typedef {{ ids: string[], etag?: string | null } & Record<string, any>} Columns
 *   A page as the source gives it: one array per field, `ids` among them.
 * @typedef {{ id: string, pages: Map<number, Columns>, blocks?: unknown }} PagedSection
 *   What the cache needs of a section: its id and its loaded pages.
 * @typedef {{ section: PagedSection, offset: number }} Location
 *   Where an asset is: its section and its index in the section.
 */

export class PageCache {
  /** `pageSize`: the assets of a full page; `kept`: how many pages stay loaded. */
  constructor(pageSize, kept) {
    /** @type {number} */
    this.pageSize = pageSize;
    /** @type {number} */
    this.kept = kept;
    /** @type {Map<string, number>} when each page (`section#n`) was last asked for */
    this.use = new Map();
    /** @type {number} */
    this.clock = 0;
    /** @type {Map<string, Location>} */
    this.located = new Map();
  }

  /** Notes that page `n` of `section` was asked for now. */
  touch(/** @type {PagedSection} */ section, /** @type {number} */ n) {
    this.use.set(key(section, n), ++this.clock);
  }

  /** Keeps `columns` as page `n` of `section`, replacing what it held, and locates its assets. */
  store(/** @type {PagedSection} */ section, /** @type {number} */ n, /** @type {Columns} */ columns, /** @type {string | null | undefined} */ etag) {
    const old = section.pages.get(n);
    if (old) this.unlocate(section, n, old);
    columns.etag = etag;
    section.pages.set(n, columns);
    const base = n * this.pageSize;
    columns.ids.forEach((id, i) => this.located.set(id, { section, offset: base + i }));
  }

  /** Forgets page `n` of `section`. */
  drop(/** @type {PagedSection} */ section, /** @type {number} */ n) {
    const columns = section.pages.get(n);
    if (!columns) return;
    this.unlocate(section, n, columns);
    section.pages.delete(n);
    this.use.delete(key(section, n));
  }

  /**
   * Forgets the least recently used pages beyond the budget, of the
   * `sections` still shown; returns whether any was loaded.
   * @param {PagedSection[]} sections
   */
  evict(sections) {
    if (this.use.size <= this.kept) return false;
    let evicted = false;
    const oldest = [...this.use.entries()].sort((a, b) => a[1] - b[1]).slice(0, this.use.size - this.kept);
    for (const [name] of oldest) {
      this.use.delete(name);
      const split = name.lastIndexOf('#');
      const section = sections.find((s) => s.id === name.slice(0, split));
      const n = Number(name.slice(split + 1));
      const columns = section?.pages.get(n);
      if (!section || !columns) continue;
      this.unlocate(section, n, columns);
      section.pages.delete(n);
      section.blocks = null;
      evicted = true;
    }
    return evicted;
  }

  /** Where a loaded asset is; undefined for one not in a loaded page. */
  locate(/** @type {string} */ id) {
    return this.located.get(id);
  }

  /**
   * Forgets where page `n`'s assets are, but not those located in another
   * page since (an asset a change moved into the page before, stored first).
   * @param {PagedSection} section @param {number} n @param {Columns} columns
   */
  unlocate(section, n, columns) {
    for (const id of columns.ids) {
      const here = this.located.get(id);
      if (here?.section === section && Math.floor(here.offset / this.pageSize) === n) this.located.delete(id);
    }
  }
}

/** A page's name in the use table. */
function key(/** @type {PagedSection} */ section, /** @type {number} */ n) {
  return section.id + '#' + n;
}
