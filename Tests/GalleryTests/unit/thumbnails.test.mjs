// Thumbnail requests start together after the frame that asked, the latest
// URL of each image winning, and never for an image already gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ThumbnailQueue } from '../../../Sources/PhotosGallery/Web/thumbnails.js';

/** A scheduler the test runs by hand. */
function manual() {
  const runs = [];
  return { runs, schedule: (run) => (runs.push(run), runs.length), cancel: (handle) => { runs[handle - 1] = null; } };
}

test('requests wait for the frame, start together, the latest URL of each image winning', () => {
  const clock = manual(), queue = new ThumbnailQueue(clock.schedule, clock.cancel);
  const a = { src: '', isConnected: true }, b = { src: '', isConnected: true }, gone = { src: '', isConnected: false };
  queue.request(a, '/a?v=1');
  queue.request(b, '/b');
  queue.request(gone, '/gone');
  queue.request(a, '/a?v=2');
  assert.equal(clock.runs.length, 1, 'one task for the whole frame');
  assert.equal(a.src, '');
  clock.runs[0]();
  assert.deepEqual([a.src, b.src, gone.src], ['/a?v=2', '/b', '']);
  queue.request(b, '/b?v=3');
  assert.equal(clock.runs.length, 2, 'a later frame schedules again');
});

test('cancelled requests never start', () => {
  const clock = manual(), queue = new ThumbnailQueue(clock.schedule, clock.cancel);
  const a = { src: '', isConnected: true };
  queue.request(a, '/a');
  queue.cancel();
  assert.equal(clock.runs[0], null);
  assert.equal(queue.wanted.size, 0);
  assert.equal(a.src, '');
});
