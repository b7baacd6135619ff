#include "CPhotosMedia.h"
#include "jpeg_scaled.h"
#include "nclx.h"
#include "resample.h"

#include <glib/gstdio.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>
#include <vips/vector.h>
#include <xxhash.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = -1;

// libvips reports failures through its error buffer, which callers read;
// its warnings would only be noise on the terminal of a CLI.
static void drop_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) message; (void) data;
}

static void initialise(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, drop_message, NULL);
    if (VIPS_INIT("photos") != 0) {
        init_result = -1;
        return;
    }
    vips_cache_set_max(0);
    // Run-time compiled vector code (liborc) stays off: Debian's liborc 0.4.33
    // corrupts its code memory when threads compile and free programs at once,
    // which every concurrent resize does with the operation cache off, and a
    // server making thumbnails for many clients crashed in it. libvips falls
    // back to its plain C loops, which give the same pixels.
    vips_vector_set_enabled(FALSE);
    vips_leak_set(FALSE);
    init_result = 0;
}

int pm_init(void) {
    pthread_once(&init_once, initialise);
    return init_result;
}

char *pm_copy_error(void) {
    return vips_error_buffer_copy();
}

void pm_free(void *pointer) {
    g_free(pointer);
}

// ---------------------------------------------------------------- limits

// Whether the loader must hold the whole image in memory to decode it,
// and how many bytes a pixel then takes.
static double whole_decode_bytes_per_pixel(VipsImage *image) {
    const char *loader = NULL;
    if (!vips_image_get_typeof(image, VIPS_META_LOADER) ||
        vips_image_get_string(image, VIPS_META_LOADER, &loader) != 0 || loader == NULL) return 0;
    int interlaced = 0, multiscan = 0;
    if (vips_image_get_typeof(image, "interlaced")) vips_image_get_int(image, "interlaced", &interlaced);
    if (vips_image_get_typeof(image, "jpeg-multiscan")) vips_image_get_int(image, "jpeg-multiscan", &multiscan);
    double sample = (double) vips_format_sizeof(vips_image_get_format(image)) * vips_image_get_bands(image);
    if (g_str_has_prefix(loader, "heif") || g_str_has_prefix(loader, "webp") || g_str_has_prefix(loader, "gif")) return sample;
    if (g_str_has_prefix(loader, "png") && interlaced) return sample;
    // A progressive JPEG keeps every DCT coefficient, two bytes each, until its last scan.
    if (g_str_has_prefix(loader, "jpeg") && multiscan) return 2.0 * vips_image_get_bands(image);
    return 0;
}

// 0 when the image whose header this is may be decoded; else -1, with why
// in libvips' error buffer.
static int check_limits(VipsImage *image) {
    double width = vips_image_get_width(image), height = vips_image_get_height(image);
    double megapixels = width * height / 1e6;
    if (megapixels > PM_MAXIMUM_MEGAPIXELS) {
        vips_error("photos", "the image claims %.0f × %.0f pixels, over the %d-megapixel limit",
                   width, height, PM_MAXIMUM_MEGAPIXELS);
        return -1;
    }
    double bytes = width * height * whole_decode_bytes_per_pixel(image);
    if (bytes > PM_DECODE_BUDGET_BYTES) {
        vips_error("photos", "decoding this %.0f × %.0f image whole would take %.0f MB of memory, over the %.0f MB limit",
                   width, height, bytes / 1e6, PM_DECODE_BUDGET_BYTES / 1e6);
        return -1;
    }
    return 0;
}

// Checks the limits from the file's (or buffer's) header, before any pixel is read.
static int check_source(const char *path, const void *buffer, size_t length) {
    VipsImage *image = path != NULL ? vips_image_new_from_file(path, NULL)
                                    : vips_image_new_from_buffer(buffer, length, "", NULL);
    if (image == NULL) return -1;
    int result = check_limits(image);
    g_object_unref(image);
    return result;
}

// Stops an evaluation that has run longer than PM_DECODE_SECONDS.
static void stop_when_too_long(VipsImage *image, VipsProgress *progress, void *data) {
    (void) data;
    if (progress->run >= PM_DECODE_SECONDS && !vips_image_iskilled(image)) {
        vips_error("photos", "decoding took longer than %d seconds and was stopped", PM_DECODE_SECONDS);
        vips_image_set_kill(image, TRUE);
    }
}

