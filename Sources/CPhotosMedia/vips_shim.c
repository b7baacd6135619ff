#include "CPhotosMedia.h"

#include <pthread.h>
#include <string.h>
#include <vips/vips.h>

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
    }
    g_object_unref(image);
    return 0;
}

int pm_verify_decodes(const char *path) {
    if (pm_init() != 0) return -1;
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail(path, &thumbnail, 64,
                       "size", VIPS_SIZE_DOWN,
                       "fail_on", VIPS_FAIL_ON_ERROR,
                       NULL) != 0) {
        return -1;
    }
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
    VipsImage *image = path != NULL
        ? vips_image_new_from_file(path, "fail_on", VIPS_FAIL_ON_ERROR, NULL)
        : vips_image_new_from_buffer(buffer, length, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) return -1;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage *rgba = NULL;
    int result = -1;
    if (to_rgba8(scope, image, &rgba) == 0) {
        size_t size = 0;
        void *memory = vips_image_write_to_memory(rgba, &size);
        if (memory != NULL) {
            *pixels = memory;
            *width = vips_image_get_width(rgba);
            *height = vips_image_get_height(rgba);
            result = 0;
        }
    }
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
