// HEIF and AVIF colour given as nclx (ITU-T H.273 code points) brought to
// sRGB: the file's primaries and transfer function read with libheif, then
// each pixel of the (already shrunk) image decoded to linear light,
// converted to BT.709 primaries, tone-mapped when it is HDR, and encoded
// with the sRGB curve in 8 bits.
#include "nclx.h"

#include <libheif/heif.h>
#include <math.h>
#include <string.h>

// H.273 colour primaries and transfer characteristics this file knows.
enum { PRIMARIES_BT2020 = 9, PRIMARIES_DCI_P3 = 11, PRIMARIES_DISPLAY_P3 = 12 };
enum { TRANSFER_LINEAR = 8, TRANSFER_PQ = 16, TRANSFER_HLG = 18 };

// Reference white of HDR video and stills, in cd/m² (ITU-R BT.2408): what
// SDR white becomes.
static const double reference_white = 203.0;

// The nclx primaries and transfer of the primary image; 0 when found.
static int read_nclx(const char *path, const void *buffer, size_t length, int *primaries, int *transfer) {
    struct heif_context *context = heif_context_alloc();
    if (context == NULL) return -1;
    struct heif_error error = path != NULL ? heif_context_read_from_file(context, path, NULL)
                                           : heif_context_read_from_memory_without_copy(context, buffer, length, NULL);
    int result = -1;
    struct heif_image_handle *handle = NULL;
    if (error.code == heif_error_Ok && heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok) {
        struct heif_color_profile_nclx *nclx = NULL;
        if (heif_image_handle_get_color_profile_type(handle) == heif_color_profile_type_nclx
            && heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx != NULL) {
            *primaries = nclx->color_primaries;
            *transfer = nclx->transfer_characteristics;
            heif_nclx_color_profile_free(nclx);
            result = 0;
        }
        heif_image_handle_release(handle);
    }
    heif_context_free(context);
    return result;
}

static double srgb_to_linear(double v) {
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb(double v) {
    return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
}

// SMPTE ST 2084: signal to cd/m², then relative to reference white.
static double pq_to_linear(double v) {
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
    const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    double p = pow(v, 1 / m2);
    double numerator = p - c1 > 0 ? p - c1 : 0;
    return 10000.0 * pow(numerator / (c2 - c3 * p), 1 / m1) / reference_white;
}

// ARIB STD-B67 (HLG) inverse OETF: signal to scene light in [0, 1].
static double hlg_to_scene(double v) {
    const double a = 0.17883277, b = 0.28466892, c = 0.55991073;
    return v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12;
}

// ffmpeg's Möbius curve (its tonemap filter, with the same transition as
// DynamicRange.swift gives it for video): values up to `j` of reference
// white stay as they are, the rest roll off to reach 1 at `peak`.
static double mobius(double s, double peak) {
    const double j = 0.6;
    if (s <= j || peak <= 1) return s;
    double a = -j * j * (peak - 1) / (j * j - 2 * j + peak);
    double b = (j * j - 2 * j * peak + peak) / (peak - 1);
    return (b * b + 2 * b * j + j * j) / (b - a) * (s + a) / (s + b);
}

int pm_nclx_to_srgb(const char *path, const void *buffer, size_t length, VipsImage *in, VipsImage **out) {
    *out = in;
    int primaries = 0, transfer = 0;
    if (vips_image_get_typeof(in, "heif-compression") == 0 || vips_image_get_typeof(in, VIPS_META_ICC_NAME) != 0
        || (in->BandFmt != VIPS_FORMAT_UCHAR && in->BandFmt != VIPS_FORMAT_USHORT) || in->Bands < 3
        || read_nclx(path, buffer, length, &primaries, &transfer) != 0) return 0;
    static const double p3[9] = {1.2249, -0.2247, 0, -0.0420, 1.0419, 0, -0.0197, -0.0786, 1.0979};
    static const double bt2020[9] = {1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083, -0.0182, -0.1006, 1.1187};
    const double *matrix = primaries == PRIMARIES_BT2020 ? bt2020
        : primaries == PRIMARIES_DISPLAY_P3 || primaries == PRIMARIES_DCI_P3 ? p3 : NULL;
    int hdr = transfer == TRANSFER_PQ || transfer == TRANSFER_HLG;
    if (matrix == NULL && !hdr && transfer != TRANSFER_LINEAR) return 0;
    double peak = transfer == TRANSFER_PQ ? 10000.0 / reference_white : 1000.0 / reference_white;

    size_t size = 0;
    void *pixels = vips_image_write_to_memory(in, &size);
    if (pixels == NULL) return -1;
    int width = in->Xsize, height = in->Ysize, bands = in->Bands;
    int sixteen = in->BandFmt == VIPS_FORMAT_USHORT;
    double maximum = sixteen ? 65535.0 : 255.0;
    unsigned char *converted = g_malloc((size_t) width * height * bands);
    for (size_t index = 0; index < (size_t) width * height; index++) {
        double value[4], linear[3];
        for (int band = 0; band < bands && band < 4; band++) {
            value[band] = (sixteen ? ((unsigned short *) pixels)[index * bands + band]
                                   : ((unsigned char *) pixels)[index * bands + band]) / maximum;
        }
        if (transfer == TRANSFER_HLG) {
            // The HLG OOTF for a 1,000 cd/m² display, gamma 1.2 on BT.2020 luminance.
            double scene[3];
            for (int c = 0; c < 3; c++) scene[c] = hlg_to_scene(value[c]);
            double luminance = 0.2627 * scene[0] + 0.6780 * scene[1] + 0.0593 * scene[2];
            double gain = luminance > 0 ? 1000.0 * pow(luminance, 0.2) / reference_white : 0;
            for (int c = 0; c < 3; c++) linear[c] = scene[c] * gain;
        } else {
            for (int c = 0; c < 3; c++) {
                linear[c] = transfer == TRANSFER_PQ ? pq_to_linear(value[c])
                    : transfer == TRANSFER_LINEAR ? value[c] : srgb_to_linear(value[c]);
            }
        }
        double rgb[3];
        for (int c = 0; c < 3; c++) {
            rgb[c] = matrix == NULL ? linear[c]
                : matrix[c * 3] * linear[0] + matrix[c * 3 + 1] * linear[1] + matrix[c * 3 + 2] * linear[2];
            if (rgb[c] < 0) rgb[c] = 0;
        }
        if (hdr) {
            double signal = fmax(rgb[0], fmax(rgb[1], rgb[2]));
            if (signal > 0) {
                double scale = mobius(signal, peak) / signal;
                for (int c = 0; c < 3; c++) rgb[c] *= scale;
            }
        }
        unsigned char *pixel = converted + index * bands;
        for (int c = 0; c < 3; c++) {
            double encoded = linear_to_srgb(rgb[c] > 1 ? 1 : rgb[c]);
            pixel[c] = (unsigned char) lround(encoded * 255);
        }
        for (int band = 3; band < bands; band++) {
            double alpha = (sixteen ? ((unsigned short *) pixels)[index * bands + band]
                                    : ((unsigned char *) pixels)[index * bands + band]) / maximum;
            pixel[band] = (unsigned char) lround(alpha * 255);
        }
    }
    g_free(pixels);
    VipsImage *image = vips_image_new_from_memory_copy(converted, (size_t) width * height * bands,
                                                       width, height, bands, VIPS_FORMAT_UCHAR);
    g_free(converted);
    if (image == NULL) return -1;
    image->Type = VIPS_INTERPRETATION_sRGB;
    g_object_unref(in);
    *out = image;
    return 0;
}
