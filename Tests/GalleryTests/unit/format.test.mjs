// The rating scale as the gallery words and keys it, without a browser:
// every control is made from MAXIMUM_RATING, so these hold it to the API's
// 0…5 and check the keys that reach it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAXIMUM_RATING, ratingForKey, stars, describeAsset } from '../../../Sources/PhotosGallery/Web/format.js';

test('the scale is PhotoKit’s: none, then one to five stars', () => {
  assert.equal(MAXIMUM_RATING, 5);
});

test('digit keys up to the maximum rate, 0 clears, anything else is not a rating', () => {
  for (let rating = 0; rating <= MAXIMUM_RATING; rating++) assert.equal(ratingForKey(String(rating)), rating);
  for (const key of ['6', '9', '-1', '10', '05', '', ' ', 'a', 'F', 'Enter', '٣', '３']) assert.equal(ratingForKey(key), null, key);
});

test('ratings are worded and drawn the same everywhere', () => {
  assert.equal(stars(0), '');
  assert.equal(stars(MAXIMUM_RATING), '★'.repeat(MAXIMUM_RATING));
  assert.match(describeAsset('image', false, null, 1), /^Photo, 1 star, without a date$/);
  assert.match(describeAsset('video', true, null, 4), /^Video, favorite, 4 stars, without a date$/);
  assert.doesNotMatch(describeAsset('image', false, null, 0), /star/);
});
