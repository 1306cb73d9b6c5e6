import CSQLite

/// An SQLite result code, primary or extended (https://sqlite.org/rescode.html).
package struct ResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package var rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended one.
    package var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }
    package var description: String { "\(rawValue)" }

    package static let SQLITE_OK = ResultCode(rawValue: CSQLite.SQLITE_OK)
    package static let SQLITE_ERROR = ResultCode(rawValue: CSQLite.SQLITE_ERROR)
    package static let SQLITE_PERM = ResultCode(rawValue: CSQLite.SQLITE_PERM)
    package static let SQLITE_ABORT = ResultCode(rawValue: CSQLite.SQLITE_ABORT)
    package static let SQLITE_BUSY = ResultCode(rawValue: CSQLite.SQLITE_BUSY)
    package static let SQLITE_LOCKED = ResultCode(rawValue: CSQLite.SQLITE_LOCKED)
    package static let SQLITE_NOMEM = ResultCode(rawValue: CSQLite.SQLITE_NOMEM)
    package static let SQLITE_READONLY = ResultCode(rawValue: CSQLite.SQLITE_READONLY)
    package static let SQLITE_INTERRUPT = ResultCode(rawValue: CSQLite.SQLITE_INTERRUPT)
    package static let SQLITE_IOERR = ResultCode(rawValue: CSQLite.SQLITE_IOERR)
    package static let SQLITE_CORRUPT = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT)
    package static let SQLITE_FULL = ResultCode(rawValue: CSQLite.SQLITE_FULL)
    package static let SQLITE_CANTOPEN = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN)
    package static let SQLITE_SCHEMA = ResultCode(rawValue: CSQLite.SQLITE_SCHEMA)
    package static let SQLITE_CONSTRAINT = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT)
    package static let SQLITE_MISMATCH = ResultCode(rawValue: CSQLite.SQLITE_MISMATCH)
    package static let SQLITE_MISUSE = ResultCode(rawValue: CSQLite.SQLITE_MISUSE)
    package static let SQLITE_AUTH = ResultCode(rawValue: CSQLite.SQLITE_AUTH)
    package static let SQLITE_RANGE = ResultCode(rawValue: CSQLite.SQLITE_RANGE)
    package static let SQLITE_TOOBIG = ResultCode(rawValue: CSQLite.SQLITE_TOOBIG)
    package static let SQLITE_NOTADB = ResultCode(rawValue: CSQLite.SQLITE_NOTADB)
    // Extended constraint codes (SQLITE_CONSTRAINT | n << 8).
    package static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (1 << 8))
    package static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (3 << 8))
    package static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (5 << 8))
    package static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (6 << 8))
    package static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (7 << 8))
    package static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (8 << 8))
}

/// An error SQLite reported: its code, its message, and the statement that failed.
package struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (focus turns extended codes on for every connection).
    package var extendedResultCode: ResultCode
    package var message: String?
    package var sql: String?

    package init(resultCode: ResultCode = .SQLITE_ERROR, message: String? = nil, sql: String? = nil) {
        self.extendedResultCode = resultCode
        self.message = message
        self.sql = sql
    }

    /// The error of the last call on `connection` that failed with `code`.
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(resultCode: ResultCode(rawValue: code), message: message ?? String(cString: sqlite3_errstr(code)), sql: sql)
    }

    /// The primary result code.
    package var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    package var description: String {
        var text = "SQLite error \(resultCode.rawValue)"
        if let message { text += ": \(message)" }
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
