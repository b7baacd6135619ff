// The virtualised grid: sections (months) of groups (days) of justified
// rows, of which only what is near the viewport exists in the DOM.
//
// Position is not the browser's scroll offset: the grid keeps its own
// position (`pos`, pixels from the top of the whole timeline, a double)
// and moves it on wheel, touch, keys and the scrubber, so no element is
// ever as tall as the library and the oldest photo of millions is
// reachable. Sections not yet loaded have estimated heights; when one is
// measured, the asset at the top of the viewport stays where it is (the
// anchor), so loading and live changes above never move what is seen.
//
// Scrolling moves one element: cells sit in a layer at their places
// relative to a base position, and only the layer's transform follows
// `pos`. Moving every cell instead made the browser restyle each of them
// on every frame, which on a slow machine was most of the frame. The base
// follows `pos` when it is far away, so that no coordinate grows large
// enough to lose precision.
import { justifiedRows, estimatedHeight } from './layout.js';
import { placeholderURL, averageColor } from './thumbhash.js';
import { stars, describeAsset, formatDuration } from './format.js';
import { mergeSections } from './merge.js';
import { PageCache } from './pages.js';
import { ThumbnailQueue } from './thumbnails.js';

const sectionHeaderHeight = 56;
const groupHeaderHeight = 36;
const keptPages = 80;
/**
 * New cells made per frame outside the viewport (the screen kept ready above
 * and below it): after a jump, the cells in view come first, and the rest
 * follow over the next frames, so no frame makes three screens of cells.
 */
const offscreenCellsPerFrame = 24;
/** How far `pos` may move from the layer's base before the base follows it (pixels). */
const rebaseDistance = 1_000_000;

/**
 * What the grid knows of each element it placed (where, and what a cell
 * shows), kept beside the element rather than on it.
 * @type {WeakMap<Element, Record<string, any>>}
 */
const states = new WeakMap();

/** The state of `element`, made empty the first time. */
function stateOf(/** @type {Element} */ element) {
  let state = states.get(element);
  if (!state) states.set(element, (state = {}));
  return state;
}

export class Grid extends EventTarget {
  /**
   * `element` is the viewport; `source` supplies sections, groups and pages;
   * `selection` is the shared Selection.
   */
  constructor(element, source, selection) {
    super();
    this.element = element;
    this.source = source;
    this.selection = selection;
    this.layer = document.createElement('div');
    this.layer.className = 'grid-layer';
    this.layer.setAttribute('role', 'list');
    element.replaceChildren(this.layer);
    this.sections = [];
    this.summaryEtag = null;
    this.pos = 0;
    this.base = 0;
    this.writtenShift = 0;
    this.rebaseDistance = rebaseDistance; // the browser tests shorten it, to move the base often
    this.total = 0;
    this.rendered = new Map();
    this.pageCache = new PageCache(source.pageSize, keptPages);
    /** Whether cells may be dragged to reorder them (an album's own order, for a writer). */
    this.reorderable = false;
    this.frame = 0;
    this.refreshing = null;
    this.refreshAgain = false;
    this.inserted = new Map();
    this.thumbnails = new ThumbnailQueue();
    this.measure();
    this.resizeObserver = new ResizeObserver(() => this.resized());
    this.resizeObserver.observe(element);
  }

  /**
   * Where the grid placed a cell or a header: `x` and `y` in the viewport,
   * `w` and `h` (pixels); undefined for an element it did not place.
   * @param {Element} element
   */
  placement(element) {
    const state = states.get(element);
    return state && { x: state.x, y: state.y, w: state.w, h: state.h };
  }

  /** Loads the sections; resolves when the first screen is laid out. */
  async load() {
    const summary = await this.source.summary(null);
    this.summaryEtag = summary.etag;
    this.sections = summary.sections.map((s) => this.newSection(s));
    this.relayout();
    this.render();
    this.dispatchEvent(new Event('sections'));
  }

