#include "CPhotosMedia.h"

#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

// GPS tags by number: libexif's GPS names overlap with IFD0 ones.
enum {
    GPS_LATITUDE_REF = 0x0001, GPS_LATITUDE = 0x0002,
    GPS_LONGITUDE_REF = 0x0003, GPS_LONGITUDE = 0x0004,
    GPS_ALTITUDE_REF = 0x0005, GPS_ALTITUDE = 0x0006,
    GPS_TIME_STAMP = 0x0007, GPS_SPEED_REF = 0x000c, GPS_SPEED = 0x000d,
    GPS_IMG_DIRECTION = 0x0011, GPS_DATE_STAMP = 0x001d,
    GPS_H_POSITIONING_ERROR = 0x001f,
};

// ---------------------------------------------------------------- reading

static ExifEntry *entry(ExifData *data, ExifIfd ifd, int tag) {
    return exif_content_get_entry(data->ifd[ifd], (ExifTag) tag);
}

static void copy_ascii(ExifEntry *e, char *out, size_t capacity) {
    out[0] = 0;
    if (e == NULL || e->format != EXIF_FORMAT_ASCII || e->data == NULL || e->size == 0) return;
    size_t length = e->size < capacity - 1 ? e->size : capacity - 1;
    memcpy(out, e->data, length);
    out[length] = 0;
    // Trim the trailing spaces some cameras pad with.
    for (size_t i = strlen(out); i > 0 && out[i - 1] == ' '; i--) out[i - 1] = 0;
}

static int read_rational(ExifEntry *e, ExifByteOrder order, unsigned index, double *out) {
    if (e == NULL || e->data == NULL || index >= e->components) return 0;
    if (e->format == EXIF_FORMAT_RATIONAL) {
        ExifRational r = exif_get_rational(e->data + 8 * index, order);
        if (r.denominator == 0) return 0;
        *out = (double) r.numerator / (double) r.denominator;
        return 1;
    }
    if (e->format == EXIF_FORMAT_SRATIONAL) {
        ExifSRational r = exif_get_srational(e->data + 8 * index, order);
        if (r.denominator == 0) return 0;
        *out = (double) r.numerator / (double) r.denominator;
        return 1;
    }
    return 0;
}

static int read_short(ExifEntry *e, ExifByteOrder order, int *out) {
    if (e == NULL || e->data == NULL || e->components < 1) return 0;
    switch (e->format) {
    case EXIF_FORMAT_SHORT: *out = exif_get_short(e->data, order); return 1;
    case EXIF_FORMAT_LONG: *out = (int) exif_get_long(e->data, order); return 1;
    case EXIF_FORMAT_BYTE: *out = e->data[0]; return 1;
    default: return 0;
    }
}

static int read_degrees(ExifEntry *e, ExifByteOrder order, double *out) {
    double d = 0, m = 0, s = 0;
    if (!read_rational(e, order, 0, &d)) return 0;
    read_rational(e, order, 1, &m);
    read_rational(e, order, 2, &s);
    *out = d + m / 60.0 + s / 3600.0;
    return 1;
}

// Apple's MakerNote: "Apple iOS\0", a 2-byte version, the byte order ("MM"
// or "II") at offset 12, an entry count at 14, entries from 16, and values
// larger than 4 bytes at offsets from the start of the MakerNote.
enum { APPLE_HEADER = 16, APPLE_BURST_UUID = 0x000b, APPLE_CONTENT_IDENTIFIER = 0x0011 };

// Copies the ASCII value of one tag of Apple's MakerNote into `out` (empty when absent).
static void read_apple_tag(ExifEntry *note, int tag, char *out, size_t capacity) {
    out[0] = 0;
    if (note == NULL || note->data == NULL || note->size < APPLE_HEADER ||
        memcmp(note->data, "Apple iOS", 10) != 0) return;
    const unsigned char *bytes = note->data;
    ExifByteOrder order;
    if (bytes[12] == 'M' && bytes[13] == 'M') order = EXIF_BYTE_ORDER_MOTOROLA;
    else if (bytes[12] == 'I' && bytes[13] == 'I') order = EXIF_BYTE_ORDER_INTEL;
    else return;
    unsigned count = exif_get_short(bytes + 14, order);
    for (unsigned i = 0; i < count; i++) {
        size_t at = APPLE_HEADER + 12 * (size_t) i;
        if (at + 12 > note->size) return;
        if (exif_get_short(bytes + at, order) != tag ||
            exif_get_short(bytes + at + 2, order) != EXIF_FORMAT_ASCII) continue;
        size_t length = exif_get_long(bytes + at + 4, order);
        size_t offset = length > 4 ? exif_get_long(bytes + at + 8, order) : at + 8;
        if (length == 0 || offset + length > note->size) return;
        size_t copied = length < capacity - 1 ? length : capacity - 1;
        memcpy(out, bytes + offset, copied);
        out[copied] = 0;
        return;
    }
}

