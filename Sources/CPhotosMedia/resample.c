#include "resample.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

// libvips runs the same filter, but with its run-time vector code off (see
// initialise in vips_shim.c) its plain loops, tiles and threads were most of
// what a thumbnail cost beyond decoding the original. Here the weights are
// 14-bit fixed point and the sums 32-bit integers: the vertical pass, which
// sums whole rows, is a loop the compiler vectorises, and the horizontal
// pass then works on rows already reduced.

enum { precision = 14, one = 1 << precision };

/// For each output position along one axis: the first of the `taps`
/// consecutive source positions it reads and their weights, which sum to
/// exactly `one`. Positions beyond an edge read the edge pixel, so their
/// weights are moved onto it and the window onto the image.
typedef struct {
    int taps;
    int *index;
    int16_t *weight;
} axis_filter;

static double lanczos3(double x) {
    if (x == 0) return 1;
    if (x <= -3 || x >= 3) return 0;
    double px = M_PI * x;
    return 3 * sin(px) * sin(px / 3) / (px * px);
}

static void free_filter(axis_filter *filter) {
    g_free(filter->index);
    g_free(filter->weight);
}

static int make_filter(int in, int out, axis_filter *filter) {
    double ratio = (double) in / out;
    // Shrinking widens the filter by the ratio, so that every source pixel counts.
    double widen = ratio > 1 ? ratio : 1;
    double support = 3 * widen;
    int span = (int) ceil(2 * support) + 1;
    // A window never wider than the image, so that it always fits inside.
    int taps = span < in ? span : in;
    filter->taps = taps;
    filter->index = g_try_new(int, out);
    filter->weight = g_try_new0(int16_t, (size_t) out * taps);
    double *real = g_try_new(double, span);
    double *moved = g_try_new(double, taps);
    if (filter->index == NULL || filter->weight == NULL || real == NULL || moved == NULL) {
        free_filter(filter);
        g_free(real);
        g_free(moved);
        return -1;
    }
    for (int o = 0; o < out; o++) {
        // Centres aligned: output pixel o covers source [o, o + 1) * ratio.
        double centre = (o + 0.5) * ratio - 0.5;
        int first = (int) floor(centre - support) + 1;
        double total = 0;
        for (int t = 0; t < span; t++) {
            real[t] = lanczos3((first + t - centre) / widen);
            total += real[t];
        }
        int start = first < 0 ? 0 : first > in - taps ? in - taps : first;
        filter->index[o] = start;
        int16_t *weight = filter->weight + (size_t) o * taps;
        for (int t = 0; t < taps; t++) moved[t] = 0;
        for (int t = 0; t < span; t++) {
            int position = first + t;
            position = position < 0 ? 0 : position >= in ? in - 1 : position;
            moved[position - start] += real[t];
        }
        int sum = 0, largest = 0;
        for (int t = 0; t < taps; t++) {
            weight[t] = (int16_t) lround(moved[t] / total * one);
            sum += weight[t];
            if (weight[t] > weight[largest]) largest = t;
        }
        // Rounding must not brighten or darken a flat area.
        weight[largest] = (int16_t) (weight[largest] + one - sum);
    }
    g_free(real);
    g_free(moved);
    return 0;
}

static inline unsigned char clamp_to_byte(int32_t sum) {
    int32_t value = (sum + (one >> 1)) >> precision;
    return (unsigned char) (value < 0 ? 0 : value > 255 ? 255 : value);
}

// Where the processor has AVX2 (checked once, when the library loads), the
// two passes also exist compiled for it: twice as many pixels an instruction.
#if defined(__x86_64__) && defined(__clang__)
#define PM_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PM_VECTOR_CLONES
#endif

/// Each output row: a weighted sum of whole source rows.
PM_VECTOR_CLONES
static int resample_rows(const unsigned char *source, int row_length, const axis_filter *filter, int rows,
                         unsigned char *output) {
    int32_t *sums = g_try_new(int32_t, row_length);
    if (sums == NULL) return -1;
    for (int y = 0; y < rows; y++) {
        const int16_t *weight = filter->weight + (size_t) y * filter->taps;
        memset(sums, 0, sizeof(int32_t) * row_length);
        for (int t = 0; t < filter->taps; t++) {
            int16_t w = weight[t];
            if (w == 0) continue;
            const unsigned char *row = source + (size_t) (filter->index[y] + t) * row_length;
            for (int i = 0; i < row_length; i++) sums[i] += (int32_t) (int16_t) row[i] * w;
        }
        unsigned char *out = output + (size_t) y * row_length;
        for (int i = 0; i < row_length; i++) out[i] = clamp_to_byte(sums[i]);
    }
    g_free(sums);
    return 0;
}

/// Each output pixel of each row: a weighted sum of source pixels along the
/// row; `bands` is a constant where it is called, so that the sums stay in
/// registers.
static inline __attribute__((always_inline)) void
resample_columns_of(const unsigned char *source, int source_width, int rows, int bands,
                    const axis_filter *filter, unsigned char *output, int width) {
    int taps = filter->taps;
    for (int y = 0; y < rows; y++) {
        const unsigned char *row = source + (size_t) y * source_width * bands;
        unsigned char *out = output + (size_t) y * width * bands;
        for (int x = 0; x < width; x++) {
            const unsigned char *pixel = row + (size_t) filter->index[x] * bands;
            const int16_t *weight = filter->weight + (size_t) x * taps;
            int32_t sums[4] = {0, 0, 0, 0};
            for (int t = 0; t < taps; t++) {
                int32_t w = weight[t];
                for (int b = 0; b < bands; b++) sums[b] += w * pixel[t * bands + b];
            }
            for (int b = 0; b < bands; b++) out[(size_t) x * bands + b] = clamp_to_byte(sums[b]);
        }
    }
}

PM_VECTOR_CLONES
static void resample_columns(const unsigned char *source, int source_width, int rows, int bands,
                             const axis_filter *filter, unsigned char *output, int width) {
    switch (bands) {
    case 1: resample_columns_of(source, source_width, rows, 1, filter, output, width); break;
    case 2: resample_columns_of(source, source_width, rows, 2, filter, output, width); break;
    case 3: resample_columns_of(source, source_width, rows, 3, filter, output, width); break;
    default: resample_columns_of(source, source_width, rows, 4, filter, output, width); break;
    }
}

int pm_resample(const unsigned char *source, int source_width, int source_height, int bands,
                unsigned char *output, int width, int height) {
    if (source_width < 1 || source_height < 1 || width < 1 || height < 1 || bands < 1 || bands > 4) return -1;
    size_t row_length = (size_t) source_width * bands;
    // Rows first: the pass that vectorises runs on the most pixels.
    const unsigned char *rows = source;
    unsigned char *reduced = NULL;
    if (height != source_height) {
        axis_filter filter;
        if (make_filter(source_height, height, &filter) != 0) return -1;
        reduced = width == source_width ? output : g_try_malloc(row_length * height);
        int failed = reduced == NULL || resample_rows(source, (int) row_length, &filter, height, reduced) != 0;
        free_filter(&filter);
        if (failed) {
            if (reduced != output) g_free(reduced);
            return -1;
        }
        rows = reduced;
    }
    if (width != source_width) {
        axis_filter filter;
        if (make_filter(source_width, width, &filter) != 0) {
            if (reduced != output) g_free(reduced);
            return -1;
        }
        resample_columns(rows, source_width, height, bands, &filter, output, width);
        free_filter(&filter);
    } else if (rows == source) {
        memcpy(output, source, row_length * height);
    }
    if (reduced != output) g_free(reduced);
    return 0;
}
