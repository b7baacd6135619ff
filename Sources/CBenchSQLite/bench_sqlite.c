#include "CBenchSQLite.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

struct bench_sqlite {
    sqlite3 *db;
    sqlite3_stmt *ids;
    sqlite3_stmt *row;
    sqlite3_stmt *all;
};

/// Every column the engine reads of an asset, as plain C keeps it: numbers
/// in place, text copied into fixed buffers (what a C reader would do
/// instead of allocating a string per field).
typedef struct {
    long long id;
    char uuid[40];
    int media_type, media_subtypes, pixel_width, pixel_height;
    double creation_date, modification_date, added_date, duration;
    double latitude, longitude, altitude, location_date, horizontal_accuracy, course, speed;
    int is_favorite, is_hidden, source_type;
    char burst_identifier[64];
    int burst_selection_types, represents_burst, playback_style;
    char adjustment_format_identifier[64];
    double trashed_date;
    int is_front_camera, is_long_exposure, has_raw_original;
    char original_filename[256], uniform_type_identifier[64];
    int time_zone_offset;
    char camera_make[64], camera_model[64], lens_model[64];
    char content_hash[72];
    int content_version;
    char adjustment_format_version[64];
    unsigned char thumb_hash[64];
    int thumb_hash_length;
    int rating;
    double adjustment_timestamp;
    int original_resource_choice;
    int playback_variation;
} bench_sqlite_row;

static void copy_text(sqlite3_stmt *statement, int column, char *buffer, size_t size) {
    const unsigned char *text = sqlite3_column_text(statement, column);
    if (!text) {
        buffer[0] = 0;
        return;
    }
    size_t length = (size_t)sqlite3_column_bytes(statement, column);
    if (length >= size) length = size - 1;
    memcpy(buffer, text, length);
    buffer[length] = 0;
}

static void copy_blob(sqlite3_stmt *statement, int column, unsigned char *buffer, size_t size, int *length) {
    const void *bytes = sqlite3_column_blob(statement, column);
    size_t count = bytes ? (size_t)sqlite3_column_bytes(statement, column) : 0;
    if (count > size) count = size;
    if (count) memcpy(buffer, bytes, count);
    *length = (int)count;
}

/// A nullable REAL column: NaN for NULL, as the fields have no other flag.
static double real_or_nan(sqlite3_stmt *statement, int column) {
    return sqlite3_column_type(statement, column) == SQLITE_NULL ? __builtin_nan("") : sqlite3_column_double(statement, column);
}

static void decode(sqlite3_stmt *s, bench_sqlite_row *r) {
    r->id = sqlite3_column_int64(s, 0);
    copy_text(s, 1, r->uuid, sizeof r->uuid);
    r->media_type = sqlite3_column_int(s, 2);
    r->media_subtypes = sqlite3_column_int(s, 3);
    r->pixel_width = sqlite3_column_int(s, 4);
    r->pixel_height = sqlite3_column_int(s, 5);
    r->creation_date = real_or_nan(s, 6);
    r->modification_date = sqlite3_column_double(s, 7);
    r->added_date = sqlite3_column_double(s, 8);
    r->duration = sqlite3_column_double(s, 9);
    r->latitude = real_or_nan(s, 10);
    r->longitude = real_or_nan(s, 11);
    r->altitude = real_or_nan(s, 12);
    r->location_date = real_or_nan(s, 13);
    r->horizontal_accuracy = real_or_nan(s, 14);
    r->course = real_or_nan(s, 15);
    r->speed = real_or_nan(s, 16);
    r->is_favorite = sqlite3_column_int(s, 17);
    r->is_hidden = sqlite3_column_int(s, 18);
    r->source_type = sqlite3_column_int(s, 19);
    copy_text(s, 20, r->burst_identifier, sizeof r->burst_identifier);
    r->burst_selection_types = sqlite3_column_int(s, 21);
    r->represents_burst = sqlite3_column_int(s, 22);
    r->playback_style = sqlite3_column_int(s, 23);
    copy_text(s, 24, r->adjustment_format_identifier, sizeof r->adjustment_format_identifier);
    r->trashed_date = real_or_nan(s, 25);
    r->is_front_camera = sqlite3_column_int(s, 26);
    r->is_long_exposure = sqlite3_column_int(s, 27);
    r->has_raw_original = sqlite3_column_int(s, 28);
    copy_text(s, 29, r->original_filename, sizeof r->original_filename);
    copy_text(s, 30, r->uniform_type_identifier, sizeof r->uniform_type_identifier);
    r->time_zone_offset = sqlite3_column_type(s, 31) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 31);
    copy_text(s, 32, r->camera_make, sizeof r->camera_make);
    copy_text(s, 33, r->camera_model, sizeof r->camera_model);
    copy_text(s, 34, r->lens_model, sizeof r->lens_model);
    copy_text(s, 35, r->content_hash, sizeof r->content_hash);
    r->content_version = sqlite3_column_int(s, 36);
    copy_text(s, 37, r->adjustment_format_version, sizeof r->adjustment_format_version);
    copy_blob(s, 38, r->thumb_hash, sizeof r->thumb_hash, &r->thumb_hash_length);
    r->rating = sqlite3_column_int(s, 39);
    r->adjustment_timestamp = real_or_nan(s, 40);
    r->original_resource_choice = sqlite3_column_int(s, 41);
    r->playback_variation = sqlite3_column_int(s, 42);
}

