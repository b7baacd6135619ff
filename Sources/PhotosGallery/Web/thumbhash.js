// ThumbHash placeholders (https://evanw.github.io/thumbhash/): a few dozen
// bytes per asset, carried in timeline pages, decoded here to a tiny image
// that paints before the thumbnail arrives.

const cache = new Map();
const cacheLimit = 4000;

/** A data: URL of the placeholder for a base64 ThumbHash; null for none. Decoded once per hash. */
export function placeholderURL(base64) {
  if (!base64) return null;
  let url = cache.get(base64);
  if (url) return url;
  url = render(decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))));
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value);
  cache.set(base64, url);
  return url;
}

/** The hash's average colour as CSS, for a cell's background before anything decodes. */
export function averageColor(base64) {
  if (!base64) return null;
  const hash = Uint8Array.from(atob(base64.slice(0, 8)), (c) => c.charCodeAt(0));
  const header = hash[0] | (hash[1] << 8) | (hash[2] << 16);
  const l = (header & 63) / 63, p = ((header >> 6) & 63) / 31.5 - 1, q = ((header >> 12) & 63) / 31.5 - 1;
  const [r, g, b] = rgb(l, p, q);
  return `rgb(${r},${g},${b})`;
}

function rgb(l, p, q) {
  const b = l - (2 / 3) * p;
  const r = (3 * l - b + q) / 2;
  const g = r - q;
  return [channelByte(r), channelByte(g), channelByte(b)];
}

/** A colour channel from 0...1 (clamped) as a byte. */
function channelByte(v) {
  return Math.round(255 * Math.min(1, Math.max(0, v)));
}

function decode(hash) {
  const header24 = hash[0] | (hash[1] << 8) | (hash[2] << 16);
  const header16 = hash[3] | (hash[4] << 8);
  const lDC = (header24 & 63) / 63;
  const pDC = ((header24 >> 6) & 63) / 31.5 - 1;
  const qDC = ((header24 >> 12) & 63) / 31.5 - 1;
  const lScale = ((header24 >> 18) & 31) / 31;
  const hasAlpha = header24 >> 23 !== 0;
  const pScale = ((header16 >> 3) & 63) / 63;
  const qScale = ((header16 >> 9) & 63) / 63;
  const isLandscape = header16 >> 15 !== 0;
  const lx = Math.max(3, isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7);
  const ly = Math.max(3, isLandscape ? header16 & 7 : hasAlpha ? 5 : 7);
  const aDC = hasAlpha ? (hash[5] & 15) / 15 : 1;
  const aScale = (hash[5] >> 4) / 15;
  let position = 0;
  const start = hasAlpha ? 6 : 5;
  const channel = (nx, ny, scale) => {
    const ac = [];
    for (let cy = 0; cy < ny; cy++) {
      for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++, position++) {
        const nibble = (hash[start + (position >> 1)] >> ((position & 1) << 2)) & 15;
        ac.push((nibble / 7.5 - 1) * scale);
      }
    }
    return ac;
  };
  const lAC = channel(lx, ly, lScale);
  const pAC = channel(3, 3, pScale * 1.25);
  const qAC = channel(3, 3, qScale * 1.25);
  const aAC = hasAlpha ? channel(5, 5, aScale) : null;
  const ratio = lx / ly;
  const w = Math.round(ratio > 1 ? 32 : 32 * ratio);
  const h = Math.round(ratio > 1 ? 32 / ratio : 32);
  // The cosines depend on the column or the row alone: computed once for
  // each, not for every pixel (which was most of a placeholder's cost).
  const nx = Math.max(lx, hasAlpha ? 5 : 3), ny = Math.max(ly, hasAlpha ? 5 : 3);
  const fx = new Float64Array(w * nx), fy = new Float64Array(h * ny);
  for (let x = 0; x < w; x++) for (let cx = 0; cx < nx; cx++) fx[x * nx + cx] = Math.cos((Math.PI / w) * (x + 0.5) * cx);
  for (let y = 0; y < h; y++) for (let cy = 0; cy < ny; cy++) fy[y * ny + cy] = 2 * Math.cos((Math.PI / h) * (y + 0.5) * cy);
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let y = 0, i = 0; y < h; y++) {
    const row = y * ny;
    for (let x = 0; x < w; x++, i += 4) {
      const column = x * nx;
      let l = lDC, p = pDC, q = qDC, a = aDC;
      for (let cy = 0, j = 0; cy < ly; cy++) {
        const fy2 = fy[row + cy];
        for (let cx = cy ? 0 : 1; cx * ly < lx * (ly - cy); cx++, j++) l += lAC[j] * fx[column + cx] * fy2;
      }
      for (let cy = 0, j = 0; cy < 3; cy++) {
        const fy2 = fy[row + cy];
        for (let cx = cy ? 0 : 1; cx < 3 - cy; cx++, j++) {
          const f = fx[column + cx] * fy2;
          p += pAC[j] * f;
          q += qAC[j] * f;
        }
      }
      if (aAC) {
        for (let cy = 0, j = 0; cy < 5; cy++) {
          const fy2 = fy[row + cy];
          for (let cx = cy ? 0 : 1; cx < 5 - cy; cx++, j++) a += aAC[j] * fx[column + cx] * fy2;
        }
      }
      const b = l - (2 / 3) * p, r = (3 * l - b + q) / 2, g = r - q;
      rgba[i] = channelByte(r);
      rgba[i + 1] = channelByte(g);
      rgba[i + 2] = channelByte(b);
      rgba[i + 3] = channelByte(a);
    }
  }
  return { w, h, rgba };
}

const canvas = document.createElement('canvas');

function render({ w, h, rgba }) {
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d');
  context.putImageData(new ImageData(rgba, w, h), 0, 0);
  return canvas.toDataURL('image/png');
}
