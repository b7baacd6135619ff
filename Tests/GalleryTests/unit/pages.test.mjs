// The page cache: stores and locates, forgets the least recently used
// beyond its budget, and never locates an asset in a page it dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageCache } from '../../../Sources/PhotosGallery/Web/pages.js';

const section = (id) => ({ id, pages: new Map(), blocks: 'laid out' });
const page = (prefix, n, size) => ({ ids: Array.from({ length: size }, (_, i) => `${prefix}${n * size + i}`) });

test('a stored page locates its assets by section and offset', () => {
  const cache = new PageCache(3, 10), may = section('2024-05');
  cache.touch(may, 1);
  cache.store(may, 1, page('m', 1, 3), '"e1"');
  assert.deepEqual(cache.locate('m4'), { section: may, offset: 4 });
  assert.equal(may.pages.get(1).etag, '"e1"');
  assert.equal(cache.locate('m0'), undefined);
});

test('storing a page again forgets the assets that left it, not those that moved into another page', () => {
  const cache = new PageCache(2, 10), may = section('2024-05');
  cache.store(may, 0, { ids: ['a', 'b'] });
  cache.store(may, 1, { ids: ['c', 'd'] });
  cache.store(may, 0, { ids: ['a', 'c'] }); // b deleted, c moved up
  cache.store(may, 1, { ids: ['d'] });
  assert.equal(cache.locate('b'), undefined);
  assert.deepEqual(cache.locate('c'), { section: may, offset: 1 });
  assert.deepEqual(cache.locate('d'), { section: may, offset: 2 });
});

test('beyond its budget it forgets the least recently used pages, and says so', () => {
  const cache = new PageCache(2, 2), may = section('2024-05'), june = section('2024-06');
  for (const [s, n] of [[may, 0], [june, 0], [may, 1]]) {
    cache.touch(s, n);
    cache.store(s, n, page(s.id, n, 2));
  }
  cache.touch(may, 0); // used again: june's page is now the oldest
  assert.equal(cache.evict([may, june]), true);
  assert.equal(june.pages.size, 0);
  assert.equal(june.blocks, null, 'its layout is redone');
  assert.equal(cache.locate('2024-060'), undefined);
  assert.equal(may.pages.size, 2);
  assert.equal(cache.evict([may, june]), false, 'within budget nothing goes');
});

test('a dropped page is forgotten whole', () => {
  const cache = new PageCache(2, 5), may = section('2024-05');
  cache.touch(may, 0);
  cache.store(may, 0, page('m', 0, 2));
  cache.drop(may, 0);
  cache.drop(may, 3); // never loaded: nothing happens
  assert.equal(may.pages.size, 0);
  assert.equal(cache.locate('m0'), undefined);
  assert.equal(cache.use.size, 0);
});
