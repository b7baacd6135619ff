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

#endif