// EXIF's UserComment: an 8-byte character code, then the text.
static void read_user_comment(ExifEntry *e, char *out, size_t capacity) {
    out[0] = 0;
    if (e == NULL || e->data == NULL || e->size <= 8 || memcmp(e->data, "ASCII\0\0\0", 8) != 0) return;
    size_t length = e->size - 8 < capacity - 1 ? e->size - 8 : capacity - 1;
    memcpy(out, e->data + 8, length);
    out[length] = 0;
    for (size_t i = strlen(out); i > 0 && (out[i - 1] == ' ' || out[i - 1] == 0); i--) out[i - 1] = 0;
}

// libexif reads an EXIF block only after its "Exif\0\0" header (or in a
// JPEG's APP1). HEIF, AVIF, WebP and JPEG XL writers store the TIFF
// structure itself, sometimes behind HEIF's 4-byte offset to it: such a
// block is given the header. NULL when the block holds no TIFF header.
static unsigned char *with_exif_header(const unsigned char *bytes, size_t length, size_t *out_length) {
    static const unsigned char header[6] = {'E', 'x', 'i', 'f', 0, 0};
    for (size_t start = 0; start + 8 <= length && start <= 16; start++) {
        const unsigned char *at = bytes + start;
        int tiff = (at[0] == 'I' && at[1] == 'I' && at[2] == 42 && at[3] == 0) || (at[0] == 'M' && at[1] == 'M' && at[2] == 0 && at[3] == 42);
        if (!tiff) continue;
        if (length - start > UINT_MAX - sizeof(header)) return NULL;
        unsigned char *copy = g_malloc(sizeof(header) + length - start);
        memcpy(copy, header, sizeof(header));
        memcpy(copy + sizeof(header), at, length - start);
        *out_length = sizeof(header) + length - start;
        return copy;
    }
    return NULL;
}

