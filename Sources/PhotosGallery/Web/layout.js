// Justified rows: assets side by side at their aspect ratios, each row
// scaled to fill the width exactly (the last row of a group keeps the
// target height). Pure arithmetic over a slice of aspect ratios, so a
// 2,000-asset page lays out in well under a millisecond.

/** Aspect ratios beyond these are drawn cropped, so a panorama does not take a row alone. */
const narrowest = 0.5;
const widest = 3;

/**
 * Rows for `ratios[start..<end]` in `width` pixels: each row is
 * { first, count, height, widths } with `first` an index into `ratios`.
 */
export function justifiedRows(ratios, start, end, width, targetHeight, gap) {
  const rows = [];
  let first = start;
  let sum = 0;
  for (let index = start; index < end; index++) {
    sum += clamp(ratios[index]);
    const count = index - first + 1;
    const naturalWidth = sum * targetHeight + gap * (count - 1);
    if (naturalWidth >= width) {
      const height = (width - gap * (count - 1)) / sum;
      rows.push(row(ratios, first, count, height));
      first = index + 1;
      sum = 0;
    }
  }
  if (first < end) rows.push(row(ratios, first, end - first, targetHeight));
  return rows;
}

/** An estimate of the height `count` assets take, for what is not laid out yet. */
export function estimatedHeight(count, width, targetHeight, gap, averageRatio = 1.4) {
  if (count <= 0) return 0;
  const perRow = Math.max(1, Math.floor((width + gap) / (targetHeight * averageRatio + gap)));
  return Math.ceil(count / perRow) * (targetHeight + gap);
}

function clamp(ratio) {
  return Math.min(widest, Math.max(narrowest, ratio || 1));
}

function row(ratios, first, count, height) {
  const widths = new Float32Array(count);
  for (let i = 0; i < count; i++) widths[i] = clamp(ratios[first + i]) * height;
  return { first, count, height, widths };
}
