// Internal to CPhotosMedia: the libjpeg paths vips_shim.c takes.
#ifndef PM_JPEG_SCALED_H
#define PM_JPEG_SCALED_H

/// Decodes a plain JPEG original (YCbCr, greyscale or RGB, in sRGB: one whose ICC profile is another's declines)
/// as 8-bit RGB in its stored frame, at the smallest 1/8, 1/4, 1/2 or full
/// scale that still covers `upright_width` x `upright_height` once turned
/// upright by `*orientation` (its EXIF orientation, 1 when none). `*pixels`
/// is freed with g_free. Returns 0 on success, or -1, leaving no error,
/// whenever this path does not apply or libjpeg errs or warns: the caller
/// then goes through libvips, which decides whether the file decodes.
int pm_jpeg_decode_original(const char *path, int upright_width, int upright_height,
                            unsigned char **pixels, int *width, int *height, int *orientation);

/// pm_decode_jpeg_covering, also giving the JPEG's own size, which the
/// decoded size (rounded up from a scale of n/8) cannot be turned back into.
int pm_jpeg_decode_covering(const char *path, const void *buffer, size_t length, int target_width, int target_height,
                            int fill, unsigned char **pixels, int *width, int *height, int *source_width, int *source_height);

/// Whether an ICC profile describes sRGB's primaries (within 0.01 in XYZ),
/// or is a grey one: its pixels are then taken as sRGB without conversion.
int pm_icc_is_srgb_like(const unsigned char *profile, size_t length);

#endif
