import CSQLite

/// One row of a result, copied out of the statement: its column names and values.
package final class Row: Equatable, CustomStringConvertible {
    package let columnNames: [String]
    package let databaseValues: [DatabaseValue]

    package init(columnNames: [String], databaseValues: [DatabaseValue]) {
        self.columnNames = columnNames
        self.databaseValues = databaseValues
    }

    init(_ stmt: OpaquePointer, columnNames: [String]) {
        self.columnNames = columnNames
        databaseValues = (0..<Int32(columnNames.count)).map { DatabaseValue(stmt, $0) }
    }

    /// The same columns, by name and in order, with the same values.
    package static func == (a: Row, b: Row) -> Bool {
        a.columnNames == b.columnNames && a.databaseValues == b.databaseValues
    }

    /// The index of the column named `name`: an exact match first, then one that differs only
    /// in ASCII case, as SQLite's own names of columns do (https://sqlite.org/lang_keywords.html).
    package func index(of name: String) -> Int? {
        if let i = columnNames.firstIndex(of: name) { return i }
        let key = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == key }
    }

    /// Column `index`'s value, nil when it is NULL, out of range or cannot stand for a `Value`.
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        guard databaseValues.indices.contains(index) else { return nil }
        return Value.fromDatabaseValue(databaseValues[index])
    }

    package subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value? {
        guard let i = index(of: name) else { return nil }
        return Value.fromDatabaseValue(databaseValues[i])
    }

    /// Column `index`'s value; a NULL, a missing column or a value of the wrong kind stops
    /// the process. For tests and values SQLite computes, never for stored data.
    @_disfavoredOverload
    package subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        guard let value: Value = self[index] else { fatalError("row column \(index) is not a \(Value.self): \(self)") }
        return value
    }

    @_disfavoredOverload
    package subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        guard let value: Value = self[name] else { fatalError("row column \(name) is not a \(Value.self): \(self)") }
        return value
    }

    package var description: String {
        "[" + zip(columnNames, databaseValues).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }
}

/// Rows read one at a time from a statement: `while let row = try cursor.next()`.
package final class RowCursor {
    private let statement: Statement
    private let names: [String]
    private var done = false

    init(_ statement: Statement, arguments: StatementArguments) throws {
        try statement.setArguments(arguments)
        self.statement = statement
        names = statement.columnNames
    }

    deinit { sqlite3_reset(statement.sqliteStatement) }

    package func next() throws -> Row? {
        if done { return nil }
        guard try statement.step() else {
            done = true
            sqlite3_reset(statement.sqliteStatement)
            return nil
        }
        return Row(statement.sqliteStatement, columnNames: names)
    }
}

extension Row {
    package static func fetchCursor(_ statement: Statement, arguments: StatementArguments = []) throws -> RowCursor {
        try RowCursor(statement, arguments: arguments)
    }

    package static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> RowCursor {
        try RowCursor(db.makeStatement(sql: sql), arguments: arguments)
    }

    package static func fetchAll(_ statement: Statement, arguments: StatementArguments = []) throws -> [Row] {
        let names = statement.columnNames
        return try statement.readRows(arguments, first: false) { Row($0, columnNames: names) }
    }

    package static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
    }

    package static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Row? {
        let names = statement.columnNames
        return try statement.readRows(arguments, first: true) { Row($0, columnNames: names) }.first
    }

    package static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible {
    /// The first column of every row; NULLs are left out.
    package static func fetchAll(_ statement: Statement, arguments: StatementArguments = []) throws -> [Self] {
        try statement.readRows(arguments, first: false) { fromColumn($0, 0) }.compactMap { $0 }
    }

    package static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// The first column of the first row; nil when there is no row or it is NULL.
    package static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Self? {
        try statement.readRows(arguments, first: true) { fromColumn($0, 0) }.first ?? nil
    }

    package static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }
}

extension Statement {
    /// Binds `arguments`, reads each row with `read` (the statement's row pointer) — only the
    /// first when `first` — and resets the statement.
    func readRows<T>(_ arguments: StatementArguments, first: Bool, _ read: (OpaquePointer) -> T) throws -> [T] {
        try setArguments(arguments)
        defer { reset() }
        var values: [T] = []
        while try step() {
            values.append(read(sqliteStatement))
            if first { break }
        }
        return values
    }
}