int pm_exif_parse(const void *bytes, size_t length, pm_exif *out) {
    memset(out, 0, sizeof(*out));
    out->custom_rendered = -1;
    if (bytes == NULL || length < 8) return -1;
    unsigned char *headed = NULL;
    if (memcmp(bytes, "Exif\0\0", 6) != 0 && ((const unsigned char *) bytes)[0] != 0xFF) {
        size_t headed_length = 0;
        headed = with_exif_header(bytes, length, &headed_length);
        if (headed == NULL) return -1;
        bytes = headed;
        length = headed_length;
    }
    ExifData *data = exif_data_new_from_data(bytes, (unsigned int) length);
    g_free(headed);
    if (data == NULL) return -1;
    ExifByteOrder order = exif_data_get_byte_order(data);

    copy_ascii(entry(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL), out->date_time_original, sizeof(out->date_time_original));
    copy_ascii(entry(data, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME_ORIGINAL), out->offset_time_original, sizeof(out->offset_time_original));
    copy_ascii(entry(data, EXIF_IFD_EXIF, EXIF_TAG_SUB_SEC_TIME_ORIGINAL), out->subsec_time_original, sizeof(out->subsec_time_original));
    copy_ascii(entry(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_DIGITIZED), out->date_time_digitized, sizeof(out->date_time_digitized));
    copy_ascii(entry(data, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME_DIGITIZED), out->offset_time_digitized, sizeof(out->offset_time_digitized));
    copy_ascii(entry(data, EXIF_IFD_0, EXIF_TAG_DATE_TIME), out->date_time, sizeof(out->date_time));
    copy_ascii(entry(data, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME), out->offset_time, sizeof(out->offset_time));
    copy_ascii(entry(data, EXIF_IFD_0, EXIF_TAG_MAKE), out->make, sizeof(out->make));
    copy_ascii(entry(data, EXIF_IFD_0, EXIF_TAG_MODEL), out->model, sizeof(out->model));
    copy_ascii(entry(data, EXIF_IFD_EXIF, EXIF_TAG_LENS_MODEL), out->lens_model, sizeof(out->lens_model));
    copy_ascii(entry(data, EXIF_IFD_0, EXIF_TAG_SOFTWARE), out->software, sizeof(out->software));
    read_short(entry(data, EXIF_IFD_0, EXIF_TAG_ORIENTATION), order, &out->orientation);
    if (!read_short(entry(data, EXIF_IFD_EXIF, EXIF_TAG_CUSTOM_RENDERED), order, &out->custom_rendered)) {
        out->custom_rendered = -1;
    }
    out->has_exposure_time = read_rational(entry(data, EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_TIME), order, 0, &out->exposure_time);
    read_short(entry(data, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION), order, &out->pixel_x_dimension);
    read_short(entry(data, EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION), order, &out->pixel_y_dimension);
    read_user_comment(entry(data, EXIF_IFD_EXIF, EXIF_TAG_USER_COMMENT), out->user_comment, sizeof(out->user_comment));
    ExifEntry *note = entry(data, EXIF_IFD_EXIF, EXIF_TAG_MAKER_NOTE);
    read_apple_tag(note, APPLE_CONTENT_IDENTIFIER, out->content_identifier, sizeof(out->content_identifier));
    read_apple_tag(note, APPLE_BURST_UUID, out->burst_identifier, sizeof(out->burst_identifier));

    double latitude = 0, longitude = 0;
    if (read_degrees(entry(data, EXIF_IFD_GPS, GPS_LATITUDE), order, &latitude) &&
        read_degrees(entry(data, EXIF_IFD_GPS, GPS_LONGITUDE), order, &longitude)) {
        char reference[4];
        copy_ascii(entry(data, EXIF_IFD_GPS, GPS_LATITUDE_REF), reference, sizeof(reference));
        if (reference[0] == 'S') latitude = -latitude;
        copy_ascii(entry(data, EXIF_IFD_GPS, GPS_LONGITUDE_REF), reference, sizeof(reference));
        if (reference[0] == 'W') longitude = -longitude;
        if (latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180) {
            out->has_location = 1;
            out->latitude = latitude;
            out->longitude = longitude;
        }
    }
    if (read_rational(entry(data, EXIF_IFD_GPS, GPS_ALTITUDE), order, 0, &out->altitude)) {
        out->has_altitude = 1;
        ExifEntry *reference = entry(data, EXIF_IFD_GPS, GPS_ALTITUDE_REF);
        if (reference != NULL && reference->data != NULL && reference->size > 0 && reference->data[0] == 1) {
            out->altitude = -out->altitude;
        }
    }
    ExifEntry *time = entry(data, EXIF_IFD_GPS, GPS_TIME_STAMP);
    if (time != NULL && time->components >= 3 &&
        read_rational(time, order, 0, &out->gps_time_stamp[0]) &&
        read_rational(time, order, 1, &out->gps_time_stamp[1]) &&
        read_rational(time, order, 2, &out->gps_time_stamp[2])) {
        copy_ascii(entry(data, EXIF_IFD_GPS, GPS_DATE_STAMP), out->gps_date_stamp, sizeof(out->gps_date_stamp));
        out->has_gps_timestamp = out->gps_date_stamp[0] != 0;
    }
    if (read_rational(entry(data, EXIF_IFD_GPS, GPS_SPEED), order, 0, &out->gps_speed)) {
        out->has_gps_speed = 1;
        copy_ascii(entry(data, EXIF_IFD_GPS, GPS_SPEED_REF), out->gps_speed_ref, sizeof(out->gps_speed_ref));
    }
    out->has_gps_direction = read_rational(entry(data, EXIF_IFD_GPS, GPS_IMG_DIRECTION), order, 0, &out->gps_direction);
    out->has_horizontal_error = read_rational(entry(data, EXIF_IFD_GPS, GPS_H_POSITIONING_ERROR), order, 0, &out->horizontal_error);

    exif_data_unref(data);
    return 0;
}

// ---------------------------------------------------------------- writing

static ExifEntry *new_entry(ExifData *data, ExifIfd ifd, int tag, ExifFormat format,
                            unsigned long components) {
    ExifContent *content = data->ifd[ifd];
    ExifEntry *existing = exif_content_get_entry(content, (ExifTag) tag);
    if (existing != NULL) exif_content_remove_entry(content, existing);
    ExifMem *memory = exif_mem_new_default();
    ExifEntry *e = exif_entry_new_mem(memory);
    unsigned int size = exif_format_get_size(format) * (unsigned int) components;
    e->data = exif_mem_alloc(memory, size);
    e->size = size;
    e->components = components;
    e->format = format;
    e->tag = (ExifTag) tag;
    exif_content_add_entry(content, e);
    exif_entry_unref(e);
    exif_mem_unref(memory);
    return e;
}

