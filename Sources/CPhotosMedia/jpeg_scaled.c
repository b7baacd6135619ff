// Decoding JPEGs straight through libjpeg, with DCT scaling doing most of
// the resizing: the library's own derivatives (libvips spends about 3 ms
// setting up a pipeline for a 480 x 360 JPEG; libjpeg decodes it in under
// 1 ms), and plain originals for their derivatives (libvips' JPEG loader
// at shrink 8 takes about 1.6 times libjpeg's decode of a 12 MP photo).

#include "CPhotosMedia.h"
#include "jpeg_scaled.h"

#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <libexif/exif-data.h>
#include <vips/vips.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
} scaled_error;

static void escape_on_error(j_common_ptr info) {
    scaled_error *error = (scaled_error *) info->err;
    char message[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, message);
    vips_error("jpeg", "%s", message);
    longjmp(error->escape, 1);
}

// A corrupt-data warning means damaged pixels: treat it as an error too.
static void escape_on_warning(j_common_ptr info, int level) {
    if (level < 0) escape_on_error(info);
}

// Sends `decoder`'s errors and warnings to `on_error` and `on_warning`,
// which end by jumping to `error->escape`.
static void handle_errors(struct jpeg_decompress_struct *decoder, scaled_error *error,
                          void (*on_error)(j_common_ptr), void (*on_warning)(j_common_ptr, int)) {
    decoder->err = jpeg_std_error(&error->manager);
    error->manager.error_exit = on_error;
    error->manager.emit_message = on_warning;
}

// After a jump out of a decode: releases the decoder, the file (none when
// decoding from memory) and the rows read so far. Returns -1.
static int abandon(struct jpeg_decompress_struct *decoder, FILE *file, unsigned char *output) {
    jpeg_destroy_decompress(decoder);
    if (file != NULL) fclose(file);
    g_free(output);
    return -1;
}

// After every row was read: hands the pixels over and closes. Returns 0.
static int hand_over(struct jpeg_decompress_struct *decoder, FILE *file, unsigned char *output,
                     unsigned char **pixels, int *width, int *height) {
    *width = (int) decoder->output_width;
    *height = (int) decoder->output_height;
    *pixels = output;
    jpeg_destroy_decompress(decoder);
    if (file != NULL) fclose(file);
    return 0;
}

// Decodes every row, `bands` bytes a pixel, into a buffer it puts in
// `*output` before reading, so that the caller frees it when libjpeg jumps
// out midway.
static void decode_rows(struct jpeg_decompress_struct *decoder, int bands, unsigned char *volatile *output) {
    jpeg_start_decompress(decoder);
    size_t stride = (size_t) decoder->output_width * (size_t) bands;
    *output = g_malloc(stride * decoder->output_height);
    while (decoder->output_scanline < decoder->output_height) {
        JSAMPROW row = *output + stride * decoder->output_scanline;
        jpeg_read_scanlines(decoder, &row, 1);
    }
    jpeg_finish_decompress(decoder);
}

int pm_decode_jpeg_covering(const char *path, const void *buffer, size_t length, int target_width, int target_height,
                            int fill, unsigned char **pixels, int *width, int *height) {
    int source_width = 0, source_height = 0;
    return pm_jpeg_decode_covering(path, buffer, length, target_width, target_height, fill,
                                   pixels, width, height, &source_width, &source_height);
}