// Puts the time limit on the evaluation of `image`, the image a call writes out.
static void limit_time(VipsImage *image) {
    vips_image_set_progress(image, TRUE);
    g_signal_connect(image, "eval", G_CALLBACK(stop_when_too_long), NULL);
}

// Computes `image` into memory, under the time limit, and hands its pixels
// over (freed with pm_free) with its size. Returns 0, or -1.
static int write_pixels(VipsImage *image, unsigned char **pixels, int *width, int *height) {
    limit_time(image);
    size_t size = 0;
    void *memory = vips_image_write_to_memory(image, &size);
    if (memory == NULL) return -1;
    *pixels = memory;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    return 0;
}

// The largest TIFF whose EXIF is read (the whole file is read for it).
#define PM_TIFF_EXIF_MAXIMUM_BYTES (64 << 20)

int pm_probe_file(const char *path, pm_image_header *header,
                  void **exif, size_t *exif_length) {
    if (pm_init() != 0) return -1;
    *exif = NULL;
    *exif_length = 0;
    VipsImage *image = vips_image_new_from_file(path, NULL);
    if (image == NULL) return -1;

    memset(header, 0, sizeof(*header));
    header->width = vips_image_get_width(image);
    header->height = vips_image_get_height(image);
    header->bands = vips_image_get_bands(image);
    header->orientation = vips_image_get_orientation(image);
    header->pages = vips_image_get_n_pages(image);
    header->has_alpha = vips_image_hasalpha(image);

    const char *loader = NULL;
    if (vips_image_get_typeof(image, VIPS_META_LOADER) &&
        vips_image_get_string(image, VIPS_META_LOADER, &loader) == 0 && loader != NULL) {
        g_strlcpy(header->loader, loader, sizeof(header->loader));
    }

    if (vips_image_get_typeof(image, VIPS_META_EXIF_NAME)) {
        const void *data = NULL;
        size_t length = 0;
        if (vips_image_get_blob(image, VIPS_META_EXIF_NAME, &data, &length) == 0 && length > 0) {
            *exif = g_memdup2(data, length);
            *exif_length = length;
        }
    } else if (g_str_has_prefix(header->loader, "jxlload")) {
        pm_jxl_exif(path, exif, exif_length);
    } else if (g_str_has_prefix(header->loader, "tiffload")) {
        // libvips 8.14 gives no EXIF for a TIFF, whose whole file is the
        // TIFF structure EXIF is: the file is the block (the EXIF reader
        // adds its header), up to a size worth reading whole for it.
        gchar *contents = NULL;
        gsize length = 0;
        GStatBuf status;
        if (g_stat(path, &status) == 0 && status.st_size <= PM_TIFF_EXIF_MAXIMUM_BYTES &&
            g_file_get_contents(path, &contents, &length, NULL)) {
            *exif = contents;
            *exif_length = length;
        }
    }
    g_object_unref(image);
    return 0;
}

int pm_verify_decodes(const char *path) {
    if (pm_init() != 0) return -1;
    if (check_source(path, NULL, 0) != 0) return -1;
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail(path, &thumbnail, 64,
                       "size", VIPS_SIZE_DOWN,
                       "fail_on", VIPS_FAIL_ON_ERROR,
                       NULL) != 0) {
        return -1;
    }
    limit_time(thumbnail);
    double mean = 0;
    int result = vips_avg(thumbnail, &mean, NULL);
    g_object_unref(thumbnail);
    return result;
}

// Converts any decoded image to 8-bit sRGB with an alpha band.
static int to_rgba8(VipsObject *scope, VipsImage *in, VipsImage **out) {
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 4);
    if (vips_autorot(in, &t[0], NULL) != 0) return -1;
    if (vips_colourspace(t[0], &t[1], VIPS_INTERPRETATION_sRGB, NULL) != 0) return -1;
    if (vips_cast(t[1], &t[2], VIPS_FORMAT_UCHAR, NULL) != 0) return -1;
    if (vips_image_hasalpha(t[2])) {
        t[3] = t[2];
        g_object_ref(t[3]);
    } else if (vips_addalpha(t[2], &t[3], NULL) != 0) {
        return -1;
    }
    *out = t[3];
    return 0;
}

