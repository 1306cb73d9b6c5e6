// SQLite's C API, from Debian's libsqlite3-dev (https://sqlite.org/c3ref/intro.html).
#include <sqlite3.h>