static void put_ascii(ExifData *data, ExifIfd ifd, int tag, const char *value) {
    if (value == NULL || value[0] == 0) return;
    size_t length = strlen(value) + 1;
    ExifEntry *e = new_entry(data, ifd, tag, EXIF_FORMAT_ASCII, length);
    memcpy(e->data, value, length);
}

static void put_short(ExifData *data, ExifIfd ifd, int tag, int value) {
    ExifEntry *e = new_entry(data, ifd, tag, EXIF_FORMAT_SHORT, 1);
    exif_set_short(e->data, exif_data_get_byte_order(data), (ExifShort) value);
}

static ExifRational rational(double value, ExifLong denominator) {
    ExifRational r = { (ExifLong) (value * denominator + 0.5), denominator };
    return r;
}

static void put_rationals(ExifData *data, ExifIfd ifd, int tag, const double *values,
                          unsigned count, ExifLong denominator) {
    ExifEntry *e = new_entry(data, ifd, tag, EXIF_FORMAT_RATIONAL, count);
    for (unsigned i = 0; i < count; i++) {
        exif_set_rational(e->data + 8 * i, exif_data_get_byte_order(data), rational(values[i], denominator));
    }
}

static void put_degrees(ExifData *data, int tag, double degrees) {
    double whole = (double) (long) degrees;
    double minutes_full = (degrees - whole) * 60.0;
    double minutes = (double) (long) minutes_full;
    double seconds = (minutes_full - minutes) * 60.0;
    double parts[3] = {whole, minutes, seconds};
    ExifEntry *e = new_entry(data, EXIF_IFD_GPS, tag, EXIF_FORMAT_RATIONAL, 3);
    ExifByteOrder order = exif_data_get_byte_order(data);
    exif_set_rational(e->data, order, rational(parts[0], 1));
    exif_set_rational(e->data + 8, order, rational(parts[1], 1));
    exif_set_rational(e->data + 16, order, rational(parts[2], 10000));
}

