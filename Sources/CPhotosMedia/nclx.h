// Colour described by numbers rather than a profile: HEIF and AVIF files
// may give their primaries and transfer function as an ITU-T H.273 "nclx"
// colour box, which libvips 8.14 ignores. See nclx.c.
#ifndef PM_NCLX_H
#define PM_NCLX_H

#include <stddef.h>
#include <vips/vips.h>

/// `in`, a HEIF or AVIF image read from `path` (or `buffer` of `length`
/// bytes) and shrunk, in sRGB when its file gives its colour as nclx with
/// other primaries (Display P3, BT.2020) or an HDR transfer (PQ, HLG):
/// converted, and HDR tone-mapped, into a new 8-bit image in `*out`. Else
/// `*out` is `in`. Takes over `in`. Returns 0, or -1 with a libvips error.
int pm_nclx_to_srgb(const char *path, const void *buffer, size_t length, VipsImage *in, VipsImage **out);

#endif
