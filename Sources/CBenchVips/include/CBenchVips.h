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

/// Writes a camera-like JPEG of `width` x `height`: a gradient with sensor
/// noise, so it compresses as photos do. Returns 0 on success.
int bench_write_photo(const char *path, int width, int height, int seed);

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

#endif
