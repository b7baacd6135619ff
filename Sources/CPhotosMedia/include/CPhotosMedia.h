// The C side of PhotosMedia: the libvips calls Swift cannot make (they are
// variadic) and EXIF parsing and writing with libexif. Every function is
// thread safe once pm_init() has returned.
#ifndef CPHOTOSMEDIA_H
#define CPHOTOSMEDIA_H

#include <stddef.h>
#include <stdint.h>

/// The limits every decode keeps to; an image beyond them is refused
/// before its pixels are read, or its decode is stopped, with an error.
/// The largest image, in megapixels: above the largest camera sensors.
#define PM_MAXIMUM_MEGAPIXELS 250
/// The most memory a decode that must hold the whole image may take (an
/// interlaced PNG, a progressive JPEG's coefficients, HEIF, WebP, GIF).
#define PM_DECODE_BUDGET_BYTES (512.0 * 1024 * 1024)
/// The longest a decode may run, in seconds.
#define PM_DECODE_SECONDS 30

/// Initialises libvips exactly once per process (concurrent first calls to
/// vips_init abort, so this goes through pthread_once) and turns the
/// operation cache off: a file replaced in place would otherwise be served
/// from the cache. Returns 0 on success.
int pm_init(void);

/// The current libvips error text, copied (free with pm_free), and clears it.
char *pm_copy_error(void);

/// Frees memory returned by this library.
void pm_free(void *pointer);

/// What a file's header says, without decoding its pixels.
typedef struct {
    int width;          // as stored, before any orientation is applied
    int height;
    int bands;
    int orientation;    // EXIF orientation 1...8 (1 when absent)
    int pages;          // frames of an animated image, 1 otherwise
    int has_alpha;
    char loader[32];    // the libvips loader, e.g. "jpegload", "heifload"
} pm_image_header;

/// The EXIF block of the JPEG XL file at `path` (its "Exif" box, or a
/// Brotli-compressed "brob" one, decompressed), to free with pm_free;
/// 0 when found, -1 otherwise. Bounded: 4,096 boxes, a 16 MiB box, 4 MiB of EXIF.
int pm_jxl_exif(const char *path, void **exif, size_t *exif_length);

/// Reads the header of the image file at `path`. On success, `*exif` holds
/// a copy of the raw EXIF block (free with pm_free) or NULL when the file
/// has none. Returns 0 on success, -1 when libvips cannot read the file.
int pm_probe_file(const char *path, pm_image_header *header,
                  void **exif, size_t *exif_length);

/// Decodes a small shrink-on-load rendition of the file, failing on any
/// decode error (a truncated or corrupt file). Returns 0 when it decodes.
int pm_verify_decodes(const char *path);

/// Decodes an image file (path != NULL) or an encoded buffer into 8-bit
/// RGBA pixels, with the EXIF orientation applied. `*pixels` is freed with
/// pm_free. Returns 0 on success.
int pm_decode_rgba(const char *path, const void *buffer, size_t length,
                   unsigned char **pixels, int *width, int *height);

/// Decodes a JPEG the library wrote itself (upright, no EXIF), from its file
/// (path != NULL) or from memory, into 8-bit RGBA at the smallest n/8 scale
/// that still covers the target (fill) or fits around it (fit): no
/// resampling beyond libjpeg's DCT scaling, so the result may be up to an
/// eighth larger than needed. `*pixels` is freed with pm_free. Returns 0 on
/// success; the error is left in libvips' error buffer.
int pm_decode_jpeg_covering(const char *path, const void *buffer, size_t length, int target_width, int target_height,
                            int fill, unsigned char **pixels, int *width, int *height);

/// The DC scans of a progressive JPEG, with every marker before and between
/// them: what a decode at an eighth of its size reads, where each block is
/// its DC coefficient alone, so that it gives the whole file's pixels without
/// its AC scans. `*reduced` is freed with pm_free. Returns 0, or -1 when the
/// stream is not a JPEG whose segments and scans parse, or has no DC scan.
/// Cost: one pass over the bytes, mostly memchr.
int pm_jpeg_dc_scans(const void *jpeg, size_t length, void **reduced, size_t *reduced_length);

/// Renders a JPEG the library wrote itself (upright, no EXIF), from its file
/// (path != NULL) or from memory, to exactly the target (fill: covered, then
/// the centre cropped) or the largest size that fits in it (fit), as 8-bit
/// RGBA: decoded by libjpeg at the smallest DCT scale covering that size,
/// then resized by libvips from memory. About a third of a libvips pipeline
/// that loads the JPEG itself (a 480 x 360 thumbnail to 256 x 256: about
/// 3 ms against 10). `*pixels` is freed with pm_free. Returns 0 on success;
/// the error is left in libvips' error buffer.
int pm_render_derivative(const char *path, const void *buffer, size_t length, int target_width, int target_height,
                         int fill, unsigned char **pixels, int *width, int *height);

/// Encodes 8-bit pixels (3 or 4 bands) to a format named by a libvips
/// suffix (".jpg[Q=90]", ".png"...), with an optional EXIF block.
int pm_encode(const unsigned char *pixels, int width, int height, int bands,
              const char *suffix, const void *exif, size_t exif_length,
              void **output, size_t *output_length);