int pm_decode_rgba(const char *path, const void *buffer, size_t length,
                   unsigned char **pixels, int *width, int *height) {
    if (pm_init() != 0) return -1;
    if (check_source(path, buffer, length) != 0) return -1;
    VipsImage *image = path != NULL
        ? vips_image_new_from_file(path, "fail_on", VIPS_FAIL_ON_ERROR, NULL)
        : vips_image_new_from_buffer(buffer, length, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) return -1;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage *rgba = NULL;
    int result = -1;
    if (to_rgba8(scope, image, &rgba) == 0) result = write_pixels(rgba, pixels, width, height);
    g_object_unref(scope);
    g_object_unref(image);
    return result;
}

static int save_with_exif(VipsImage *image, const char *suffix,
                          const void *exif, size_t exif_length,
                          void **output, size_t *output_length) {
    if (exif != NULL && exif_length > 0) {
        vips_image_set_blob_copy(image, VIPS_META_EXIF_NAME, exif, exif_length);
    }
    return vips_image_write_to_buffer(image, suffix, output, output_length, NULL);
}

int pm_encode(const unsigned char *pixels, int width, int height, int bands,
              const char *suffix, const void *exif, size_t exif_length,
              void **output, size_t *output_length) {
    if (pm_init() != 0) return -1;
    VipsImage *image = vips_image_new_from_memory_copy(
        pixels, (size_t) width * height * bands, width, height, bands, VIPS_FORMAT_UCHAR);
    if (image == NULL) return -1;
    image->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 1);
    int result = -1;
    // JPEG has no alpha: flatten onto white rather than letting the encoder drop it.
    int wants_flatten = (bands == 4 || bands == 2) &&
        (g_str_has_prefix(suffix, ".jpg") || g_str_has_prefix(suffix, ".jpeg"));
    if (wants_flatten) {
        double white[1] = {255};
        VipsArrayDouble *background = vips_array_double_new(white, 1);
        result = vips_flatten(image, &t[0], "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        if (result == 0) result = save_with_exif(t[0], suffix, exif, exif_length, output, output_length);
    } else {
        result = save_with_exif(image, suffix, exif, exif_length, output, output_length);
    }
    g_object_unref(scope);
    g_object_unref(image);
    return result;
}

int pm_render_gradient_jpeg(int width, int height,
                            const double from[3], const double to[3],
                            const void *exif, size_t exif_length, int quality,
                            void **output, size_t *output_length) {
    if (pm_init() != 0) return -1;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 9);
    double scale[3], offset[3];
    for (int band = 0; band < 3; band++) {
        scale[band] = to[band] - from[band];
        offset[band] = from[band];
    }
    int result = -1;
    // position = (x / width + y / height) / 2, then colour = from + (to - from) * position
    if (vips_xyz(&t[0], width, height, NULL) == 0 &&
        vips_extract_band(t[0], &t[1], 0, NULL) == 0 &&
        vips_extract_band(t[0], &t[2], 1, NULL) == 0 &&
        vips_linear1(t[1], &t[3], 0.5 / width, 0, NULL) == 0 &&
        vips_linear1(t[2], &t[4], 0.5 / height, 0, NULL) == 0 &&
        vips_add(t[3], t[4], &t[5], NULL) == 0) {
        VipsImage *position[3] = {t[5], t[5], t[5]};
        if (vips_bandjoin(position, &t[6], 3, NULL) == 0 &&
            vips_linear(t[6], &t[7], scale, offset, 3, NULL) == 0 &&
            vips_cast(t[7], &t[8], VIPS_FORMAT_UCHAR, NULL) == 0) {
            t[8]->Type = VIPS_INTERPRETATION_sRGB;
            char suffix[32];
            g_snprintf(suffix, sizeof(suffix), ".jpg[Q=%d]", quality);
            result = save_with_exif(t[8], suffix, exif, exif_length, output, output_length);
        }
    }
    g_object_unref(scope);
    return result;
}

// ---------------------------------------------------------------- rendering

