// Where a grid's assets come from, behind one interface the grid reads:
// sections (a timeline's months, or a collection), their groups (days),
// and pages of columns (ids, aspect ratios, dates, placeholders...).
//   summary(etag)          -> { etag, sections: [{ id, title, count, etag }] } or null when unchanged
//   groups(section, etag)  -> { etag, groups: [{ id, title, count }] } or null when unchanged
//   page(section, n, etag) -> { etag, columns } or null when unchanged
import { get, query } from './api.js';
import { formatDay, formatMonth } from './format.js';

/** A label for a bucket from its period's parts: "May 2024", "Friday 17 May 2024", or "No date". */
function bucketTitle({ year, month, day }) {
  if (year == null) return 'No date';
  if (day == null) return `${formatMonth(month)} ${year}`;
  return formatDay(year, month, day);
}

/** The library's timeline, newest first, as the server buckets it (`/v1/timeline`), filtered by a predicate. */
export class TimelineSource {
  constructor({ predicate = '', hidden = false } = {}) {
    this.pageSize = 2000;
    this.params = { predicate, hidden: hidden ? 'true' : undefined };
    this.ordered = false;
  }

  async summary(etag) {
    const result = await get('/v1/timeline' + query(this.params), { etag });
    if (!result) return null;
    return {
      etag: result.etag,
      sections: result.data.buckets.map((b) => ({ id: b.id, title: bucketTitle(b), count: b.count, etag: b.etag })),
    };
  }

  async groups(section, etag) {
    if (section.id === 'undated') return { etag: section.etag, groups: [{ id: 'undated', title: '', count: section.count }] };
    const result = await get(`/v1/timeline/${section.id}/days` + query(this.params), { etag });
    if (!result) return null;
    return { etag: result.etag, groups: result.data.buckets.map((b) => ({ id: b.id, title: bucketTitle(b), count: b.count })) };
  }

  async page(section, number, etag) {
    const result = await get(`/v1/timeline/${section.id}` + query({ ...this.params, page: number }), { etag });
    if (!result) return null;
    return { etag: result.etag, columns: result.data };
  }
}

/**
 * An album, smart album or moment in its own order (`/v1/albums/{id}/assets`),
 * as one section of one group, paged by the server's cursors.
 */
export class CollectionSource {
  constructor(collection, { predicate = '' } = {}) {
    this.collection = collection;
    this.pageSize = 1000;
    this.predicate = predicate;
    this.ordered = collection.kind === 'assetCollection' && collection.type === 'album';
    this.cursors = [null];
    this.first = null;
  }

  async summary() {
    this.cursors = [null];
    this.first = await this.load(0);
    const count = this.first.total;
    return { etag: null, sections: count ? [{ id: 'collection', title: this.collection.title || '', count, etag: String(Date.now()) }] : [] };
  }

  async groups(section) {
    return { etag: null, groups: [{ id: 'all', title: '', count: section.count }] };
  }

  async page(_section, number) {
    let data;
    if (number === 0 && this.first) {
      data = this.first;
      this.first = null;
    } else {
      for (let n = this.cursors.length; n <= number; n++) await this.load(n - 1);
      data = await this.load(number);
    }
    return { etag: null, columns: columnsOf(data.items, number, Math.ceil(data.total / this.pageSize)) };
  }

  /** The URL of a page of the collection's assets. */
  path(cursor) {
    return `/v1/albums/${this.collection.id}/assets` + query({ limit: this.pageSize, cursor, predicate: this.predicate });
  }

  async load(number) {
    const { data } = await get(this.path(this.cursors[number]));
    this.cursors[number + 1] = data.nextCursor;
    return data;
  }
}

/** The assets a search finds, best first, in pages as a collection's. */
export class SearchSource extends CollectionSource {
  constructor(search) {
    super({ kind: 'search', title: `“${search}”` });
    this.search = search;
  }

  path(cursor) {
    return '/v1/search' + query({ q: this.search, limit: this.pageSize, cursor });
  }
}

/** A person's photos (`/v1/people/{id}/assets`), in the library's order, in pages as a collection's. */
export class PersonSource extends CollectionSource {
  constructor(person, options) {
    super(person, options);
    this.ordered = false;
  }

  path(cursor) {
    return `/v1/people/${this.collection.person}/assets` + query({ limit: this.pageSize, cursor, predicate: this.predicate });
  }
}

/** Asset representations as the columns a timeline page has. */
function columnsOf(items, page, pages) {
  return {
    page,
    pages,
    ids: items.map((a) => a.id),
    aspectRatios: items.map((a) => (a.pixelHeight ? a.pixelWidth / a.pixelHeight : 1)),
    creationDates: items.map((a) => (a.creationDate ? Date.parse(a.creationDate) / 1000 : null)),
    mediaTypes: items.map((a) => a.mediaType),
    durations: items.map((a) => a.duration),
    favorites: items.map((a) => a.isFavorite),
    ratings: items.map((a) => a.rating),
    thumbHashes: items.map((a) => a.thumbHash ?? null),
    contentVersions: items.map((a) => a.contentVersion),
  };
}
