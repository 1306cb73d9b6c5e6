import CSQLite
import FoundationEssentials

/// One value as SQLite stores it: one of its five storage classes
/// (https://sqlite.org/datatype3.html, "Storage Classes and Datatypes").
package struct DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    package enum Storage: Sendable, Hashable {
        case null
        case int64(Int64)
        case double(Double)
        case string(String)
        case blob(Data)
    }

    package var storage: Storage

    package init(storage: Storage) { self.storage = storage }

    package static let null = DatabaseValue(storage: .null)

    package var isNull: Bool { storage == .null }

    package var description: String {
        switch storage {
        case .null: return "NULL"
        case let .int64(i): return String(i)
        case let .double(d): return String(d)
        case let .string(s): return "'\(s)'"
        case let .blob(d): return "<\(d.count) bytes>"
        }
    }

    /// Column `i` of the current row of `stmt`, copied.
    init(_ stmt: OpaquePointer, _ i: Int32) {
        switch sqlite3_column_type(stmt, i) {
        case SQLITE_INTEGER: storage = .int64(sqlite3_column_int64(stmt, i))
        case SQLITE_FLOAT: storage = .double(sqlite3_column_double(stmt, i))
        case SQLITE_TEXT: storage = .string(ColumnRead.text(stmt, i))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(stmt, i))
            storage = .blob(n == 0 ? Data() : Data(bytes: sqlite3_column_blob(stmt, i), count: n))
        default: storage = .null
        }
    }
}

/// SQLite's own conversions of a column of the current row (https://sqlite.org/c3ref/column_blob.html).
@usableFromInline
enum ColumnRead {
    @usableFromInline
    static func text(_ stmt: OpaquePointer, _ i: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, i) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, i))), as: UTF8.self)
    }
}

/// A Swift value that can be bound to a statement's parameter and read back from a column.
package protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
    /// The value from a stored one; nil when it is NULL or cannot stand for one.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
    /// Column `i` of the current row, converted the way SQLite's C API converts it; nil for NULL.
    static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> Self?
}

extension DatabaseValueConvertible {
    package static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> Self? {
        fromDatabaseValue(DatabaseValue(stmt, i))
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { self }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
    package static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> DatabaseValue? { DatabaseValue(stmt, i) }
}

/// Stored values read as integers the way SQLite converts them (https://sqlite.org/lang_expr.html,
/// "CAST expressions"): the one conversion behind every number focus reads from its database.
package enum SQLiteNumber {
    /// A real truncated toward zero, saturating at the 64-bit bounds (NaN, which SQLite never
    /// stores, as 0).
    @inlinable
    package static func integer(_ d: Double) -> Int64 {
        guard d.isFinite else { return d.isNaN ? 0 : (d > 0 ? .max : .min) }
        if d >= 9_223_372_036_854_775_807.0 { return .max }
        if d <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(d)
    }

    /// A stored value as an integer; nil for NULL, 0 for a blob.
    package static func integer(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .null: return nil
        case let .int64(i): return i
        case let .double(d): return integer(d)
        case let .string(s): return leadingNumber(s)
        case .blob: return 0
        }
    }

    /// Column `i` of the current row of `stmt` as an integer, as `integer(_: DatabaseValue)`
    /// reads the same value, without copying it first.
    @inlinable
    package static func integer(_ stmt: OpaquePointer, _ i: Int32) -> Int64? {
        switch sqlite3_column_type(stmt, i) {
        case SQLITE_INTEGER: return sqlite3_column_int64(stmt, i)
        case SQLITE_NULL: return nil
        case SQLITE_FLOAT: return integer(sqlite3_column_double(stmt, i))
        case SQLITE_TEXT: return leadingNumber(ColumnRead.text(stmt, i))
        default: return 0
        }
    }

    /// Text's leading number: `"42abc"` → 42, `" -7"` → -7, `"1.5e3"` → 1500, `"abc"` → 0.
    package static func leadingNumber(_ s: String) -> Int64 {
        let trimmed = s.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        var end = trimmed.startIndex
        for c in trimmed {
            guard c.isASCII, c.isNumber || "+-.eE".contains(c) else { break }
            end = trimmed.index(after: end)
        }
        var candidate = trimmed[..<end]
        while !candidate.isEmpty {
            if let d = Double(candidate) {
                // Whole numbers beyond a double's 53 bits keep every digit.
                if let exact = Int64(candidate) { return exact }
                return integer(d)
            }
            candidate = candidate.dropLast()
        }
        return 0
    }
}

extension Int64: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? { SQLiteNumber.integer(value) }
    package static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> Int64? {
        sqlite3_column_type(stmt, i) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, i)
    }
}

extension Int: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Int? { SQLiteNumber.integer(value).map { Int($0) } }
    package static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> Int? { Int64.fromColumn(stmt, i).map { Int($0) } }
}

extension Int32: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? { SQLiteNumber.integer(value).map { Int32(truncatingIfNeeded: $0) } }
}

extension Bool: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? { SQLiteNumber.integer(value).map { $0 != 0 } }
    package static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> Bool? { Int64.fromColumn(stmt, i).map { $0 != 0 } }
}

extension Double: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .null: return nil
        case let .int64(i): return Double(i)
        case let .double(d): return d
        case let .string(s): return Double(s) ?? 0
        case .blob: return 0
        }
    }
    package static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> Double? {
        sqlite3_column_type(stmt, i) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, i)
    }
}

extension String: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case let .string(s): return s
        case let .int64(i): return String(i)
        case let .double(d): return String(d)
        case let .blob(d): return String(decoding: d, as: UTF8.self)
        }
    }
    package static func fromColumn(_ stmt: OpaquePointer, _ i: Int32) -> String? {
        sqlite3_column_type(stmt, i) == SQLITE_NULL ? nil : ColumnRead.text(stmt, i)
    }
}

extension Data: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value.storage {
        case .null: return nil
        case let .blob(d): return d
        case let .string(s): return Data(s.utf8)
        case .int64, .double: return String.fromDatabaseValue(value).map { Data($0.utf8) }
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        value.isNull ? .some(nil) : Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}

/// The values bound to a statement's `?` parameters, in order.
package struct StatementArguments: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    package var values: [DatabaseValue]

    package init() { values = [] }
    package init(_ values: [DatabaseValue]) { self.values = values }
    package init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
        values = sequence.map { $0?.databaseValue ?? .null }
    }
    package init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        values = sequence.map(\.databaseValue)
    }
    package init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        values = elements.map { $0?.databaseValue ?? .null }
    }

    package var isEmpty: Bool { values.isEmpty }
    package var description: String { "[" + values.map(\.description).joined(separator: ", ") + "]" }

    package mutating func append(contentsOf other: StatementArguments) { values += other.values }

    package static func += (lhs: inout StatementArguments, rhs: StatementArguments) { lhs.values += rhs.values }
    package static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        StatementArguments(lhs.values + rhs.values)
    }
}