/// Renders a diagonal gradient from `from` to `to` (RGB, 0...255) into a
/// JPEG, with an optional EXIF block. Used to make sample libraries.
int pm_render_gradient_jpeg(int width, int height,
                            const double from[3], const double to[3],
                            const void *exif, size_t exif_length, int quality,
                            void **output, size_t *output_length);

/// The EXIF fields the library reads and writes. Strings are
/// NUL-terminated and empty when absent.
typedef struct {
    char date_time_original[24];   // "YYYY:MM:DD HH:MM:SS"
    char offset_time_original[8];  // "+02:00"
    char subsec_time_original[8];
    char date_time_digitized[24];
    char offset_time_digitized[8];
    char date_time[24];
    char offset_time[8];
    char make[64];
    char model[64];
    char lens_model[128];
    char software[64];
    int orientation;               // 0 when absent
    int has_location;
    double latitude;               // signed degrees
    double longitude;
    int has_altitude;
    double altitude;               // metres, negative below sea level
    int has_gps_timestamp;
    char gps_date_stamp[12];       // "YYYY:MM:DD"
    double gps_time_stamp[3];      // hours, minutes, seconds (UTC)
    int has_gps_speed;
    double gps_speed;              // in the unit of gps_speed_ref
    char gps_speed_ref[2];         // "K" km/h, "M" mph, "N" knots
    int has_gps_direction;
    double gps_direction;          // degrees
    int has_horizontal_error;
    double horizontal_error;       // metres
    int custom_rendered;           // -1 when absent
    int has_exposure_time;
    double exposure_time;          // seconds
    int pixel_x_dimension;
    int pixel_y_dimension;
    char user_comment[128];        // ASCII user comment ("Screenshot" on iOS screenshots)
    char content_identifier[64];   // Apple MakerNote tag 17: pairs a Live Photo's still and video
    char burst_identifier[64];     // Apple MakerNote tag 11: the burst a photo belongs to
} pm_exif;

/// Parses an EXIF block (with or without its "Exif\0\0" header).
/// Returns 0 on success, -1 when the block cannot be parsed.
int pm_exif_parse(const void *data, size_t length, pm_exif *out);

/// Builds an EXIF block from the non-empty fields of `in`; free the result
/// with pm_free. Returns 0 on success.
int pm_exif_build(const pm_exif *in, void **data, size_t *length);

/// How to render an image for display. Sizes are pixels of the upright
/// image (its EXIF orientation applied).
typedef struct {
    int source_width;     // upright size of the source, 0 when unknown (then read from its header)
    int source_height;
    int target_width;     // <= 0: the full size
    int target_height;
    int fill;             // 1: aspect fill, 0: aspect fit
    int exact;            // 1: exactly the fitted size, or the target filled and cropped, scaling up if
                          // needed; 0: the cheapest size that covers the target, never scaled up or cropped
    double crop_x;        // a crop in unit coordinates of the upright source, applied before
    double crop_y;        // fitting or filling; crop_width <= 0 means none
    double crop_width;
    double crop_height;
} pm_render_spec;

/// Renders an image file (path != NULL) or encoded buffer into 8-bit RGBA
/// pixels as `spec` says, decoding at the smallest scale that serves it
/// (shrink-on-load). `*pixels` is freed with pm_free. Returns 0 on success.
int pm_render(const char *path, const void *buffer, size_t length, const pm_render_spec *spec,
              unsigned char **pixels, int *width, int *height);

/// Makes a derivative of an image file: a JPEG of the upright image scaled
/// down so that its short edge is `short_edge` (never scaled up), without
/// metadata. Fails on any decode error, so it also proves the file decodes.
/// Unless `placeholder` is NULL, also gives the same image at most 100 x 100
/// as 8-bit RGBA (for a ThumbHash), made from the scaled image in memory
/// rather than by decoding the JPEG again. `*jpeg` and `*placeholder` are
/// freed with pm_free. Returns 0 on success.
int pm_make_derivative(const char *path, int source_width, int source_height, int short_edge, int quality,
                       void **jpeg, size_t *jpeg_length, int *width, int *height,
                       unsigned char **placeholder, int *placeholder_width, int *placeholder_height);

/// The 128-bit XXH3 hash of a file's bytes, as 32 lowercase hex digits and
/// a NUL. Returns 0 on success, -1 when the file cannot be read.
int pm_hash_file(const char *path, char hex[33]);

/// Starts the program at `path` with `argv` (ending in NULL) and this
/// process's environment: standard input and error on /dev/null, standard
/// output a pipe whose read end goes to `*output` (close it), every other
/// descriptor closed, no signal blocked and every one at its default
/// action. `*pid` is the child's. Returns 0, or the errno of the failure.
int pm_spawn(const char *path, char *const argv[], int *pid, int *output);

/// Lowers the calling thread's priority to `niceness` (0 to 19), for work
/// that must yield to the rest of the process (the search indexer's
/// thread). Returns 0, or the errno of the failure.
int pm_nice_this_thread(int niceness);

/// Waits for the child `pid` to end: `*exit_status` is its exit status
/// (-1 when a signal ended it), `*signal_number` that signal (else 0).
/// Returns 0, or the errno of the failure.
int pm_wait(int pid, int *exit_status, int *signal_number);

#endif
