// The map's Web Mercator projection, without a browser: places go where
// every web map puts them, and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unitX, unitY, longitudeAt, latitudeAt } from '../../../Sources/PhotosGallery/Web/map.js';

test('the world spans 0 to 1 both ways, the equator and the meridian in the middle', () => {
  assert.equal(unitX(-180), 0);
  assert.equal(unitX(180), 1);
  assert.equal(unitX(0), 0.5);
  assert.ok(Math.abs(unitY(0) - 0.5) < 1e-12);
  assert.ok(unitY(85.0511) < 1e-5 && unitY(90) === unitY(85.0511), 'clamped at the square map\'s edge');
  assert.ok(unitY(-85.0511) > 1 - 1e-5 && unitY(-90) === unitY(-85.0511));
});

test('a place projects and comes back', () => {
  for (let latitude = -85; latitude <= 85; latitude += 5) {
    for (let longitude = -180; longitude <= 180; longitude += 15) {
      assert.ok(Math.abs(latitudeAt(unitY(latitude)) - latitude) < 1e-9, `${latitude}`);
      assert.ok(Math.abs(longitudeAt(unitX(longitude)) - longitude) < 1e-9, `${longitude}`);
    }
  }
  // Paris on the tile every web map draws it on at zoom 10: 518, 352.
  assert.equal(Math.floor(unitX(2.3522) * 1024), 518);
  assert.equal(Math.floor(unitY(48.8566) * 1024), 352);
});
