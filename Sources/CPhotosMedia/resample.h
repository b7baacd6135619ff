// Internal to CPhotosMedia: the resampling vips_shim.c does itself.
#ifndef PM_RESAMPLE_H
#define PM_RESAMPLE_H

/// Resamples 8-bit interleaved pixels (`bands` values a pixel, rows packed)
/// from `source_width` x `source_height` to `width` x `height` with a
/// Lanczos-3 filter, widened by the reduction when shrinking, centres
/// aligned and edges extended, as libvips' reduce does. `output` holds
/// `width * height * bands` bytes. Returns 0, or -1 when out of memory or
/// given an empty size. Cost: a pass over the source per axis, no thread.
int pm_resample(const unsigned char *source, int source_width, int source_height, int bands,
                unsigned char *output, int width, int height);

#endif
