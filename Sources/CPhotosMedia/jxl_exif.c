// The EXIF of a JPEG XL file, which libvips 8.14 does not give: the
// container's "Exif" box, or a "brob" box holding it Brotli-compressed, as
// cjxl and cameras write it (and which Debian's exiftool cannot open).
#include <brotli/decode.h>
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "CPhotosMedia.h"

// Bounds on what a hostile file can make this read: boxes walked, the
// compressed box read, and what it may decompress to.
#define PM_JXL_MAXIMUM_BOXES 4096
#define PM_JXL_MAXIMUM_BOX_BYTES (16 << 20)
#define PM_JXL_MAXIMUM_EXIF_BYTES (4 << 20)

static uint64_t big_endian(const unsigned char *bytes, int count) {
    uint64_t value = 0;
    for (int i = 0; i < count; i++) value = value << 8 | bytes[i];
    return value;
}

// Decompresses a Brotli stream into at most PM_JXL_MAXIMUM_EXIF_BYTES; NULL when it is bad or larger.
static unsigned char *brotli_decompressed(const unsigned char *input, size_t length, size_t *out_length) {
    BrotliDecoderState *state = BrotliDecoderCreateInstance(NULL, NULL, NULL);
    if (state == NULL) return NULL;
    size_t capacity = 64 << 10;
    unsigned char *output = g_malloc(capacity);
    size_t available_in = length, total = 0;
    const uint8_t *next_in = input;
    BrotliDecoderResult result;
    do {
        size_t available_out = capacity - total;
        uint8_t *next_out = output + total;
        result = BrotliDecoderDecompressStream(state, &available_in, &next_in, &available_out, &next_out, NULL);
        total = capacity - available_out;
        if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
            if (capacity >= PM_JXL_MAXIMUM_EXIF_BYTES) break;
            capacity *= 2;
            output = g_realloc(output, capacity);
        }
    } while (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT);
    BrotliDecoderDestroyInstance(state);
    if (result != BROTLI_DECODER_RESULT_SUCCESS) {
        g_free(output);
        return NULL;
    }
    *out_length = total;
    return output;
}

int pm_jxl_exif(const char *path, void **exif, size_t *exif_length) {
    *exif = NULL;
    *exif_length = 0;
    FILE *file = fopen(path, "rb");
    if (file == NULL) return -1;
    unsigned char head[16];
    int found = -1;
    for (int box = 0; box < PM_JXL_MAXIMUM_BOXES && found != 0; box++) {
        if (fread(head, 1, 8, file) != 8) break;
        uint64_t size = big_endian(head, 4);
        int header_length = 8;
        if (size == 1) {
            if (fread(head + 8, 1, 8, file) != 8) break;
            size = big_endian(head + 8, 8);
            header_length = 16;
        }
        int is_exif = memcmp(head + 4, "Exif", 4) == 0, is_brob = memcmp(head + 4, "brob", 4) == 0;
        if (size == 0) size = UINT64_MAX;  // to the end of the file
        if (size < (uint64_t) header_length) break;
        uint64_t payload = size - header_length;
        if ((is_exif || is_brob) && payload <= PM_JXL_MAXIMUM_BOX_BYTES) {
            unsigned char *bytes = g_malloc(payload > 0 ? payload : 1);
            if (fread(bytes, 1, payload, file) != payload) {
                g_free(bytes);
                break;
            }
            if (is_exif) {
                *exif = bytes;
                *exif_length = payload;
                found = 0;
            } else if (payload > 4 && memcmp(bytes, "Exif", 4) == 0) {
                size_t length = 0;
                unsigned char *plain = brotli_decompressed(bytes + 4, payload - 4, &length);
                g_free(bytes);
                if (plain != NULL) {
                    *exif = plain;
                    *exif_length = length;
                    found = 0;
                }
            } else {
                g_free(bytes);
            }
        } else if (size == UINT64_MAX || payload > (uint64_t) INT64_MAX || fseeko(file, (off_t) payload, SEEK_CUR) != 0) {
            break;
        }
    }
    fclose(file);
    return found;
}
