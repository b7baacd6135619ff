#include "CBenchVips.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <jpeglib.h>
#include <libexif/exif-data.h>
#include <libgen.h>
#include <pthread.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include <spawn.h>
#include <sys/wait.h>
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

/// `image` as 8-bit RGBA in memory, handed to the caller; unrefs `image`.
static int to_rgba(VipsImage *image, unsigned char **rgba, int *width, int *height) {
    VipsImage *srgb = NULL, *opaque = NULL;
    int result = -1;
    if (vips_colourspace(image, &srgb, VIPS_INTERPRETATION_sRGB, NULL) == 0) {
        VipsImage *source = srgb;
        if (vips_image_get_bands(srgb) == 3 && vips_bandjoin_const1(srgb, &opaque, 255.0, NULL) == 0) source = opaque;
        if (vips_image_get_bands(source) == 4) {
            size_t length = 0;
            *rgba = vips_image_write_to_memory(source, &length);
            *width = vips_image_get_width(source);
            *height = vips_image_get_height(source);
            result = *rgba == NULL ? -1 : 0;
        }
    }
    if (opaque) g_object_unref(opaque);
    if (srgb) g_object_unref(srgb);
    g_object_unref(image);
    return result;
}

int bench_thumbnail_rgba(const char *path, int size, unsigned char **rgba, int *width, int *height) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail(path, &thumbnail, size, "height", size, "crop", VIPS_INTERESTING_CENTRE, NULL) != 0) return -1;
    return to_rgba(thumbnail, rgba, width, height);
}

/// Writes `length` bytes to `path` through a temporary name, as the
/// engine's derivative cache does (not synced: a derivative can be made again).
static int write_file(const char *path, const void *bytes, size_t length) {
    char temporary[4096];
    g_snprintf(temporary, sizeof temporary, "%s.partial", path);
    int output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (output < 0) return -1;
    int failed = 0;
    for (size_t written = 0; !failed && written < length;) {
        ssize_t step = write(output, (const char *) bytes + written, length - written);
        if (step <= 0) failed = 1; else written += (size_t) step;
    }
    close(output);
    return failed || rename(temporary, path) != 0 ? -1 : 0;
}

int bench_thumbnail_same_work(const char *path, int short_edge, int quality, const char *derivative_path, int size,
                              unsigned char **rgba, int *width, int *height) {
    VipsImage *header = vips_image_new_from_file(path, NULL);
    if (header == NULL) return -1;
    int landscape = vips_image_get_width(header) >= vips_image_get_height(header);
    if (vips_image_get_orientation_swap(header)) landscape = !landscape;
    g_object_unref(header);
    VipsImage *derivative = NULL;
    if (vips_thumbnail(path, &derivative, landscape ? 1 << 20 : short_edge, "height", landscape ? short_edge : 1 << 20,
                       "size", VIPS_SIZE_DOWN, NULL) != 0) return -1;
    void *jpeg = NULL;
    size_t length = 0;
    int saved = vips_jpegsave_buffer(derivative, &jpeg, &length, "Q", quality, "strip", TRUE, NULL);
    g_object_unref(derivative);
    if (saved != 0) return -1;
    VipsImage *thumbnail = NULL;
    int result = write_file(derivative_path, jpeg, length) == 0
        && vips_thumbnail_buffer(jpeg, length, &thumbnail, size, "height", size, "crop", VIPS_INTERESTING_CENTRE, NULL) == 0
        ? to_rgba(thumbnail, rgba, width, height) : -1;
    g_free(jpeg);
    return result;
}

/// libjpeg's errors end the decode through this jump rather than exit().
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
} floor_error;

static void floor_error_exit(j_common_ptr decoder) {
    longjmp(((floor_error *) decoder->err)->jump, 1);
}

int bench_decode_floor(const char *path, int size) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return -1;
    struct jpeg_decompress_struct decoder;
    floor_error error;
    decoder.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = floor_error_exit;
    JSAMPARRAY row = NULL;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&decoder);
        fclose(file);
        return -1;
    }
    jpeg_create_decompress(&decoder);
    jpeg_stdio_src(&decoder, file);
    jpeg_read_header(&decoder, TRUE);
    unsigned int shorter = decoder.image_width < decoder.image_height ? decoder.image_width : decoder.image_height;
    decoder.scale_num = 1;
    decoder.scale_denom = 1;
    while (decoder.scale_denom < 8 && shorter / (decoder.scale_denom * 2) >= (unsigned int) size) decoder.scale_denom *= 2;
    jpeg_start_decompress(&decoder);
    row = (*decoder.mem->alloc_sarray)((j_common_ptr) &decoder, JPOOL_IMAGE,
                                       decoder.output_width * (JDIMENSION) decoder.output_components, 1);
    while (decoder.output_scanline < decoder.output_height) jpeg_read_scanlines(&decoder, row, 1);
    jpeg_finish_decompress(&decoder);
    jpeg_destroy_decompress(&decoder);
    fclose(file);
    return 0;
}

void bench_free(void *pointer) {
    g_free(pointer);
}

int bench_write_photo(const char *path, int width, int height, int seed, int progressive) {
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
            result = vips_jpegsave(t[6], path, "Q", 90, "interlace", progressive ? TRUE : FALSE, NULL);
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

/// The size of `original` upright into `out`, and its 360-px short-edge
/// thumbnail (Q 82) written to `thumbnail`; in sRGB when `srgb`.
static int size_and_thumbnail(const char *original, const char *thumbnail, int srgb, bench_imported_photo *out) {
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
    int made = srgb ? vips_thumbnail(original, &small, landscape ? 1 << 20 : 360, "height", landscape ? 360 : 1 << 20,
                                     "size", VIPS_SIZE_DOWN, "export_profile", "srgb", NULL)
                    : vips_thumbnail(original, &small, landscape ? 1 << 20 : 360, "height", landscape ? 360 : 1 << 20,
                                     "size", VIPS_SIZE_DOWN, NULL);
    if (made != 0) return -1;
    // A thumbnail can be made again, so like the engine's it is not synced.
    int saved = vips_jpegsave(small, thumbnail, "Q", 82, "strip", TRUE, NULL);
    g_object_unref(small);
    return saved == 0 ? 0 : -1;
}

int bench_import_photo(const char *source, const char *original, const char *thumbnail, bench_imported_photo *out) {
    if (bench_vips_init() != 0) return -1;
    if (copy_hashing(source, original, out->content_hash) != 0) return -1;
    capture_date(original, out->date_time_original);
    return size_and_thumbnail(original, thumbnail, 0, out);
}

int bench_import_still(const char *source, const char *original, const char *thumbnail, bench_imported_photo *out) {
    if (bench_vips_init() != 0) return -1;
    out->date_time_original[0] = 0;
    if (copy_hashing(source, original, out->content_hash) != 0) return -1;
    return size_and_thumbnail(original, thumbnail, 1, out);
}

int bench_copy_hashing(const char *source, const char *destination, char hex[33]) {
    return copy_hashing(source, destination, hex);
}

extern char **environ;

int bench_run(const char *path, char *const argv[]) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    pid_t child;
    int started = posix_spawn(&child, path, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0) return -1;
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
