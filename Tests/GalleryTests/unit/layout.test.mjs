// Justified rows, without a browser: every asset placed once, in order,
// rows filling the width, the last row at the target height.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { justifiedRows, estimatedHeight } from '../../../Sources/PhotosGallery/Web/layout.js';

/** A seeded generator, so a failure replays. */
function random(seed) {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

test('every asset lands in exactly one row, in order, and full rows fill the width', () => {
  for (let seed = 1; seed <= 50; seed++) {
    const next = random(seed);
    const ratios = Array.from({ length: 1 + Math.floor(next() * 300) }, () => 0.2 + next() * 4);
    const width = 300 + Math.floor(next() * 1500), target = 120 + Math.floor(next() * 200), gap = Math.floor(next() * 8);
    const rows = justifiedRows(ratios, 0, ratios.length, width, target, gap);
    let expected = 0;
    rows.forEach((row, index) => {
      assert.equal(row.first, expected, `seed ${seed}: rows follow each other`);
      assert.equal(row.widths.length, row.count);
      expected += row.count;
      const used = row.widths.reduce((a, b) => a + b, 0) + gap * (row.count - 1);
      if (index < rows.length - 1) assert.ok(Math.abs(used - width) < 1, `seed ${seed}: a full row fills ${width}, not ${used}`);
      else assert.ok(used <= width + 1, `seed ${seed}: the last row fits`);
    });
    assert.equal(expected, ratios.length, `seed ${seed}: every asset is placed`);
  }
});

test('a slice lays out from its own start, and nothing is estimated for nothing', () => {
  const ratios = [1, 1, 1, 1, 1, 1];
  const rows = justifiedRows(ratios, 2, 6, 1000, 200, 0);
  assert.equal(rows[0].first, 2);
  assert.equal(rows.reduce((n, r) => n + r.count, 0), 4);
  assert.equal(estimatedHeight(0, 1000, 200, 4), 0);
  assert.ok(estimatedHeight(100, 1000, 200, 4) > estimatedHeight(10, 1000, 200, 4));
});
