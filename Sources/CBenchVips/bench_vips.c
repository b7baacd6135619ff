#include "CBenchVips.h"

#include <pthread.h>
#include <vips/vips.h>
#include <vips/vector.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready = -1;

static void initialise(void) {
    ready = VIPS_INIT("photos-bench");
    if (ready == 0) {
        vips_cache_set_max(0);
        // As in PhotosMedia, and for the same reason: Debian's liborc crashes
        // when threads compile vector code together. The baseline does the
        // same work as the product, so it runs the same loops.
        vips_vector_set_enabled(FALSE);
    }
}

int bench_vips_init(void) {
    pthread_once(&once, initialise);
    return ready;
}

int bench_thumbnail(const char *path, int size, int fill) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail(path, &thumbnail, size, "height", size,
                       "crop", fill ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, NULL) != 0) return -1;
    size_t length = 0;
    void *pixels = vips_image_write_to_memory(thumbnail, &length);
    g_object_unref(thumbnail);
    if (pixels == NULL) return -1;
    g_free(pixels);
    return 0;
}

int bench_write_photo(const char *path, int width, int height, int seed) {
    if (bench_vips_init() != 0) return -1;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 8);
    double scale[3] = {160.0 / width, 120.0 / width, 90.0 / width};
    double offset[3] = {40 + seed % 50, 70, 110};
    int result = -1;
    if (vips_xyz(&t[0], width, height, NULL) == 0 &&
        vips_extract_band(t[0], &t[1], 0, NULL) == 0) {
        VipsImage *bands[3] = {t[1], t[1], t[1]};
        if (vips_bandjoin(bands, &t[2], 3, NULL) == 0 &&
            vips_linear(t[2], &t[3], scale, offset, 3, NULL) == 0 &&
            vips_gaussnoise(&t[4], width, height, "sigma", 14.0, "mean", 0.0, "seed", seed, NULL) == 0 &&
            vips_add(t[3], t[4], &t[5], NULL) == 0 &&
            vips_cast(t[5], &t[6], VIPS_FORMAT_UCHAR, NULL) == 0) {
            t[6]->Type = VIPS_INTERPRETATION_sRGB;
            result = vips_jpegsave(t[6], path, "Q", 90, NULL);
        }
    }
    g_object_unref(scope);
    return result;
}
