import CSQLite

/// Value-by-value binding and column reading, for the bulk paths (an import's multi-row
/// INSERTs, a calendar's half a million busy times, the small queries stats runs dozens of
/// times): `StatementArguments` and `Row` box every value, which there cost more than SQLite's
/// own work. Every result code is still checked.
extension Statement {
    /// Puts the statement back to its start with every parameter NULL again.
    package func clearBindings() {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
    }

    /// Binds an integer to parameter `index` (from 1).
    package func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(sqliteStatement, index, value))
    }

    /// Binds text to parameter `index` (from 1); SQLite copies it. A NUL inside is kept.
    package func bind(_ text: String, at index: Int32) throws {
        var text = text
        let code = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(sqliteStatement, index, "", 0, transient) }
            return sqlite3_bind_text64(sqliteStatement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                       UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
        }
        try check(code)
    }

    /// Runs `body` with `bytes` bound as text to parameter `index` without a copy (SQLITE_STATIC:
    /// the bytes must outlive every step, so the statement is reset and its bindings cleared
    /// before this returns).
    package func withText<T>(_ bytes: UnsafeRawBufferPointer, at index: Int32, _ body: () throws -> T) throws -> T {
        defer { clearBindings() }
        let code = bytes.baseAddress.map {
            sqlite3_bind_text64(sqliteStatement, index, $0.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
        } ?? sqlite3_bind_text(sqliteStatement, index, "", 0, nil)
        try check(code)
        return try body()
    }

    /// Steps a statement that returns no rows to its end and resets it; the rows it changed.
    @discardableResult
    package func run() throws -> Int {
        defer { sqlite3_reset(sqliteStatement) }
        while try step() {}
        return Int(sqlite3_changes(sqlite3_db_handle(sqliteStatement)))
    }

    /// The current row's columns, read in place (valid until the next step or reset).
    package var columns: StatementColumns { StatementColumns(stmt: sqliteStatement) }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: connection, sql: sql) }
    }
}

/// The columns of a statement's current row, read as SQLite's C API converts them
/// (https://sqlite.org/c3ref/column_blob.html), without copying the row.
package struct StatementColumns {
    let stmt: OpaquePointer

    package func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
    /// The value as an integer (SQLiteNumber's conversion); nil for NULL.
    package func integer(_ i: Int32) -> Int64? { SQLiteNumber.integer(stmt, i) }
    /// The value as a real; 0 for NULL.
    package func real(_ i: Int32) -> Double { sqlite3_column_double(stmt, i) }
    /// SQLite's text of the value (a blob's bytes, invalid UTF-8 repaired as U+FFFD); nil for NULL.
    package func text(_ i: Int32) -> String? { isNull(i) ? nil : ColumnRead.text(stmt, i) }
}