  destroy() {
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.frame);
    this.thumbnails.cancel();
    this.destroyed = true;
  }

  newSection(summary) {
    return { ...summary, groups: null, groupsEtag: null, loadingGroups: null, pages: new Map(), loadingPages: new Map(),
             heights: new Map(), blocks: null, top: 0, height: 0 };
  }

  // Geometry ------------------------------------------------------------

  measure() {
    const narrow = this.element.clientWidth < 600;
    this.gap = narrow ? 2 : 4;
    this.targetHeight = narrow ? 110 : 180;
    this.viewportHeight = this.element.clientHeight || 600;
    this.width = Math.max(100, this.element.clientWidth - (narrow ? 8 : 32));
    this.left = narrow ? 4 : 16;
  }

  /**
   * A new width lays out again only the sections around the viewport; the
   * others keep a scaled height and are laid out when they come near, so
   * a resize after long scrolling is no long task.
   */
  resized() {
    const width = this.width, height = this.viewportHeight;
    this.measure();
    if (width === this.width && height === this.viewportHeight) return;
    const anchor = this.anchor();
    const here = this.sections.indexOf(this.sectionAt(this.pos));
    this.sections.forEach((section, index) => {
      section.blocks = null;
      section.heights.clear();
      section.deferred = Math.abs(index - here) > 1;
      if (section.deferred) section.height = sectionHeaderHeight + (section.height - sectionHeaderHeight) * (width / this.width);
    });
    this.relayout();
    this.restore(anchor);
    this.render();
  }

  /** The blocks of a section, from its groups and loaded pages; estimates where pages are missing. */
  layoutSection(section) {
    const blocks = [{ kind: 'section', key: 's:' + section.id, top: 0, height: sectionHeaderHeight }];
    let top = sectionHeaderHeight;
    const push = (block) => {
      block.top = top;
      top += block.height;
      blocks.push(block);
    };
    if (!section.groups) {
      push({ kind: 'estimate', key: 'e:' + section.id, height: estimatedHeight(section.count, this.width, this.targetHeight, this.gap) });
    } else {
      const pageSize = this.source.pageSize;
      let start = 0;
      for (const group of section.groups) {
        if (group.title) push({ kind: 'group', key: 'g:' + group.id, group, height: groupHeaderHeight });
        const end = start + group.count;
        for (let offset = start; offset < end;) {
          const page = Math.floor(offset / pageSize);
          const pieceEnd = Math.min(end, (page + 1) * pageSize);
          const key = `p:${group.id}:${page}`;
          const columns = section.pages.get(page);
          const block = { kind: 'segment', key, group, page, start: offset, end: pieceEnd, rows: null };
          if (columns) {
            const base = page * pageSize;
            const last = Math.min(pieceEnd - base, columns.ids.length);
            block.rows = justifiedRows(columns.aspectRatios, offset - base, last, this.width, this.targetHeight, this.gap);
            let rowTop = 0;
            for (const row of block.rows) {
              row.top = rowTop;
              rowTop += row.height + this.gap;
            }
            block.height = rowTop + this.gap * 3;
            section.heights.set(key, block.height);
          } else {
            block.height = section.heights.get(key)
              ?? estimatedHeight(pieceEnd - offset, this.width, this.targetHeight, this.gap) + this.gap * 3;
          }
          push(block);
          offset = pieceEnd;
        }
        start = end;
      }
    }
    section.blocks = blocks;
    section.height = top;
  }

  /** Section tops from their heights; lays out what changed. */
  relayout() {
    let top = 0;
    for (const section of this.sections) {
      if (!section.blocks && !section.deferred) this.layoutSection(section);
      section.top = top;
      top += section.height;
    }
    this.total = top;
    this.pos = Math.min(this.pos, this.maxPos());
  }

  maxPos() {
    return Math.max(0, this.total - this.viewportHeight + 48);
  }

  // Anchoring -------------------------------------------------------------

  /** What is at the top of the viewport: kept across relayouts. */
  anchor() {
    if (this.pos <= 0) return { top: true };
    if (this.pos >= this.maxPos() - 1) return { bottom: true };
    const section = this.sectionAt(this.pos);
    if (!section) return null;
    const offset = this.pos - section.top;
    if (!section.blocks) return { id: section.id, key: null, fraction: offset / Math.max(1, section.height) };
    const block = section.blocks.find((b) => offset < b.top + b.height) ?? section.blocks[section.blocks.length - 1];
    const anchor = { id: section.id, key: block.key, within: offset - block.top, fraction: offset / Math.max(1, section.height) };
    if (block.rows) {
      const row = block.rows.find((r) => anchor.within < r.top + r.height + this.gap) ?? block.rows[block.rows.length - 1];
      anchor.item = block.page * this.source.pageSize + row.first;
      anchor.rowFraction = (anchor.within - row.top) / (row.height + this.gap);
    }
    return anchor;
  }

  restore(anchor) {
    if (!anchor) return;
    if (anchor.top) {
      this.pos = 0;
      return;
    }
    if (anchor.bottom) {
      this.pos = this.maxPos();
      return;
    }
    const section = this.sections.find((s) => s.id === anchor.id);
    if (!section) return;
    const block = section.blocks?.find((b) => b.key === anchor.key);
    if (!block) {
      this.pos = section.top + anchor.fraction * section.height;
    } else if (anchor.item !== undefined && block.rows) {
      const local = anchor.item - block.page * this.source.pageSize;
      const row = block.rows.find((r) => local < r.first + r.count) ?? block.rows[block.rows.length - 1];
      this.pos = section.top + block.top + row.top + anchor.rowFraction * (row.height + this.gap);
    } else {
      this.pos = section.top + block.top + Math.min(anchor.within, block.height);
    }
    this.pos = Math.max(0, Math.min(this.pos, this.maxPos()));
  }

  /** Applies a change of heights (loaded groups or pages) without moving what is on screen. */
  remeasure(change) {
    const anchor = this.anchor();
    change();
    this.relayout();
    this.restore(anchor);
    this.schedule();
  }

  sectionAt(pos) {
    let low = 0, high = this.sections.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.sections[middle].top <= pos) low = middle;
      else high = middle - 1;
    }
    return this.sections[low];
  }

  // Moving --------------------------------------------------------------

  /** Moves the viewport to `pos` (clamped) and renders. */
  scrollTo(pos) {
    this.pos = Math.max(0, Math.min(pos, this.maxPos()));
    this.schedule();
  }

  scrollBy(delta) {
    this.scrollTo(this.pos + delta);
  }

  /** Moves to the start of the section with this id. */
  jumpTo(sectionId) {
    const section = this.sections.find((s) => s.id === sectionId);
    if (section) this.scrollTo(section.top);
  }

  schedule() {
    if (this.frame || this.destroyed) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  // Loading ------------------------------------------------------------

  loadGroups(section) {
    if (section.groups || section.loadingGroups) return section.loadingGroups;
    section.loadingGroups = this.source.groups(section, null).then((result) => {
      section.loadingGroups = null;
      if (!this.sections.includes(section) || !result) return;
      this.remeasure(() => {
        section.groups = result.groups;
        section.groupsEtag = result.etag;
        section.blocks = null;
      });
    }, (error) => {
      section.loadingGroups = null;
      this.failed(error);
    });
    return section.loadingGroups;
  }

  loadPage(section, page) {
    this.pageCache.touch(section, page);
    if (section.pages.has(page)) return Promise.resolve(section.pages.get(page));
    if (section.loadingPages.has(page)) return section.loadingPages.get(page);
    const loading = this.source.page(section, page, null).then((result) => {
      section.loadingPages.delete(page);
      if (!this.sections.includes(section) || !result) return null;
      this.remeasure(() => {
        this.pageCache.store(section, page, result.columns, result.etag);
        section.blocks = null;
      });
      if (this.pageCache.evict(this.sections)) this.relayout();
      return result.columns;
    }, (error) => {
      section.loadingPages.delete(page);
      this.failed(error);
      return null;
    });
    section.loadingPages.set(page, loading);
    return loading;
  }

  failed(error) {
    this.dispatchEvent(new CustomEvent('error', { detail: error }));
  }

  // Rendering -----------------------------------------------------------

  render() {
    if (Math.abs(this.pos - this.base) > this.rebaseDistance) this.base = Math.round(this.pos);
    let start = this.pos - this.viewportHeight;
    let end = this.pos + this.viewportHeight * 2;
    // Laying out the deferred sections in view moves what is in view (their
    // real heights replace the scaled ones), which can bring further deferred
    // sections into it: until none is left, at most once a section.
    for (let pass = 0; pass < this.sections.length; pass++) {
      const deferred = this.sections.filter((s) => s.deferred && s.top < end && s.top + s.height > start);
      if (!deferred.length) break;
      this.remeasure(() => deferred.forEach((section) => { section.deferred = false; }));
      start = this.pos - this.viewportHeight;
      end = this.pos + this.viewportHeight * 2;
    }
    const seen = new Set();
    this.offscreenCellsLeft = this.entering ? Infinity : offscreenCellsPerFrame;
    this.unfinished = false;
    if (this.sections.length) {
      let index = this.sections.indexOf(this.sectionAt(Math.max(0, start)));
      for (; index < this.sections.length && this.sections[index].top < end; index++) {
        this.renderSection(this.sections[index], start, end, seen);
      }
    }
    for (const [key, element] of this.rendered) {
      if (!seen.has(key)) {
        this.rendered.delete(key);
        if (this.leaving && element.classList.contains('cell')) this.leave(element);
        else element.remove();
      }
    }
    this.moveLayer();
    this.layer.toggleAttribute('data-empty', this.sections.length === 0);
    if (!this.markedPlaceholders && this.rendered.size && this.layer.querySelector('.cell')) {
      // For the benchmarks: when the first cells (placeholders painted, thumbnails on their way) reach the screen.
      this.markedPlaceholders = true;
      requestAnimationFrame(() => performance.mark('gallery:placeholders'));
    }
    if (this.unfinished) this.schedule();
    this.dispatchEvent(new Event('rendered'));
  }

  renderSection(section, start, end, seen) {
    if (!section.groups) this.loadGroups(section);
    for (const block of section.blocks) {
      const top = section.top + block.top;
      if (top + block.height < start || top > end) continue;
      if (block.kind === 'section' || block.kind === 'group') {
        this.place(block.key, seen, () => this.header(block, section), top, block.height);
      } else if (block.kind === 'estimate' || !block.rows) {
        this.place(block.key, seen, () => placeholderBlock(), top, block.height);
        if (block.kind === 'segment') this.loadPage(section, block.page);
      } else {
        this.pageCache.touch(section, block.page);
        this.renderRows(section, block, top, start, end, seen);
      }
    }
  }

  header(block, section) {
    const element = document.createElement(block.kind === 'section' ? 'h2' : 'h3');
    element.className = block.kind === 'section' ? 'section-header' : 'group-header';
    element.textContent = block.kind === 'section' ? section.title : block.group.title;
    return element;
  }

  place(key, seen, make, top, height) {
    seen.add(key);
    let element = this.rendered.get(key);
    if (!element) {
      element = make();
      element.dataset.key = key;
      this.layer.append(element);
      this.rendered.set(key, element);
    }
    const y = Math.round(top - this.base);
    const state = stateOf(element);
    state.y = y + this.layerShift();
    if (state.layerY !== y || state.h !== height) {
      element.style.transform = `translate(${this.left}px, ${y}px)`;
      element.style.height = `${height}px`;
      element.style.width = `${this.width}px`;
      state.layerY = y;
      state.h = height;
    }
  }

  /** Where the layer sits: the base's offset from the viewport's top, whole pixels. */
  layerShift() {
    return Math.round(this.base - this.pos);
  }

  /** Moves the layer to `pos`: the one style change that scrolling makes. */
  moveLayer() {
    const shift = this.layerShift();
    if (this.writtenShift === shift && this.layer.style.transform) return;
    this.writtenShift = shift;
    this.layer.style.transform = `translateY(${shift}px)`;
  }

  renderRows(section, block, top, start, end, seen) {
    const columns = section.pages.get(block.page);
    const base = block.page * this.source.pageSize;
    const shift = this.layerShift();
    for (const row of block.rows) {
      const rowTop = top + row.top;
      if (rowTop + row.height < start || rowTop > end) continue;
      const inView = rowTop + row.height >= this.pos && rowTop <= this.pos + this.viewportHeight;
      let x = this.left;
      for (let i = 0; i < row.count; i++) {
        const local = row.first + i;
        const id = columns.ids[local];
        const width = row.widths[i];
        let cell = this.rendered.get(id);
        if (!cell && !inView && this.offscreenCellsLeft-- <= 0) {
          this.unfinished = true;
          x += width + this.gap;
          continue;
        }
        seen.add(id);
        if (!cell) {
          cell = this.makeCell(id);
          this.rendered.set(id, cell);
          this.layer.append(cell);
          if (this.entering) this.entering.push(cell);
          else if (this.inserted.has(id)) this.arrived(cell);
        }
        this.fillCell(cell, columns, local, base + local, section);
        const y = Math.round(rowTop - this.base);
        const state = stateOf(cell);
        state.y = y + shift;
        if (state.x !== x || state.layerY !== y || state.w !== width || state.h !== row.height) {
          cell.style.transform = `translate(${Math.round(x)}px, ${y}px)`;
          cell.style.width = `${Math.round(width)}px`;
          cell.style.height = `${Math.round(row.height)}px`;
          state.x = x;
          state.layerY = y;
          state.w = width;
          state.h = row.height;
        }
        x += width + this.gap;
      }
    }
  }

  makeCell(id) {
    const cell = document.createElement('button');
    cell.type = 'button';
    cell.className = 'cell';
    cell.dataset.id = id;
    cell.setAttribute('role', 'listitem');
    cell.draggable = Boolean(this.reorderable);
    const image = document.createElement('img');
    image.decoding = 'async';
    image.draggable = false;
    image.addEventListener('load', () => {
      cell.classList.add('loaded');
      if (performance.getEntriesByName('gallery:thumbnails').length === 0) performance.mark('gallery:thumbnails');
    });
    const check = document.createElement('span');
    check.className = 'check';
    check.setAttribute('aria-hidden', 'true');
    cell.append(image, check);
    return cell;
  }

  /**
   * Asks for a cell's thumbnail in a task of its own, after the frame that
   * shows the cell: starting a screenful of image requests costs the
   * browser tens of milliseconds, which would otherwise hold back the frame
   * with the new cells and their placeholders. A cell gone by then (scrolled
   * past) asks for nothing.
   */
  fillCell(cell, columns, local, offset, section) {
    const version = columns.contentVersions[local];
    const favorite = columns.favorites[local];
    const rating = columns.ratings[local];
    const mediaType = columns.mediaTypes[local];
    const state = stateOf(cell);
    state.section = section;
    state.offset = offset;
    const selected = this.selection.has(cell.dataset.id);
    if (state.selected !== selected) {
      state.selected = selected;
      cell.classList.toggle('selected', selected);
      cell.setAttribute('aria-pressed', String(selected));
    }
    if (state.version === version && state.favorite === favorite && state.rating === rating) return;
    const hash = columns.thumbHashes[local];
    if (state.version === undefined) {
      cell.style.backgroundColor = averageColor(hash) || '';
      const placeholder = placeholderURL(hash);
      if (placeholder) cell.style.backgroundImage = `url("${placeholder}")`;
    }
    const image = cell.firstChild;
    if (state.version !== version) {
      if (state.version !== undefined) cell.classList.remove('loaded');
      this.thumbnails.request(image, `/v1/assets/${cell.dataset.id}/thumbnail?v=${version}`);
    }
    state.version = version;
    state.favorite = favorite;
    state.rating = rating;
    const date = columns.creationDates[local];
    image.alt = describeAsset(mediaType, favorite, date == null ? null : new Date(date * 1000), rating);
    cell.setAttribute('aria-label', image.alt);
    setBadges(cell, mediaType === 'video' ? formatDuration(columns.durations[local]) : null, favorite, rating);
  }

  // Live changes -------------------------------------------------------

  /**
   * Re-reads what changed (by ETag) and animates the difference: cells
   * that stay slide to their new places, new ones grow in, removed ones
   * fade out. Calls made during a refresh coalesce into one more.
   */
  async refresh() {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = this.refreshOnce().finally(() => {
      this.refreshing = null;
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.refresh();
      }
    });
    return this.refreshing;
  }

  async refreshOnce() {
    const summary = await this.source.summary(this.summaryEtag);
    if (!summary) return;
    const { sections, gone } = mergeSections(this.sections, summary.sections, (s) => this.newSection(s));
    // Re-read the changed sections' groups and loaded pages before anything moves on screen.
    const updates = [];
    for (const section of sections.filter((s) => s.stale)) {
      const groups = section.groups ? this.source.groups(section, section.groupsEtag) : Promise.resolve(null);
      const pages = [...section.pages.entries()].map(([n, columns]) =>
        this.source.page(section, n, columns.etag).then((result) => [n, result]).catch(() => [n, undefined]));
      updates.push(Promise.all([groups, Promise.all(pages)]).then(([g, p]) => ({ section, groups: g, pages: p })));
    }
    const results = await Promise.all(updates);
    const before = this.positions();
    const anchor = this.anchor();
    this.summaryEtag = summary.etag;
    for (const section of gone) this.forgetSection(section);
    this.sections = sections;
    for (const { section, groups, pages } of results) {
      section.stale = false;
      if (groups) {
        section.groups = groups.groups;
        section.groupsEtag = groups.etag;
      }
      section.heights.clear();
      for (const [n, result] of pages) {
        if (result) this.pageCache.store(section, n, result.columns, result.etag);
        else if (result === undefined || n * this.source.pageSize >= section.count) this.pageCache.drop(section, n);
      }
      section.blocks = null;
    }
    this.relayout();
    this.restore(anchor);
    this.entering = [];
    this.leaving = true;
    this.render();
    this.animate(before);
    this.dispatchEvent(new Event('sections'));
  }

  /**
   * Ids a change inserted (from the change stream): a cell made for one in
   * the next seconds (its section or page loaded after the refresh) grows
   * in too.
   */
  expectInserted(ids) {
    const now = performance.now();
    for (const [id, at] of this.inserted) if (now - at > 5000) this.inserted.delete(id);
    for (const id of ids) this.inserted.set(id, now);
  }

  arrived(cell) {
    this.inserted.delete(cell.dataset.id);
    if (!matchMedia('(prefers-reduced-motion: reduce)').matches) {
      cell.animate([{ opacity: 0, scale: 0.6 }, { opacity: 1, scale: 1 }], { duration: 260, easing: 'ease-out' });
    }
    this.dispatchEvent(new CustomEvent('animated', { detail: { inserted: [cell.dataset.id], moved: [] } }));
  }

  forgetSection(section) {
    for (const n of [...section.pages.keys()]) this.pageCache.drop(section, n);
  }

  positions() {
    const positions = new Map();
    for (const [key, element] of this.rendered) {
      if (element.classList.contains('cell')) positions.set(key, { x: stateOf(element).x, y: stateOf(element).y });
    }
    return positions;
  }

  animate(before) {
    const ids = { inserted: [], moved: [] };
    const motion = !matchMedia('(prefers-reduced-motion: reduce)').matches;
    for (const cell of this.entering) {
      ids.inserted.push(cell.dataset.id);
      this.inserted.delete(cell.dataset.id);
      if (motion) cell.animate([{ opacity: 0, scale: 0.6 }, { opacity: 1, scale: 1 }], { duration: 260, easing: 'ease-out' });
    }
    for (const [id, old] of before) {
      const cell = this.rendered.get(id);
      if (!cell || (old.x === stateOf(cell).x && old.y === stateOf(cell).y)) continue;
      ids.moved.push(id);
      if (!motion) continue;
      // Where the cell was on screen, in the layer as it is now.
      const from = `translate(${Math.round(old.x)}px, ${old.y - this.layerShift()}px)`;
      cell.animate([{ transform: from }, { transform: cell.style.transform }], { duration: 260, easing: 'ease-in-out' });
    }
    this.entering = null;
    this.leaving = false;
    this.dispatchEvent(new CustomEvent('animated', { detail: ids }));
  }

  leave(cell) {
    cell.classList.add('leaving');
    cell.disabled = true;
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
      cell.remove();
      return;
    }
    cell.animate([{ opacity: 1, scale: 1 }, { opacity: 0, scale: 0.6 }], { duration: 220, easing: 'ease-in' }).finished
      .then(() => cell.remove(), () => cell.remove());
  }

  // Order ----------------------------------------------------------------

  /** The id `delta` places from `id` in the grid's order, loading what it needs; null past either end. */
  async neighbor(id, delta) {
    const here = this.pageCache.locate(id);
    if (!here) return null;
    let index = this.sections.indexOf(here.section);
    let offset = here.offset + delta;
    while (index >= 0 && index < this.sections.length) {
      const section = this.sections[index];
      if (offset < 0) {
        index -= 1;
        if (index >= 0) offset += this.sections[index].count;
        continue;
      }
      if (offset >= section.count) {
        offset -= section.count;
        index += 1;
        continue;
      }
      const page = Math.floor(offset / this.source.pageSize);
      const columns = await this.loadPage(section, page);
      return columns?.ids[offset - page * this.source.pageSize] ?? null;
    }
    return null;
  }

  /** The loaded ids from one asset to another, inclusive, in grid order. */
  range(fromId, toId) {
    const a = this.pageCache.locate(fromId), b = this.pageCache.locate(toId);
    if (!a || !b) return [toId];
    const order = (p) => [this.sections.indexOf(p.section), p.offset];
    let [first, last] = [order(a), order(b)];
    if (first[0] > last[0] || (first[0] === last[0] && first[1] > last[1])) [first, last] = [last, first];
    const ids = [];
    for (let s = first[0]; s <= last[0]; s++) {
      const section = this.sections[s];
      for (const [n, columns] of [...section.pages.entries()].sort((x, y) => x[0] - y[0])) {
        columns.ids.forEach((id, i) => {
          const offset = n * this.source.pageSize + i;
          if ((s > first[0] || offset >= first[1]) && (s < last[0] || offset <= last[1])) ids.push(id);
        });
      }
    }
    return ids;
  }

  /** What the grid knows of an asset from its page: date, type, version, favorite, rating. */
  columnsOf(id) {
    const here = this.pageCache.locate(id);
    if (!here) return null;
    const page = Math.floor(here.offset / this.source.pageSize);
    const columns = here.section.pages.get(page);
    if (!columns) return null;
    const i = here.offset - page * this.source.pageSize;
    return { id, offset: here.offset, mediaType: columns.mediaTypes[i], contentVersion: columns.contentVersions[i],
             favorite: columns.favorites[i], rating: columns.ratings[i], creationDate: columns.creationDates[i], duration: columns.durations[i] };
  }

  /** The section at the top of the viewport, for the scrubber's label. */
  currentSection() {
    return this.sections.length ? this.sectionAt(this.pos) : null;
  }
}

function placeholderBlock() {
  const element = document.createElement('div');
  element.className = 'loading-block';
  element.setAttribute('aria-hidden', 'true');
  return element;
}

/**
 * A cell's badges (a video's duration, a favorite's heart), in an element
 * made only for cells that have any: most have none, and every element
 * costs style and layout when a screenful of cells is made.
 */
function setBadges(cell, duration, favorite, rating) {
  const state = stateOf(cell);
  let badges = state.badges;
  if (duration === null && !favorite && !rating) {
    badges?.remove();
    state.badges = null;
    return;
  }
  if (!badges) {
    badges = state.badges = document.createElement('span');
    badges.className = 'badges';
    cell.lastChild.before(badges);
  }
  badges.textContent = '';
  if (duration !== null) badges.append(badge('duration', duration));
  if (rating) badges.append(badge('rating', stars(rating)));
  if (favorite) badges.append(badge('favorite', '♥'));
}

function badge(kind, text) {
  const element = document.createElement('span');
  element.className = 'badge ' + kind;
  element.textContent = text;
  return element;
}