bench_sqlite *bench_sqlite_open(const char *path, const char *ids_sql, const char *row_sql, const char *all_sql) {
    bench_sqlite *connection = calloc(1, sizeof *connection);
    if (!connection) return NULL;
    if (sqlite3_open_v2(path, &connection->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK
        || sqlite3_prepare_v3(connection->db, ids_sql, -1, SQLITE_PREPARE_PERSISTENT, &connection->ids, NULL) != SQLITE_OK
        || sqlite3_prepare_v3(connection->db, row_sql, -1, SQLITE_PREPARE_PERSISTENT, &connection->row, NULL) != SQLITE_OK
        || sqlite3_prepare_v3(connection->db, all_sql, -1, SQLITE_PREPARE_PERSISTENT, &connection->all, NULL) != SQLITE_OK) {
        bench_sqlite_close(connection);
        return NULL;
    }
    return connection;
}

void bench_sqlite_close(bench_sqlite *connection) {
    if (!connection) return;
    sqlite3_finalize(connection->ids);
    sqlite3_finalize(connection->row);
    sqlite3_finalize(connection->all);
    sqlite3_close(connection->db);
    free(connection);
}

long long bench_sqlite_fetch(bench_sqlite *connection, const int *positions, int count) {
    if (sqlite3_exec(connection->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) return -1;
    long long result = -1;
    size_t capacity = 1 << 16, length = 0;
    long long *ids = malloc(capacity * sizeof *ids);
    int status;
    while (ids && (status = sqlite3_step(connection->ids)) == SQLITE_ROW) {
        if (length == capacity) {
            long long *grown = realloc(ids, (capacity *= 2) * sizeof *ids);
            if (!grown) break;
            ids = grown;
        }
        ids[length++] = sqlite3_column_int64(connection->ids, 0);
    }
    sqlite3_reset(connection->ids);
    if (ids && status == SQLITE_DONE) {
        result = (long long)length;
        bench_sqlite_row row;
        for (int index = 0; index < count && result >= 0; index++) {
            if ((size_t)positions[index] >= length) { result = -1; break; }
            sqlite3_bind_int64(connection->row, 1, ids[positions[index]]);
            if (sqlite3_step(connection->row) == SQLITE_ROW) {
                decode(connection->row, &row);
                result += row.pixel_width;
            } else {
                result = -1;
            }
            sqlite3_reset(connection->row);
        }
    }
    free(ids);
    sqlite3_exec(connection->db, "COMMIT", NULL, NULL, NULL);
    return result;
}

long long bench_sqlite_enumerate(bench_sqlite *connection) {
    if (sqlite3_exec(connection->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) return -1;
    long long sum = 0;
    bench_sqlite_row row;
    int status;
    while ((status = sqlite3_step(connection->all)) == SQLITE_ROW) {
        decode(connection->all, &row);
        sum += row.pixel_width;
    }
    sqlite3_reset(connection->all);
    sqlite3_exec(connection->db, "COMMIT", NULL, NULL, NULL);
    return status == SQLITE_DONE ? sum : -1;
}
