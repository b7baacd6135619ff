// The library's content hash (XXH3, 128 bits, hex of the high then the low
// half), computed in the browser so an upload can first ask whether the
// library already holds the file and send nothing when it does. Files of
// 240 bytes or less take XXH3's short paths, which are not written here:
// for them contentHash() answers null and the file is simply sent.
//
// The hot loop works on 32-bit halves (JavaScript has no fast 64-bit
// integers); the few 64-bit products of the final merge use BigInt.

const secret = new Uint8Array([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);
const secretView = new DataView(secret.buffer);
const PRIME32_1 = 0x9e3779b1;
const PRIME32_2 = 0x85ebca77n, PRIME32_3 = 0xc2b2ae3dn;
const PRIME64_1 = 0x9e3779b185ebca87n, PRIME64_2 = 0xc2b2ae3d27d4eb4fn, PRIME64_3 = 0x165667b19e3779f9n;
const PRIME64_4 = 0x85ebca77c2b2ae63n, PRIME64_5 = 0x27d4eb2f165667c5n;
const mask64 = (1n << 64n) - 1n;
const stripeLength = 64;
const stripesPerBlock = 16;
const blockLength = stripeLength * stripesPerBlock;
const readSize = 1024 * blockLength;

/** The secret's eight 64-bit words from a byte offset, as low and high halves. */
function keyWords(offset) {
  const words = new Uint32Array(16);
  for (let i = 0; i < 16; i++) words[i] = secretView.getUint32(offset + 4 * i, true);
  return words;
}
const stripeKeys = Array.from({ length: stripesPerBlock }, (_, s) => keyWords(8 * s));
const scrambleKey = keyWords(secret.length - stripeLength);
const lastStripeKey = keyWords(secret.length - stripeLength - 7);

/** acc += a × b for 32-bit a and b: the full 64-bit product, added in halves. */
function accumulate(acc, lane, a, b) {
  const a0 = a & 0xffff, a1 = a >>> 16, b0 = b & 0xffff, b1 = b >>> 16;
  const lolo = a0 * b0, hilo = a1 * b0, lohi = a0 * b1;
  const cross = (lolo >>> 16) + (hilo & 0xffff) + lohi;
  const low = (((cross << 16) | (lolo & 0xffff)) >>> 0);
  const high = a1 * b1 + (hilo >>> 16) + Math.floor(cross / 65536);
  add(acc, lane, low, high);
}

function add(acc, lane, low, high) {
  const sum = acc[lane] + low;
  acc[lane] = sum >>> 0;
  acc[lane + 1] = (acc[lane + 1] + high + (sum > 0xffffffff ? 1 : 0)) >>> 0;
}

/** One 64-byte stripe at `words[at..<at+16]` into the accumulators. */
function stripe(acc, words, at, key) {
  for (let i = 0; i < 8; i++) {
    const low = words[at + 2 * i], high = words[at + 2 * i + 1];
    const swapped = 2 * (i ^ 1);
    add(acc, swapped, low, high);
    accumulate(acc, 2 * i, (low ^ key[2 * i]) >>> 0, (high ^ key[2 * i + 1]) >>> 0);
  }
}

function scramble(acc) {
  for (let i = 0; i < 16; i += 2) {
    const high = acc[i + 1];
    const low = ((acc[i] ^ (high >>> 15)) ^ scrambleKey[i]) >>> 0;
    const mixedHigh = (high ^ scrambleKey[i + 1]) >>> 0;
    acc[i] = 0;
    acc[i + 1] = Math.imul(mixedHigh, PRIME32_1) >>> 0;
    accumulate(acc, i, low, PRIME32_1);
  }
}

const big = (acc, lane) => (BigInt(acc[lane + 1]) << 32n) | BigInt(acc[lane]);
const secret64 = (offset) => secretView.getBigUint64(offset, true);

function avalanche(h) {
  h ^= h >> 37n;
  h = (h * 0x165667919e3779f9n) & mask64;
  return h ^ (h >> 32n);
}

function merge(acc, offset, start) {
  let result = start;
  for (let i = 0; i < 4; i++) {
    const product = (big(acc, 4 * i) ^ secret64(offset + 16 * i)) * (big(acc, 4 * i + 2) ^ secret64(offset + 16 * i + 8));
    result = (result + ((product & mask64) ^ (product >> 64n))) & mask64;
  }
  return avalanche(result);
}

/**
 * The content hash of `file` (a Blob) as the library writes it, 32 hex
 * digits; null for files of 240 bytes or less. Reads the file in 1 MiB slices.
 */
export async function contentHash(file) {
  const length = file.size;
  if (length <= 240) return null;
  const acc = new Uint32Array(16);
  [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, BigInt(PRIME32_1)].forEach((value, i) => {
    acc[2 * i] = Number(value & 0xffffffffn);
    acc[2 * i + 1] = Number(value >> 32n);
  });
  const blocks = Math.floor((length - 1) / blockLength);
  for (let start = 0; start < blocks * blockLength; start += readSize) {
    const end = Math.min(blocks * blockLength, start + readSize);
    const words = new Uint32Array(await file.slice(start, end).arrayBuffer());
    for (let block = 0; block < (end - start) / blockLength; block++) {
      for (let s = 0; s < stripesPerBlock; s++) stripe(acc, words, block * 256 + s * 16, stripeKeys[s]);
      scramble(acc);
    }
  }
  const tailStart = Math.max(0, blocks * blockLength - stripeLength);
  const tail = new Uint8Array(await file.slice(tailStart, length).arrayBuffer());
  const partialStart = blocks * blockLength - tailStart;
  const stripes = Math.floor((length - 1 - blocks * blockLength) / stripeLength);
  const aligned = new Uint32Array(tail.buffer, 0, Math.floor(tail.length / 4));
  for (let s = 0; s < stripes; s++) stripe(acc, aligned, (partialStart + s * stripeLength) / 4, stripeKeys[s]);
  const last = new Uint32Array(tail.slice(tail.length - stripeLength).buffer);
  stripe(acc, last, 0, lastStripeKey);
  const bigLength = BigInt(length);
  const low = merge(acc, 11, (bigLength * PRIME64_1) & mask64);
  const high = merge(acc, secret.length - stripeLength - 11, ~(bigLength * PRIME64_2) & mask64);
  return high.toString(16).padStart(16, '0') + low.toString(16).padStart(16, '0');
}
