// The fetch benchmark's lowest baseline: SQLite's C API called directly,
// with nothing around it (no Swift, no GRDB). Not part of the library.
#ifndef CBENCHSQLITE_H
#define CBENCHSQLITE_H

/// A read-only connection with the benchmark's three statements prepared.
typedef struct bench_sqlite bench_sqlite;

/// Opens `path` read-only and prepares `ids_sql` (one column of row ids, in
/// the fetch's order), `row_sql` (every column of one row, bound by id) and
/// `all_sql` (every column of every row, in the fetch's order). The columns
/// are those of `bench_sqlite_row`'s fields, in order. NULL on failure.
bench_sqlite *bench_sqlite_open(const char *path, const char *ids_sql, const char *row_sql, const char *all_sql);

/// Closes what `bench_sqlite_open` opened.
void bench_sqlite_close(bench_sqlite *connection);

/// In one read transaction: reads every row id of `ids_sql` into an array,
/// then decodes the rows at `count` positions of it with `row_sql`. Returns
/// the number of ids plus the decoded rows' pixel widths (so the work
/// cannot be optimised away), or -1 on an error.
long long bench_sqlite_fetch(bench_sqlite *connection, const int *positions, int count);

/// In one read transaction: decodes every row of `all_sql`. Returns the sum
/// of their pixel widths, or -1 on an error.
long long bench_sqlite_enumerate(bench_sqlite *connection);

#endif