int pm_jpeg_decode_covering(const char *path, const void *buffer, size_t length, int target_width, int target_height,
                            int fill, unsigned char **pixels, int *width, int *height, int *source_width, int *source_height) {
    FILE *file = NULL;
    if (path != NULL && (file = fopen(path, "rb")) == NULL) {
        vips_error("jpeg", "cannot open %s", path);
        return -1;
    }
    struct jpeg_decompress_struct decoder;
    scaled_error error;
    handle_errors(&decoder, &error, escape_on_error, escape_on_warning);
    unsigned char *volatile output = NULL;
    // setjmp belongs in this frame, which must still be live when libjpeg jumps.
    if (setjmp(error.escape)) return abandon(&decoder, file, output);
    jpeg_create_decompress(&decoder);
    if (file != NULL) {
        jpeg_stdio_src(&decoder, file);
    } else {
        jpeg_mem_src(&decoder, (const unsigned char *) buffer, (unsigned long) length);
    }
    jpeg_read_header(&decoder, TRUE);
    *source_width = (int) decoder.image_width;
    *source_height = (int) decoder.image_height;

    // The smallest scale of n/8 whose output still covers (fill) or fits
    // around (fit) the target's scale, never above full size.
    double horizontal = (double) target_width / decoder.image_width;
    double vertical = (double) target_height / decoder.image_height;
    double scale = fill ? (horizontal > vertical ? horizontal : vertical)
                        : (horizontal < vertical ? horizontal : vertical);
    unsigned int eighths = 8;
    while (eighths > 1 && (double) (eighths - 1) / 8 >= scale) eighths--;
    decoder.scale_num = eighths;
    decoder.scale_denom = 8;
    decoder.out_color_space = JCS_EXT_RGBA;
    // Block smoothing only makes up coefficients a progressive stream lacks:
    // none for a whole file, and a stream of DC scans alone (see
    // pm_jpeg_dc_scans) must decode to the DC pixels themselves.
    decoder.do_block_smoothing = FALSE;
    decode_rows(&decoder, 4, &output);
    return hand_over(&decoder, file, output, pixels, width, height);
}

// ---------------------------------------------------------------- originals

// A big-endian s15Fixed16 number of an ICC profile.
static double icc_fixed(const unsigned char *at) {
    int32_t value = (int32_t) ((uint32_t) at[0] << 24 | (uint32_t) at[1] << 16 | (uint32_t) at[2] << 8 | at[3]);
    return value / 65536.0;
}

static uint32_t icc_word(const unsigned char *at) {
    return (uint32_t) at[0] << 24 | (uint32_t) at[1] << 16 | (uint32_t) at[2] << 8 | at[3];
}

int pm_icc_is_srgb_like(const unsigned char *profile, size_t length) {
    if (length < 132) return 0;
    // Grey: a tone curve, no primaries to be wrong.
    if (memcmp(profile + 16, "GRAY", 4) == 0) return 1;
    if (memcmp(profile + 16, "RGB ", 4) != 0) return 0;
    // sRGB's primaries, adapted to the profile connection space's D50.
    static const struct { const char *tag; double xyz[3]; } srgb[3] = {
        {"rXYZ", {0.4361, 0.2225, 0.0139}}, {"gXYZ", {0.3851, 0.7169, 0.0971}}, {"bXYZ", {0.1431, 0.0606, 0.7141}},
    };
    uint32_t count = icc_word(profile + 128);
    if (count > (length - 132) / 12) return 0;
    int matched = 0;
    for (uint32_t index = 0; index < count; index++) {
        const unsigned char *entry = profile + 132 + 12 * index;
        uint32_t offset = icc_word(entry + 4), size = icc_word(entry + 8);
        for (int primary = 0; primary < 3; primary++) {
            if (memcmp(entry, srgb[primary].tag, 4) != 0) continue;
            if (size < 20 || offset > length || length - offset < 20 || memcmp(profile + offset, "XYZ ", 4) != 0) return 0;
            for (int axis = 0; axis < 3; axis++) {
                if (fabs(icc_fixed(profile + offset + 8 + 4 * axis) - srgb[primary].xyz[axis]) > 0.01) return 0;
            }
            matched++;
        }
    }
    return matched == 3;
}

// Whether the JPEG embeds a colour profile whose pixels are not sRGB's
// (Display P3, Adobe RGB, ProPhoto...): those must be converted, which
// libvips does; a profile of sRGB, or none, leaves the pixels as they are.
static int has_foreign_profile(j_decompress_ptr decoder) {
    JOCTET *profile = NULL;
    unsigned int length = 0;
    if (!jpeg_read_icc_profile(decoder, &profile, &length)) return 0;
    int foreign = !pm_icc_is_srgb_like(profile, length);
    free(profile);
    return foreign;
}