int pm_exif_build(const pm_exif *in, void **out, size_t *length) {
    ExifData *data = exif_data_new();
    if (data == NULL) return -1;
    exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL);
    exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED);

    put_ascii(data, EXIF_IFD_0, EXIF_TAG_MAKE, in->make);
    put_ascii(data, EXIF_IFD_0, EXIF_TAG_MODEL, in->model);
    put_ascii(data, EXIF_IFD_0, EXIF_TAG_SOFTWARE, in->software);
    put_ascii(data, EXIF_IFD_0, EXIF_TAG_DATE_TIME, in->date_time);
    if (in->orientation > 0) put_short(data, EXIF_IFD_0, EXIF_TAG_ORIENTATION, in->orientation);
    put_ascii(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, in->date_time_original);
    put_ascii(data, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME_ORIGINAL, in->offset_time_original);
    put_ascii(data, EXIF_IFD_EXIF, EXIF_TAG_SUB_SEC_TIME_ORIGINAL, in->subsec_time_original);
    put_ascii(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_DIGITIZED, in->date_time_digitized);
    put_ascii(data, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME_DIGITIZED, in->offset_time_digitized);
    put_ascii(data, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME, in->offset_time);
    put_ascii(data, EXIF_IFD_EXIF, EXIF_TAG_LENS_MODEL, in->lens_model);
    if (in->custom_rendered >= 0) put_short(data, EXIF_IFD_EXIF, EXIF_TAG_CUSTOM_RENDERED, in->custom_rendered);
    if (in->has_exposure_time && in->exposure_time > 0) {
        // Seconds as a fraction: 1/250 for short exposures, tenths of a second for long ones,
        // kept within what a 32-bit rational holds.
        double seconds = in->exposure_time < 1e-6 ? 1e-6 : in->exposure_time > 1e8 ? 1e8 : in->exposure_time;
        ExifLong denominator = seconds < 1 ? (ExifLong) (1 / seconds + 0.5) : 10;
        put_rationals(data, EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_TIME, &seconds, 1, denominator);
    }
    if (in->user_comment[0] != 0) {
        size_t text = strlen(in->user_comment);
        ExifEntry *e = new_entry(data, EXIF_IFD_EXIF, EXIF_TAG_USER_COMMENT, EXIF_FORMAT_UNDEFINED, 8 + text);
        memcpy(e->data, "ASCII\0\0\0", 8);
        memcpy(e->data + 8, in->user_comment, text);
    }
    // Apple's MakerNote: big-endian entries, sorted by tag, their strings after the next-IFD link.
    const struct { int tag; const char *value; } apple[] = {
        {APPLE_BURST_UUID, in->burst_identifier}, {APPLE_CONTENT_IDENTIFIER, in->content_identifier},
    };
    unsigned count = 0;
    size_t strings = 0;
    for (unsigned i = 0; i < 2; i++) {
        if (apple[i].value[0] != 0) { count++; strings += strlen(apple[i].value) + 1; }
    }
    if (count > 0) {
        size_t value_at = APPLE_HEADER + 12 * count + 4;
        ExifEntry *e = new_entry(data, EXIF_IFD_EXIF, EXIF_TAG_MAKER_NOTE, EXIF_FORMAT_UNDEFINED, value_at + strings);
        memset(e->data, 0, e->size);
        memcpy(e->data, "Apple iOS", 10);
        e->data[11] = 1;
        e->data[12] = 'M';
        e->data[13] = 'M';
        exif_set_short(e->data + 14, EXIF_BYTE_ORDER_MOTOROLA, (ExifShort) count);
        size_t at = APPLE_HEADER;
        for (unsigned i = 0; i < 2; i++) {
            if (apple[i].value[0] == 0) continue;
            size_t text = strlen(apple[i].value) + 1;
            exif_set_short(e->data + at, EXIF_BYTE_ORDER_MOTOROLA, (ExifShort) apple[i].tag);
            exif_set_short(e->data + at + 2, EXIF_BYTE_ORDER_MOTOROLA, EXIF_FORMAT_ASCII);
            exif_set_long(e->data + at + 4, EXIF_BYTE_ORDER_MOTOROLA, (ExifLong) text);
            exif_set_long(e->data + at + 8, EXIF_BYTE_ORDER_MOTOROLA, (ExifLong) value_at);
            memcpy(e->data + value_at, apple[i].value, text);
            at += 12;
            value_at += text;
        }
    }

    if (in->has_location) {
        put_ascii(data, EXIF_IFD_GPS, GPS_LATITUDE_REF, in->latitude < 0 ? "S" : "N");
        put_degrees(data, GPS_LATITUDE, in->latitude < 0 ? -in->latitude : in->latitude);
        put_ascii(data, EXIF_IFD_GPS, GPS_LONGITUDE_REF, in->longitude < 0 ? "W" : "E");
        put_degrees(data, GPS_LONGITUDE, in->longitude < 0 ? -in->longitude : in->longitude);
    }
    if (in->has_altitude) {
        ExifEntry *reference = new_entry(data, EXIF_IFD_GPS, GPS_ALTITUDE_REF, EXIF_FORMAT_BYTE, 1);
        reference->data[0] = in->altitude < 0 ? 1 : 0;
        double altitude = in->altitude < 0 ? -in->altitude : in->altitude;
        put_rationals(data, EXIF_IFD_GPS, GPS_ALTITUDE, &altitude, 1, 100);
    }
    if (in->has_gps_timestamp) {
        put_rationals(data, EXIF_IFD_GPS, GPS_TIME_STAMP, in->gps_time_stamp, 3, 1000);
        put_ascii(data, EXIF_IFD_GPS, GPS_DATE_STAMP, in->gps_date_stamp);
    }
    if (in->has_gps_direction) put_rationals(data, EXIF_IFD_GPS, GPS_IMG_DIRECTION, &in->gps_direction, 1, 100);
    if (in->has_horizontal_error) put_rationals(data, EXIF_IFD_GPS, GPS_H_POSITIONING_ERROR, &in->horizontal_error, 1, 100);

    unsigned char *bytes = NULL;
    unsigned int size = 0;
    exif_data_save_data(data, &bytes, &size);
    exif_data_unref(data);
    if (bytes == NULL || size == 0) return -1;
    // libexif allocates with malloc; hand back glib memory so pm_free fits everything.
    *out = g_memdup2(bytes, size);
    *length = size;
    free(bytes);
    return 0;
}
