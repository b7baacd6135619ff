// The live merge of a new summary into the sections a grid holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeSections } from '../../../Sources/PhotosGallery/Web/merge.js';

const made = (s) => ({ ...s, pages: new Map(), made: true });

test('unchanged sections are kept as they are, changed ones kept and marked stale, new ones made, gone ones reported', () => {
  const may = { id: '2024-05', etag: 'a', count: 3, title: 'May 2024', pages: new Map([[0, { ids: ['x'] }]]) };
  const june = { id: '2024-06', etag: 'b', count: 1, title: 'June 2024', pages: new Map() };
  const april = { id: '2024-04', etag: 'c', count: 2, title: 'April 2024', pages: new Map() };
  const { sections, gone } = mergeSections([june, may, april], [
    { id: '2024-07', etag: 'd', count: 1, title: 'July 2024' },
    { id: '2024-06', etag: 'b', count: 1, title: 'June 2024' },
    { id: '2024-05', etag: 'a2', count: 4, title: 'May 2024' },
  ], made);
  assert.deepEqual(sections.map((s) => s.id), ['2024-07', '2024-06', '2024-05']);
  assert.equal(sections[0].made, true);
  assert.equal(sections[1], june);
  assert.equal(june.stale, undefined);
  assert.equal(sections[2], may, 'a changed section keeps its pages until they are read again');
  assert.equal(may.stale, true);
  assert.equal(may.count, 4);
  assert.equal(may.pages.size, 1);
  assert.deepEqual(gone, [april]);
});

test('an empty summary lets every section go', () => {
  const held = [{ id: 'undated', etag: 'x', count: 1 }];
  assert.deepEqual(mergeSections(held, [], made), { sections: [], gone: held });
});