// For originals the fast path only declines: any error or warning sends the
// file to libvips, which decides, in its own words, whether it decodes.
static void decline_on_error(j_common_ptr info) {
    longjmp(((scaled_error *) info->err)->escape, 1);
}

static void decline_on_warning(j_common_ptr info, int level) {
    if (level < 0) decline_on_error(info);
}

// The EXIF orientation (1...8) in the saved APP1 markers; 1 when none.
static int saved_orientation(jpeg_saved_marker_ptr marker) {
    for (; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 6 || memcmp(marker->data, "Exif\0\0", 6) != 0) continue;
        ExifData *data = exif_data_new_from_data(marker->data, marker->data_length);
        if (data == NULL) return 1;
        ExifEntry *entry = exif_content_get_entry(data->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
        int value = entry != NULL && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1
            ? exif_get_short(entry->data, exif_data_get_byte_order(data)) : 1;
        exif_data_unref(data);
        return value >= 1 && value <= 8 ? value : 1;
    }
    return 1;
}

// ------------------------------------------------- progressive at an eighth

// Where the entropy-coded data that starts at `from` ends: at the first
// marker, a 0xFF followed by neither a stuffed 0x00 nor a restart marker.
// `length` when there is none.
static size_t entropy_end(const unsigned char *jpeg, size_t from, size_t length) {
    while (from + 1 < length) {
        const unsigned char *next = memchr(jpeg + from, 0xFF, length - from - 1);
        if (next == NULL) return length;
        size_t at = (size_t) (next - jpeg);
        unsigned char follower = jpeg[at + 1];
        if (follower != 0x00 && (follower < 0xD0 || follower > 0xD7)) return at;
        from = at + 2;
    }
    return length;
}

int pm_jpeg_dc_scans(const void *bytes, size_t length, void **reduced, size_t *reduced_length) {
    const unsigned char *jpeg = bytes;
    if (length < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return -1;
    unsigned char *out = g_malloc(length + 2);
    size_t written = 2, at = 2;
    int scans = 0;
    memcpy(out, jpeg, 2);
    while (1) {
        if (at + 1 >= length || jpeg[at] != 0xFF) goto malformed;
        unsigned char marker = jpeg[at + 1];
        if (marker == 0xFF) {  // a fill byte before a marker
            at++;
            continue;
        }
        if (marker == 0xD9) break;
        // Standalone markers (TEM, RSTn) have no place between segments.
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) || at + 4 > length) goto malformed;
        size_t end = at + 2 + (((size_t) jpeg[at + 2] << 8) | jpeg[at + 3]);
        if (end > length || end < at + 4) goto malformed;
        int keep = 1;
        if (marker == 0xDA) {
            // SOS: the component count, two bytes per component, then the
            // spectral selection's start (0 for DC), its end and the
            // successive approximation; the scan's data follows the segment.
            unsigned int components = jpeg[at + 4];
            if (end != at + 2 + 6 + 2 * components) goto malformed;
            keep = jpeg[at + 5 + 2 * components] == 0;
            scans += keep;
            end = entropy_end(jpeg, end, length);
            if (end >= length) goto malformed;
        }
        if (keep) {
            memcpy(out + written, jpeg + at, end - at);
            written += end - at;
        }
        at = end;
    }
    if (scans == 0) goto malformed;
    out[written++] = 0xFF;
    out[written++] = 0xD9;
    *reduced = out;
    *reduced_length = written;
    return 0;
malformed:
    g_free(out);
    return -1;
}

