// The media benchmark's baseline and fixtures: libvips called directly,
// with nothing around it. Not part of the library.
#ifndef CBENCHVIPS_H
#define CBENCHVIPS_H

/// Initialises libvips once; 0 on success.
int bench_vips_init(void);

/// vips_thumbnail of a file to `size` x `size` (crop to fill when `fill`),
/// the pixels written to memory and freed: the practical limit of a
/// thumbnail. Returns 0 on success.
int bench_thumbnail(const char *path, int size, int fill);

/// vips_thumbnail of a file to `size` x `size`, cropped to fill from the
/// centre, as 8-bit RGBA in `*rgba` (freed with bench_free): the direct
/// render a thumbnail's quality is judged against. Returns 0 on success.
int bench_thumbnail_rgba(const char *path, int size, unsigned char **rgba, int *width, int *height);

/// The same work as the engine's first thumbnail request, written plainly
/// with libvips: the 360-px short-edge derivative made from the original
/// (shrink-on-load, Q `quality`, no metadata), written to
/// `derivative_path`, then the `size` x `size` aspect-fill render of it as
/// 8-bit RGBA in `*rgba` (freed with bench_free). Returns 0 on success.
int bench_thumbnail_same_work(const char *path, int short_edge, int quality, const char *derivative_path, int size,
                              unsigned char **rgba, int *width, int *height);

/// The decode floor of a `size`-px thumbnail, as `djpeg -scale` gives it
/// but in this process: libjpeg decoding the file at the smallest 1/1, 1/2,
/// 1/4 or 1/8 scale whose short edge still covers `size`, every scanline
/// read and dropped. No resampling, no encoding. Returns 0 on success.
int bench_decode_floor(const char *path, int size);

/// Frees what the functions above return.
void bench_free(void *pointer);

/// Writes a camera-like JPEG of `width` x `height`: a gradient with sensor
/// noise, so it compresses as photos do; progressive when `progressive`.
/// Returns 0 on success.
int bench_write_photo(const char *path, int width, int height, int seed, int progressive);

/// What a same-work import learns of a photo.
typedef struct {
    /// XXH3-128 of the bytes, in hexadecimal.
    char content_hash[33];
    /// EXIF DateTimeOriginal ("YYYY:MM:DD HH:MM:SS"), empty when absent.
    char date_time_original[20];
    int pixel_width;
    int pixel_height;
} bench_imported_photo;

/// The import baseline: everything an import must do for one photo, written
/// plainly in C. Copies `source` to `original` (hashing the bytes as they
/// pass, then fsync of the file and of its folder), reads the EXIF capture
/// date with libexif, and makes the 360-px short-edge thumbnail (Q 82) with
/// `vips_thumbnail` from the copy, written to `thumbnail` (not synced: like
/// the engine's, it can be made again). Returns 0 on success.
int bench_import_photo(const char *source, const char *original, const char *thumbnail, bench_imported_photo *out);

/// The mixed import baseline's work for a still in any format libvips
/// reads: the copy, hash and syncs of `bench_import_photo`, then the 360-px
/// thumbnail converted to sRGB from the file's ICC profile. The capture
/// date is left empty: that baseline reads every file's metadata with one
/// exiftool run. Returns 0 on success.
int bench_import_still(const char *source, const char *original, const char *thumbnail, bench_imported_photo *out);

/// Copies `source` to the new file `destination`, its XXH3-128 in `hex`,
/// the copy and its name synced. Returns 0 on success.
int bench_copy_hashing(const char *source, const char *destination, char hex[33]);

/// Runs the program at `path` with `argv` (ending in NULL) as C does it,
/// posix_spawn then waitpid, standard input on /dev/null; returns its exit
/// status, or -1 when it could not start or a signal ended it.
int bench_run(const char *path, char *const argv[]);

#endif
