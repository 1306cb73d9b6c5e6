// SQLite's C API, from Debian's libsqlite3-dev (https://sqlite.org/c3ref/intro.html).
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift does not call: the one option focus sets, through a
// function Swift can call (https://sqlite.org/c3ref/config.html). Memory statistics off: no
// global mutex and counters around each of SQLite's allocations (reading the schema alone
// makes a few thousand); nothing in focus reads them.
static inline int focus_sqlite3_config_no_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
