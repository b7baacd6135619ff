#include "CBenchVips.h"

#include <fcntl.h>
#include <libexif/exif-data.h>
#include <libgen.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <vips/vips.h>
#include <vips/vector.h>
#include <xxhash.h>

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

/// fsync of `path`, a file or a folder; 0 on success.
static int sync_path(const char *path) {
    int descriptor = open(path, O_RDONLY);
    if (descriptor < 0) return -1;
    int result = fsync(descriptor);
    close(descriptor);
    return result;
}

/// fsync of the folder holding `path`, so that the new name in it lasts.
static int sync_parent(const char *path) {
    char copy[4096];
    g_strlcpy(copy, path, sizeof copy);
    return sync_path(dirname(copy));
}

/// Copies `source` to the new file `destination`, hashing the bytes on the
/// way, and syncs the copy and its name.
static int copy_hashing(const char *source, const char *destination, char hex[33]) {
    int input = open(source, O_RDONLY);
    if (input < 0) return -1;
    int output = open(destination, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (output < 0) {
        close(input);
        return -1;
    }
    XXH3_state_t *state = XXH3_createState();
    int failed = state == NULL || XXH3_128bits_reset(state) != XXH_OK;
    static const size_t chunk = 1 << 20;
    unsigned char *buffer = g_malloc(chunk);
    ssize_t count;
    while (!failed && (count = read(input, buffer, chunk)) > 0) {
        if (XXH3_128bits_update(state, buffer, (size_t) count) != XXH_OK) failed = 1;
        for (ssize_t written = 0; !failed && written < count;) {
            ssize_t step = write(output, buffer + written, (size_t) (count - written));
            if (step <= 0) failed = 1; else written += step;
        }
    }
    if (count < 0) failed = 1;
    if (!failed) {
        XXH128_hash_t hash = XXH3_128bits_digest(state);
        g_snprintf(hex, 33, "%016llx%016llx", (unsigned long long) hash.high64, (unsigned long long) hash.low64);
    }
    if (state != NULL) XXH3_freeState(state);
    g_free(buffer);
    close(input);
    if (fsync(output) != 0) failed = 1;
    close(output);
    return failed || sync_parent(destination) != 0 ? -1 : 0;
}

/// The EXIF DateTimeOriginal of `path` into `out` (empty when it has none).
static void capture_date(const char *path, char out[20]) {
    out[0] = 0;
    ExifData *data = exif_data_new_from_file(path);
    if (data == NULL) return;
    ExifEntry *entry = exif_content_get_entry(data->ifd[EXIF_IFD_EXIF], EXIF_TAG_DATE_TIME_ORIGINAL);
    if (entry != NULL && entry->format == EXIF_FORMAT_ASCII && entry->size >= 19) {
        memcpy(out, entry->data, 19);
        out[19] = 0;
    }
    exif_data_unref(data);
}

int bench_import_photo(const char *source, const char *original, const char *thumbnail, bench_imported_photo *out) {
    if (bench_vips_init() != 0) return -1;
    if (copy_hashing(source, original, out->content_hash) != 0) return -1;
    capture_date(original, out->date_time_original);
    VipsImage *header = vips_image_new_from_file(original, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (header == NULL) return -1;
    int width = vips_image_get_width(header), height = vips_image_get_height(header);
    if (vips_image_get_orientation_swap(header)) {
        int swap = width;
        width = height;
        height = swap;
    }
    g_object_unref(header);
    out->pixel_width = width;
    out->pixel_height = height;
    // Short edge 360 (smaller photos keep their size), the long edge unbounded.
    int landscape = width >= height;
    VipsImage *small = NULL;
    if (vips_thumbnail(original, &small, landscape ? 1 << 20 : 360, "height", landscape ? 360 : 1 << 20,
                       "size", VIPS_SIZE_DOWN, NULL) != 0) return -1;
    // A thumbnail can be made again, so like the engine's it is not synced.
    int saved = vips_jpegsave(small, thumbnail, "Q", 82, "strip", TRUE, NULL);
    g_object_unref(small);
    return saved == 0 ? 0 : -1;
}
