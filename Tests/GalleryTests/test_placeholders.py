"""ThumbHash placeholders: the gallery's decoder paints what the reference algorithm
(https://github.com/evanw/thumbhash, thumbHashToRGBA) decodes, for the library's own hashes."""
import base64
import math

from conftest import sign_in


def js_round(x):
    """JavaScript's Math.round: halves go up."""
    return math.floor(x + 0.5)


def reference_rgba(hash):
    """The reference decoder, written out plainly: (width, height, RGBA bytes)."""
    header24 = hash[0] | (hash[1] << 8) | (hash[2] << 16)
    header16 = hash[3] | (hash[4] << 8)
    l_dc = (header24 & 63) / 63
    p_dc = ((header24 >> 6) & 63) / 31.5 - 1
    q_dc = ((header24 >> 12) & 63) / 31.5 - 1
    l_scale = ((header24 >> 18) & 31) / 31
    has_alpha = (header24 >> 23) != 0
    p_scale = ((header16 >> 3) & 63) / 63
    q_scale = ((header16 >> 9) & 63) / 63
    is_landscape = (header16 >> 15) != 0
    lx = max(3, (5 if has_alpha else 7) if is_landscape else header16 & 7)
    ly = max(3, (header16 & 7) if is_landscape else (5 if has_alpha else 7))
    a_dc = (hash[5] & 15) / 15 if has_alpha else 1
    a_scale = (hash[5] >> 4) / 15
    start = 6 if has_alpha else 5
    position = 0

    def channel(nx, ny, scale):
        nonlocal position
        ac = []
        for cy in range(ny):
            cx = 0 if cy else 1
            while cx * ny < nx * (ny - cy):
                nibble = (hash[start + (position >> 1)] >> ((position & 1) << 2)) & 15
                ac.append((nibble / 7.5 - 1) * scale)
                position += 1
                cx += 1
        return ac

    l_ac = channel(lx, ly, l_scale)
    p_ac = channel(3, 3, p_scale * 1.25)
    q_ac = channel(3, 3, q_scale * 1.25)
    a_ac = channel(5, 5, a_scale) if has_alpha else None
    ratio = lx / ly
    w = js_round(32 if ratio > 1 else 32 * ratio)
    h = js_round(32 / ratio if ratio > 1 else 32)
    rgba = []
    byte = lambda v: js_round(255 * min(1, max(0, v)))
    for y in range(h):
        for x in range(w):
            l, p, q, a = l_dc, p_dc, q_dc, a_dc
            fx = [math.cos(math.pi / w * (x + 0.5) * cx) for cx in range(max(lx, 5 if has_alpha else 3))]
            fy = [math.cos(math.pi / h * (y + 0.5) * cy) for cy in range(max(ly, 5 if has_alpha else 3))]
            j = 0
            for cy in range(ly):
                cx = 0 if cy else 1
                while cx * ly < lx * (ly - cy):
                    l += l_ac[j] * fx[cx] * (fy[cy] * 2)
                    cx += 1
                    j += 1
            j = 0
            for cy in range(3):
                cx = 0 if cy else 1
                while cx < 3 - cy:
                    f = fx[cx] * (fy[cy] * 2)
                    p += p_ac[j] * f
                    q += q_ac[j] * f
                    cx += 1
                    j += 1
            if a_ac is not None:
                j = 0
                for cy in range(5):
                    cx = 0 if cy else 1
                    while cx < 5 - cy:
                        a += a_ac[j] * fx[cx] * (fy[cy] * 2)
                        cx += 1
                        j += 1
            b = l - 2 / 3 * p
            r = (3 * l - b + q) / 2
            g = r - q
            rgba += [byte(r), byte(g), byte(b), byte(a)]
    return w, h, rgba


def test_placeholders_decode_as_the_reference_does(browser, server):
    sign_in(browser, server)
    decoded = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
            const { placeholderURL } = await import('/gallery/thumbhash.js');
            const hashes = new Set();
            for (const section of gallery.grid.sections) {
                for (const columns of section.pages.values()) for (const hash of columns.thumbHashes) if (hash) hashes.add(hash);
            }
            const out = [];
            for (const hash of [...hashes].slice(0, 12)) {
                const image = new Image();
                image.src = placeholderURL(hash);
                await image.decode();
                const canvas = document.createElement('canvas');
                canvas.width = image.width;
                canvas.height = image.height;
                const context = canvas.getContext('2d');
                context.drawImage(image, 0, 0);
                out.push([hash, image.width, image.height, Array.from(context.getImageData(0, 0, image.width, image.height).data)]);
            }
            return out;
        })().then(done, (error) => done(String(error)));""")
    assert isinstance(decoded, list) and len(decoded) >= 3, f"too few placeholders to compare: {decoded!r:.200}"
    compared = 0
    for hash, width, height, pixels in decoded:
        w, h, expected = reference_rgba(base64.b64decode(hash))
        assert (width, height) == (w, h), hash
        # Opaque pixels only: the canvas stores colours premultiplied by alpha, which rounds the others.
        # One step of difference is allowed for the last bit of a cosine, which libraries compute differently.
        opaque = [i for i in range(0, len(expected), 4) if expected[i + 3] == 255]
        compared += len(opaque)
        worst = max((abs(pixels[i + c] - expected[i + c]) for i in opaque for c in range(4)), default=0)
        assert worst <= 1, f"{hash}: a channel differs by {worst}"
    assert compared > 0, "no opaque placeholder to compare"