// The upright size of an image file or buffer, from its header.
static int upright_size(const char *path, const void *buffer, size_t length, int *width, int *height) {
    VipsImage *image = path != NULL ? vips_image_new_from_file(path, NULL)
                                    : vips_image_new_from_buffer(buffer, length, "", NULL);
    if (image == NULL) return -1;
    int orientation = vips_image_get_orientation(image);
    int swaps = orientation >= 5 && orientation <= 8;
    *width = swaps ? vips_image_get_height(image) : vips_image_get_width(image);
    *height = swaps ? vips_image_get_width(image) : vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

// The image in sRGB: converted from the colour profile it embeds when that
// is an RGB one of other primaries (Display P3, Adobe RGB, ProPhoto...),
// else as it is (no profile means sRGB; libvips' own sRGB-to-sRGB
// transform would shift the colours). Takes over `in`. A profile libvips
// cannot use leaves the pixels as stored, which is what a viewer does.
static void convert_to_srgb(VipsImage *in, VipsImage **out) {
    const void *profile = NULL;
    size_t length = 0;
    *out = in;
    if (vips_image_get_typeof(in, VIPS_META_ICC_NAME) == 0
        || vips_image_get_blob(in, VIPS_META_ICC_NAME, &profile, &length) != 0
        || length < 20 || memcmp((const char *) profile + 16, "RGB ", 4) != 0
        || pm_icc_is_srgb_like(profile, length)) return;
    VipsImage *converted = NULL;
    if (vips_icc_transform(in, &converted, "srgb", "embedded", TRUE, NULL) != 0) {
        vips_error_clear();
        return;
    }
    g_object_unref(in);
    *out = converted;
}

// vips_thumbnail on a file or a buffer: shrink-on-load, orientation applied,
// fitting inside width x height, in sRGB (`pm_nclx_to_srgb` for HEIF and
// AVIF colour given as nclx, `convert_to_srgb` for an ICC profile): every
// rendition is sRGB, stored without a profile.
static int thumbnail(const char *path, const void *buffer, size_t length, VipsImage **out,
                     int width, int height, VipsSize size, VipsInteresting crop) {
    VipsImage *shrunk = NULL;
    int result = path != NULL
        ? vips_thumbnail(path, &shrunk, width, "height", height, "size", size, "crop", crop,
                         "fail_on", VIPS_FAIL_ON_ERROR, NULL)
        : vips_thumbnail_buffer((void *) buffer, length, &shrunk, width, "height", height, "size", size,
                                "crop", crop, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (result != 0) return result;
    VipsImage *described = NULL;
    if (pm_nclx_to_srgb(path, buffer, length, shrunk, &described) != 0) {
        g_object_unref(shrunk);
        return -1;
    }
    convert_to_srgb(described, out);
    return 0;
}

static int ceil_positive(double value) {
    int rounded = (int) value;
    if (rounded < value) rounded++;
    return rounded < 1 ? 1 : rounded;
}

// Renders into `*out` (a reference the caller releases with `scope`).
static int render_image(VipsObject *scope, const char *path, const void *buffer, size_t length,
                        const pm_render_spec *spec, VipsImage **out) {
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 4);
    int source_width = spec->source_width, source_height = spec->source_height;
    if ((source_width <= 0 || source_height <= 0) &&
        upright_size(path, buffer, length, &source_width, &source_height) != 0) return -1;
    int target_width = spec->target_width, target_height = spec->target_height;
    if (target_width <= 0 || target_height <= 0) {
        target_width = source_width;
        target_height = source_height;
    }

    if (spec->crop_width > 0 && spec->crop_height > 0) {
        // Decode just large enough that the crop can be scaled down to the target.
        double crop_width = spec->crop_width * source_width, crop_height = spec->crop_height * source_height;
        double scale = fmax((double) target_width / crop_width, (double) target_height / crop_height);
        if (scale > 1) scale = 1;
        if (thumbnail(path, buffer, length, &t[0], ceil_positive(source_width * scale),
                      ceil_positive(source_height * scale), VIPS_SIZE_DOWN, VIPS_INTERESTING_NONE) != 0) return -1;
        int width = vips_image_get_width(t[0]), height = vips_image_get_height(t[0]);
        int left = (int) (spec->crop_x * width), top = (int) (spec->crop_y * height);
        int area_width = ceil_positive(spec->crop_width * width), area_height = ceil_positive(spec->crop_height * height);
        if (left < 0) left = 0;
        if (top < 0) top = 0;
        if (left >= width) left = width - 1;
        if (top >= height) top = height - 1;
        if (left + area_width > width) area_width = width - left;
        if (top + area_height > height) area_height = height - top;
        if (vips_extract_area(t[0], &t[1], left, top, area_width, area_height, NULL) != 0) return -1;
        if (vips_thumbnail_image(t[1], &t[2], target_width, "height", target_height, "size", VIPS_SIZE_BOTH,
                                 "crop", spec->fill ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, NULL) != 0) return -1;
        *out = t[2];
        return 0;
    }
    if (spec->exact) {
        if (thumbnail(path, buffer, length, &t[0], target_width, target_height, VIPS_SIZE_BOTH,
                      spec->fill ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE) != 0) return -1;
        *out = t[0];
        return 0;
    }
    // The size that covers the target (fill) or fits in it (fit), never larger than the source.
    double scale = spec->fill
        ? fmax((double) target_width / source_width, (double) target_height / source_height)
        : fmin((double) target_width / source_width, (double) target_height / source_height);
    if (scale > 1) scale = 1;
    if (thumbnail(path, buffer, length, &t[0], ceil_positive(source_width * scale), ceil_positive(source_height * scale),
                  VIPS_SIZE_DOWN, VIPS_INTERESTING_NONE) != 0) return -1;
    *out = t[0];
    return 0;
}

static void free_pixels(VipsImage *image, void *pixels) {
    (void) image;
    g_free(pixels);
}

int pm_render_derivative(const char *path, const void *buffer, size_t length, int target_width, int target_height,
                         int fill, unsigned char **pixels, int *width, int *height) {
    if (pm_init() != 0) return -1;
    if (target_width < 1 || target_height < 1) {
        vips_error("photos", "a render needs a target of at least 1 x 1");
        return -1;
    }
    unsigned char *decoded = NULL;
    int decoded_width = 0, decoded_height = 0, source_width = 0, source_height = 0;
    if (pm_jpeg_decode_covering(path, buffer, length, target_width, target_height, fill,
                                &decoded, &decoded_width, &decoded_height, &source_width, &source_height) != 0) return -1;
    // The size the whole image is scaled to, as vips_thumbnail computes it
    // from the JPEG's own size (not the decoded one, rounded up from n/8),
    // so that the centre it crops is the same: covering the target (fill)
    // or inside it (fit), each edge rounded to the nearest pixel.
    double horizontal = (double) target_width / source_width, vertical = (double) target_height / source_height;
    double scale = fill ? fmax(horizontal, vertical) : fmin(horizontal, vertical);
    int scaled_width = (int) lround(source_width * scale), scaled_height = (int) lround(source_height * scale);
    if (scaled_width < 1) scaled_width = 1;
    if (scaled_height < 1) scaled_height = 1;
    if (fill) {
        scaled_width = MAX(scaled_width, target_width);
        scaled_height = MAX(scaled_height, target_height);
    }
    // Resampled and cropped here, without a libvips pipeline: for an image
    // this small, its tiles and threads cost more than the arithmetic.
    unsigned char *scaled = decoded;
    if (scaled_width != decoded_width || scaled_height != decoded_height) {
        scaled = g_try_malloc((size_t) scaled_width * scaled_height * 4);
        if (scaled == NULL || pm_resample(decoded, decoded_width, decoded_height, 4, scaled, scaled_width, scaled_height) != 0) {
            g_free(scaled);
            g_free(decoded);
            vips_error("photos", "out of memory resampling a %d x %d image", decoded_width, decoded_height);
            return -1;
        }
        g_free(decoded);
    }
    int out_width = fill ? target_width : scaled_width, out_height = fill ? target_height : scaled_height;
    if (out_width != scaled_width || out_height != scaled_height) {
        unsigned char *cropped = g_try_malloc((size_t) out_width * out_height * 4);
        if (cropped == NULL) {
            g_free(scaled);
            vips_error("photos", "out of memory cropping a %d x %d image", scaled_width, scaled_height);
            return -1;
        }
        int left = (scaled_width - out_width) / 2, top = (scaled_height - out_height) / 2;
        for (int y = 0; y < out_height; y++) {
            memcpy(cropped + (size_t) y * out_width * 4, scaled + ((size_t) (top + y) * scaled_width + left) * 4, (size_t) out_width * 4);
        }
        g_free(scaled);
        scaled = cropped;
    }
    *pixels = scaled;
    *width = out_width;
    *height = out_height;
    return 0;
}

int pm_render(const char *path, const void *buffer, size_t length, const pm_render_spec *spec,
              unsigned char **pixels, int *width, int *height) {
    if (pm_init() != 0) return -1;
    if (check_source(path, buffer, length) != 0) return -1;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage *rendered = NULL, *rgba = NULL;
    int result = -1;
    if (render_image(scope, path, buffer, length, spec, &rendered) == 0 && to_rgba8(scope, rendered, &rgba) == 0) {
        result = write_pixels(rgba, pixels, width, height);
    }
    g_object_unref(scope);
    return result;
}

// An 8-bit sRGB image held in memory, reduced to fit 100 x 100 (never
// enlarged) by averaging the box of pixels under each output pixel, as
// opaque RGBA: a ThumbHash's input, made without another libvips pipeline.
// Returns memory for pm_free, or NULL.
static unsigned char *placeholder_pixels(VipsImage *image, int *out_width, int *out_height) {
    int width = vips_image_get_width(image), height = vips_image_get_height(image);
    int bands = vips_image_get_bands(image);
    if (vips_image_get_format(image) != VIPS_FORMAT_UCHAR || bands < 3 || width < 1 || height < 1) return NULL;
    int longest = width > height ? width : height;
    int w = width, h = height;
    if (longest > 100) {
        w = (int) lround((double) width * 100 / longest);
        h = (int) lround((double) height * 100 / longest);
        if (w < 1) w = 1;
        if (h < 1) h = 1;
    }
    unsigned char *out = g_malloc((size_t) w * h * 4);
    for (int y = 0; y < h; y++) {
        int top = (int) ((long) y * height / h), bottom = (int) ((long) (y + 1) * height / h);
        if (bottom <= top) bottom = top + 1;
        for (int x = 0; x < w; x++) {
            int left = (int) ((long) x * width / w), right = (int) ((long) (x + 1) * width / w);
            if (right <= left) right = left + 1;
            unsigned long sum[3] = {0, 0, 0};
            for (int row = top; row < bottom; row++) {
                const unsigned char *pixel = VIPS_IMAGE_ADDR(image, left, row);
                for (int column = left; column < right; column++, pixel += bands) {
                    sum[0] += pixel[0];
                    sum[1] += pixel[1];
                    sum[2] += pixel[2];
                }
            }
            unsigned long count = (unsigned long) (bottom - top) * (unsigned long) (right - left);
            unsigned char *target = out + ((size_t) y * w + x) * 4;
            for (int band = 0; band < 3; band++) target[band] = (unsigned char) ((sum[band] + count / 2) / count);
            target[3] = 255;
        }
    }
    *out_width = w;
    *out_height = h;
    return out;
}

// A plain JPEG original decoded by libjpeg at scale, turned upright and
// resized to exactly `box_width` x `box_height`, as `vips_thumbnail` would
// make it; -1, with no error left, when the file is not for this path.
static int scaled_original(const char *path, int box_width, int box_height, VipsImage **out) {
    unsigned char *pixels = NULL;
    int width = 0, height = 0, orientation = 1;
    if (pm_jpeg_decode_original(path, box_width, box_height, &pixels, &width, &height, &orientation) != 0) return -1;
    // Resampled to the box in the stored frame (turned, for an orientation
    // that swaps the edges), then turned upright: see pm_resample for why
    // not by libvips.
    int stored_width = orientation >= 5 ? box_height : box_width, stored_height = orientation >= 5 ? box_width : box_height;
    if (width != stored_width || height != stored_height) {
        unsigned char *resampled = g_try_malloc((size_t) stored_width * stored_height * 3);
        int failed = resampled == NULL || pm_resample(pixels, width, height, 3, resampled, stored_width, stored_height) != 0;
        g_free(pixels);
        if (failed) {
            g_free(resampled);
            return -1;
        }
        pixels = resampled;
        width = stored_width;
        height = stored_height;
    }
    VipsImage *stored = vips_image_new_from_memory(pixels, (size_t) width * height * 3, width, height, 3, VIPS_FORMAT_UCHAR);
    if (stored == NULL) {
        g_free(pixels);
        vips_error_clear();
        return -1;
    }
    g_signal_connect(stored, "postclose", G_CALLBACK(free_pixels), pixels);
    stored->Type = VIPS_INTERPRETATION_sRGB;
    vips_image_set_int(stored, VIPS_META_ORIENTATION, orientation);
    VipsImage *upright = NULL;
    int turned = vips_autorot(stored, &upright, NULL);
    g_object_unref(stored);
    if (turned != 0) {
        vips_error_clear();
        return -1;
    }
    int result = vips_copy(upright, out, NULL);
    g_object_unref(upright);
    if (result != 0) vips_error_clear();
    return result;
}

int pm_make_derivative(const char *path, int source_width, int source_height, int short_edge, int quality,
                       void **jpeg, size_t *jpeg_length, int *width, int *height,
                       unsigned char **placeholder, int *placeholder_width, int *placeholder_height) {
    if (pm_init() != 0) return -1;
    if (check_source(path, NULL, 0) != 0) return -1;
    if ((source_width <= 0 || source_height <= 0) &&
        upright_size(path, NULL, 0, &source_width, &source_height) != 0) return -1;
    int shortest = source_width < source_height ? source_width : source_height;
    double scale = shortest > short_edge ? (double) short_edge / shortest : 1;
    VipsImage *image = NULL;
    int box_width = ceil_positive(source_width * scale), box_height = ceil_positive(source_height * scale);
    if (scaled_original(path, box_width, box_height, &image) != 0 &&
        thumbnail(path, NULL, 0, &image, box_width, box_height, VIPS_SIZE_DOWN, VIPS_INTERESTING_NONE) != 0) return -1;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 4);
    int result = -1;
    // JPEG holds no alpha: flatten onto white first, as a viewer would show it.
    VipsImage *opaque = image;
    if (vips_image_hasalpha(image)) {
        double white[1] = {255};
        VipsArrayDouble *background = vips_array_double_new(white, 1);
        int flattened = vips_flatten(image, &t[0], "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        opaque = flattened == 0 ? t[0] : NULL;
    }
    if (opaque != NULL && vips_colourspace(opaque, &t[1], VIPS_INTERPRETATION_sRGB, NULL) == 0) {
        VipsImage *scaled = t[1];
        // With a placeholder too, the scaled image is computed once, as
        // 8-bit values in memory, and both are made from it.
        if (placeholder != NULL) {
            if (vips_image_get_format(scaled) != VIPS_FORMAT_UCHAR) {
                scaled = vips_cast(scaled, &t[2], VIPS_FORMAT_UCHAR, NULL) == 0 ? t[2] : NULL;
            }
            if (scaled != NULL) {
                limit_time(scaled);
                t[3] = vips_image_copy_memory(scaled);
                scaled = t[3];
            }
        }
        if (scaled != NULL && (limit_time(scaled), vips_jpegsave_buffer(scaled, jpeg, jpeg_length, "Q", quality, "strip", TRUE, NULL)) == 0) {
            *width = vips_image_get_width(scaled);
            *height = vips_image_get_height(scaled);
            result = 0;
        }
        if (result == 0 && placeholder != NULL &&
            (*placeholder = placeholder_pixels(scaled, placeholder_width, placeholder_height)) == NULL) {
            g_free(*jpeg);
            *jpeg = NULL;
            result = -1;
        }
    }
    g_object_unref(scope);
    g_object_unref(image);
    return result;
}

// ---------------------------------------------------------------- hashing

int pm_hash_file(const char *path, char hex[33]) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return -1;
    XXH3_state_t *state = XXH3_createState();
    if (state == NULL || XXH3_128bits_reset(state) != XXH_OK) {
        if (state != NULL) XXH3_freeState(state);
        fclose(file);
        return -1;
    }
    static const size_t chunk = 1 << 20;
    unsigned char *buffer = g_malloc(chunk);
    size_t read;
    int failed = 0;
    while ((read = fread(buffer, 1, chunk, file)) > 0) {
        if (XXH3_128bits_update(state, buffer, read) != XXH_OK) { failed = 1; break; }
    }
    if (ferror(file)) failed = 1;
    XXH128_hash_t hash = XXH3_128bits_digest(state);
    XXH3_freeState(state);
    g_free(buffer);
    fclose(file);
    if (failed) return -1;
    g_snprintf(hex, 33, "%016llx%016llx", (unsigned long long) hash.high64, (unsigned long long) hash.low64);
    return 0;
}
