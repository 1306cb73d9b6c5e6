import CSQLite
import FoundationEssentials

/// SQLite's SQLITE_TRANSIENT: it copies a bound value before the call returns
/// (https://sqlite.org/c3ref/c_static.html). The C macro is a cast Swift does not import.
let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// How a connection is opened and set up.
package struct Configuration: Sendable {
    /// What a statement does when another connection holds the lock it needs.
    package enum BusyMode: Sendable {
        /// Fails at once with SQLITE_BUSY.
        case immediateError
        /// Retries for up to this many seconds (https://sqlite.org/c3ref/busy_timeout.html).
        case timeout(Double)
    }

    package var readonly = false
    package var foreignKeysEnabled = true
    package var busyMode: BusyMode = .immediateError
    /// A name for the connection, shown by nothing but a debugger.
    package var label: String?
    var setups: [@Sendable (Database) throws -> Void] = []

    package init() {}

    /// Runs `setup` on every connection right after it is opened.
    package mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        setups.append(setup)
    }
}

/// One SQLite connection. Used by one thread at a time: `DatabaseQueue` hands it out.
package final class Database {
    package let sqliteConnection: OpaquePointer
    package let configuration: Configuration
    /// Prepared statements kept for reuse, each with when it was last handed out.
    private var cache: [String: (statement: Statement, lastUse: UInt64)] = [:]
    private var uses: UInt64 = 0
    /// At most this many statements are kept: the least recently used goes first. (Unbounded, a
    /// daemon kept every multi-row INSERT it ever built: 499 of them held about 73 MB.)
    package static let statementCacheCapacity = 64

    /// Set before SQLite starts (it must be: https://sqlite.org/c3ref/config.html), by the first
    /// connection of the process.
    private static let configured: Void = { _ = focus_sqlite3_config_no_memstatus() }()

    init(path: String, configuration: Configuration) throws {
        _ = Database.configured
        var handle: OpaquePointer?
        let flags = (configuration.readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else { throw DatabaseError(code: code, connection: nil) }
        guard code == SQLITE_OK else {
            let error = DatabaseError(code: sqlite3_extended_errcode(handle), connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        sqliteConnection = handle
        self.configuration = configuration
        sqlite3_extended_result_codes(handle, 1)
        if case let .timeout(seconds) = configuration.busyMode {
            sqlite3_busy_timeout(handle, Int32(clamping: Int64((seconds * 1000).rounded())))
        }
        // SQLite leaves foreign keys off unless each connection turns them on
        // (https://sqlite.org/foreignkeys.html, section 2).
        if configuration.foreignKeysEnabled { try execute(sql: "PRAGMA foreign_keys = ON") }
        for setup in configuration.setups { try setup(self) }
        // SQLite reads nothing at open: read the schema now, so that a file that is not a
        // database, or is damaged, says so here rather than at the first statement.
        try execute(sql: "SELECT count(*) FROM sqlite_master")
    }

    private var closed = false

    deinit { close() }

    /// Finalizes the cached statements and closes the connection; nothing may use it after.
    func close() {
        guard !closed else { return }
        closed = true
        cache.removeAll()
        sqlite3_close_v2(sqliteConnection)
    }

    /// The longest text or blob, in bytes, this connection stores or binds
    /// (https://sqlite.org/c3ref/limit.html, SQLITE_LIMIT_LENGTH); longer ones fail with SQLITE_TOOBIG.
    package var lengthLimit: Int {
        get { Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_LENGTH, -1)) }
        set { sqlite3_limit(sqliteConnection, SQLITE_LIMIT_LENGTH, Int32(clamping: newValue)) }
    }

    /// Whether a transaction is open (https://sqlite.org/c3ref/get_autocommit.html).
    package var isInsideTransaction: Bool { sqlite3_get_autocommit(sqliteConnection) == 0 }
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(sqliteConnection) }
    /// Rows the last INSERT, UPDATE or DELETE changed.
    package var changesCount: Int { Int(sqlite3_changes(sqliteConnection)) }

    /// A new prepared statement for the first statement of `sql`.
    package func makeStatement(sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement kept for reuse, for SQL run again and again. The cache holds at most
    /// `statementCacheCapacity` statements; one evicted while a caller still holds it stays
    /// valid for that caller.
    package func cachedStatement(sql: String) throws -> Statement {
        uses += 1
        if let entry = cache[sql] {
            cache[sql] = (entry.statement, uses)
            return entry.statement
        }
        let statement = try Statement(database: self, sql: sql)
        if cache.count >= Database.statementCacheCapacity, let oldest = cache.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            cache.removeValue(forKey: oldest.key)
        }
        cache[sql] = (statement, uses)
        return statement
    }

    /// How many prepared statements the cache holds now.
    package var cachedStatementCount: Int { cache.count }

    /// Runs every statement of `sql` in turn, binding `arguments` to their parameters in order.
    package func execute(sql: String, arguments: StatementArguments = []) throws {
        var used = 0
        var text = sql
        try text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let end = base + utf8.count
            var cursor = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            let stop = UnsafeRawPointer(end).assumingMemoryBound(to: CChar.self)
            while cursor < stop {
                var stmt: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(sqliteConnection, cursor, Int32(stop - cursor), &stmt, &tail)
                guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: sqliteConnection, sql: sql) }
                guard let stmt else { break } // only whitespace or comments were left
                defer { sqlite3_finalize(stmt) }
                let count = Int(sqlite3_bind_parameter_count(stmt))
                guard used + count <= arguments.values.count else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.values.count)", sql: sql)
                }
                try Statement.bind(stmt, arguments.values[used..<(used + count)], connection: sqliteConnection, sql: sql)
                used += count
                while true {
                    let step = sqlite3_step(stmt)
                    if step == SQLITE_DONE { break }
                    if step != SQLITE_ROW { throw DatabaseError(code: step, connection: sqliteConnection, sql: sql) }
                }
                guard let tail else { break }
                cursor = tail
            }
        }
        guard used == arguments.values.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.values.count)", sql: sql)
        }
    }

    /// Runs `body` in a transaction of `kind`: committed when it returns, rolled back when it
    /// throws (https://sqlite.org/lang_transaction.html).
    package func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        guard !isInsideTransaction else {
            // SQLite has no nested BEGIN; the outer transaction is left as it was.
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a transaction cannot begin inside another on the same connection")
        }
        try execute(sql: kind.begin)
        let result: T
        do {
            result = try body()
            try execute(sql: "COMMIT TRANSACTION")
        } catch {
            // A failed COMMIT (a full disk, SQLITE_BUSY) may leave the transaction open.
            if isInsideTransaction { try? execute(sql: "ROLLBACK TRANSACTION") }
            throw error
        }
        return result
    }

    /// Switches the database file to write-ahead logging, unless it is in WAL mode already
    /// (https://sqlite.org/wal.html, "Activating And Configuring WAL Mode"), waiting for other
    /// connections as long as the busy timeout allows.
    ///
    /// The switch reads the file's header under a shared lock and then needs the write lock. When
    /// another connection holds that (one migrating a new file, or switching it too), SQLite
    /// returns SQLITE_BUSY at once instead of calling the busy handler, since waiting while
    /// holding the shared lock could deadlock (https://sqlite.org/c3ref/busy_handler.html). The
    /// failed statement ends its read, so the other connection can finish: this tries again
    /// until the busy timeout has passed, and finds the file in WAL mode when the other switched it.
    package func switchToWAL() throws {
        var timeout: Duration = .zero
        if case let .timeout(seconds) = configuration.busyMode { timeout = .milliseconds(Int64((seconds * 1000).rounded())) }
        let deadline = ContinuousClock.now + timeout
        var pause: Int32 = 1
        while true {
            do {
                if try String.fetchOne(self, sql: "PRAGMA journal_mode") == "wal" { return }
                try execute(sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && !isInsideTransaction && ContinuousClock.now < deadline {
                sqlite3_sleep(pause)
                pause = min(pause * 2, 50)
            }
        }
    }

    package enum TransactionKind: Sendable {
        case deferred, immediate
        var begin: String { self == .deferred ? "BEGIN DEFERRED TRANSACTION" : "BEGIN IMMEDIATE TRANSACTION" }
    }
}

/// A prepared statement (https://sqlite.org/c3ref/stmt.html).
package final class Statement {
    package let sqliteStatement: OpaquePointer
    package let sql: String
    let connection: OpaquePointer

    /// Prepares `sql`, which must hold exactly one statement: text after it other than spaces and
    /// comments is refused (it would be silently ignored); `Database.execute(sql:)` runs several.
    init(database: Database, sql: String) throws {
        var stmt: OpaquePointer?
        var trailing: OpaquePointer?
        var text = sql
        let code = text.withUTF8 { utf8 -> Int32 in
            guard let base = utf8.baseAddress else { return sqlite3_prepare_v2(database.sqliteConnection, "", 0, &stmt, nil) }
            let start = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(database.sqliteConnection, start, Int32(utf8.count), &stmt, &tail)
            guard code == SQLITE_OK, let tail else { return code }
            let left = Int32(utf8.count - (tail - start))
            // Only spaces and comments prepare to no statement.
            if left > 0, sqlite3_prepare_v2(database.sqliteConnection, tail, left, &trailing, nil) != SQLITE_OK || trailing != nil {
                return SQLITE_MISUSE
            }
            return code
        }
        if let trailing { sqlite3_finalize(trailing) }
        guard code == SQLITE_OK else {
            if let stmt { sqlite3_finalize(stmt) }
            if code == SQLITE_MISUSE {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the SQL holds more than one statement; run it with execute(sql:)", sql: sql)
            }
            throw DatabaseError(code: code, connection: database.sqliteConnection, sql: sql)
        }
        guard let stmt else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "empty statement", sql: sql) }
        sqliteStatement = stmt
        connection = database.sqliteConnection
        self.sql = sql
    }

    deinit { sqlite3_finalize(sqliteStatement) }

    package var columnCount: Int { Int(sqlite3_column_count(sqliteStatement)) }
    package var columnNames: [String] {
        (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(sqliteStatement, $0)) }
    }

    /// Resets the statement and binds `arguments` to its parameters.
    package func setArguments(_ arguments: StatementArguments) throws {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
        guard Int(sqlite3_bind_parameter_count(sqliteStatement)) == arguments.values.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.values.count)", sql: sql)
        }
        try Statement.bind(sqliteStatement, arguments.values[...], connection: connection, sql: sql)
    }

    /// Binds `arguments` without checking their number against the parameters' (the caller
    /// built both from one list): a missing one is NULL. A value SQLite refuses (too big) throws.
    package func setUncheckedArguments(_ arguments: StatementArguments) throws {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
        let n = min(arguments.values.count, Int(sqlite3_bind_parameter_count(sqliteStatement)))
        try Statement.bind(sqliteStatement, arguments.values[..<n], connection: connection, sql: sql)
    }

    /// Runs the statement to its end, with `arguments`, or else with those already bound.
    package func execute(arguments: StatementArguments? = nil) throws {
        if let arguments { try setArguments(arguments) } else { reset() }
        defer { reset() }
        while try step() {}
    }

    /// Puts the statement back to its start, keeping its bindings.
    package func reset() { sqlite3_reset(sqliteStatement) }

    /// Steps to the next row: true on a row (read its columns from `sqliteStatement`), false at
    /// the end. For loops over thousands of rows, where copying each into a `Row` costs more
    /// than reading the columns wanted.
    package func step() throws -> Bool {
        let code = sqlite3_step(sqliteStatement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw DatabaseError(code: code, connection: connection, sql: sql)
    }

    static func bind(_ stmt: OpaquePointer, _ values: ArraySlice<DatabaseValue>, connection: OpaquePointer, sql: String) throws {
        var index: Int32 = 1
        for value in values {
            let code: Int32
            switch value.storage {
            case .null: code = sqlite3_bind_null(stmt, index)
            case let .int64(i): code = sqlite3_bind_int64(stmt, index, i)
            case let .double(d): code = sqlite3_bind_double(stmt, index, d)
            case var .string(s):
                // A NULL pointer would bind NULL, so the empty string gets one of its own.
                code = s.isEmpty
                    ? sqlite3_bind_text(stmt, index, "", 0, transient)
                    : s.withUTF8 { sqlite3_bind_text64(stmt, index, $0.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, UInt64($0.count), transient, UInt8(SQLITE_UTF8)) }
            case let .blob(data):
                code = data.isEmpty
                    ? sqlite3_bind_zeroblob(stmt, index, 0)
                    : data.withUnsafeBytes { sqlite3_bind_blob64(stmt, index, $0.baseAddress, UInt64($0.count), transient) }
            }
            guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: connection, sql: sql) }
            index += 1
        }
    }
}