// Decodes a stream of DC scans (pm_jpeg_dc_scans) at an eighth of its size
// as 8-bit RGB; -1, leaving no error, when libjpeg errs or warns.
static int decode_dc_scans_at_an_eighth(const unsigned char *jpeg, size_t length,
                                        unsigned char **pixels, int *width, int *height) {
    struct jpeg_decompress_struct decoder;
    scaled_error error;
    handle_errors(&decoder, &error, decline_on_error, decline_on_warning);
    unsigned char *volatile output = NULL;
    // setjmp belongs in this frame, which must still be live when libjpeg jumps.
    if (setjmp(error.escape)) return abandon(&decoder, NULL, output);
    jpeg_create_decompress(&decoder);
    jpeg_mem_src(&decoder, jpeg, (unsigned long) length);
    jpeg_read_header(&decoder, TRUE);
    decoder.scale_num = 1;
    decoder.scale_denom = 8;
    decoder.out_color_space = JCS_RGB;
    // The AC coefficients are absent, not unknown: nothing to make up.
    decoder.do_block_smoothing = FALSE;
    decode_rows(&decoder, 3, &output);
    return hand_over(&decoder, NULL, output, pixels, width, height);
}

int pm_jpeg_decode_original(const char *path, int upright_width, int upright_height,
                            unsigned char **pixels, int *width, int *height, int *orientation) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return -1;
    unsigned char magic[3] = {0};
    if (fread(magic, 1, 3, file) != 3 || magic[0] != 0xFF || magic[1] != 0xD8 || magic[2] != 0xFF) {
        fclose(file);
        return -1;
    }
    rewind(file);
    struct jpeg_decompress_struct decoder;
    scaled_error error;
    handle_errors(&decoder, &error, decline_on_error, decline_on_warning);
    unsigned char *volatile output = NULL;
    // setjmp belongs in this frame, which must still be live when libjpeg jumps.
    if (setjmp(error.escape)) return abandon(&decoder, file, output);
    jpeg_create_decompress(&decoder);
    jpeg_stdio_src(&decoder, file);
    jpeg_save_markers(&decoder, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&decoder, TRUE);
    // CMYK and other unusual colour spaces, and colour profiles other than
    // sRGB's, are libvips' to convert.
    int plain = decoder.jpeg_color_space == JCS_YCbCr || decoder.jpeg_color_space == JCS_GRAYSCALE || decoder.jpeg_color_space == JCS_RGB;
    if (!plain || has_foreign_profile(&decoder)) longjmp(error.escape, 1);
    *orientation = saved_orientation(decoder.marker_list);
    // The size needed, in the stored (not yet rotated) frame.
    unsigned int needed_width = (unsigned int) (*orientation >= 5 ? upright_height : upright_width);
    unsigned int needed_height = (unsigned int) (*orientation >= 5 ? upright_width : upright_height);
    unsigned int denominator = 1;
    while (denominator < 8
           && (decoder.image_width + denominator * 2 - 1) / (denominator * 2) >= needed_width
           && (decoder.image_height + denominator * 2 - 1) / (denominator * 2) >= needed_height) denominator *= 2;
    // At an eighth, each block's pixel is its DC coefficient alone (libjpeg's
    // 1 x 1 inverse DCT): a progressive file's DC scans give the same pixels
    // as the whole file, without entropy-decoding its AC scans, which hold
    // most of its bytes and of its decoding time.
    if (denominator == 8 && decoder.progressive_mode) {
        gchar *contents = NULL;
        gsize length = 0;
        void *reduced = NULL;
        size_t reduced_length = 0;
        int result = -1;
        if (g_file_get_contents(path, &contents, &length, NULL)
            && pm_jpeg_dc_scans(contents, length, &reduced, &reduced_length) == 0) {
            result = decode_dc_scans_at_an_eighth(reduced, reduced_length, pixels, width, height);
            g_free(reduced);
        }
        g_free(contents);
        if (result == 0) {
            jpeg_destroy_decompress(&decoder);
            fclose(file);
            return 0;
        }
    }
    decoder.scale_num = 1;
    decoder.scale_denom = denominator;
    decoder.out_color_space = JCS_RGB;
    decode_rows(&decoder, 3, &output);
    return hand_over(&decoder, file, output, pixels, width, height);
}
