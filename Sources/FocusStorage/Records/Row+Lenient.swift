import FocusCore
import FoundationEssentials
import FocusSQLite

/// The one checked conversion of every number focus reads from its database.
///
/// The database is a file people may edit by hand (`sqlite3`) or bring back from anywhere
/// (`focus restore`), and SQLite keeps whatever type and size a value was written with, while
/// Swift stops the process on an arithmetic overflow or an out-of-range conversion. So every
/// number is read in two steps, here and nowhere else:
///
/// 1. converted the way SQLite's own C API converts (a real is truncated and saturates at the
///    64-bit bounds, text reads as its leading number or 0, a blob as 0, NULL as nil);
/// 2. clamped to the domain of its column (`Domain`), chosen so that no arithmetic done with
///    it afterwards (sums of a history, products in percentages, local-time conversion,
///    formatting) can overflow.
///
/// `focus doctor` and `focus restore` list the stored values outside these domains
/// (`AppDatabase.outOfRangeValues`). Only what SQLite computes itself and cannot be edited into
/// another type is read without it: `count(*)`, `PRAGMA user_version`, the ids of INTEGER
/// PRIMARY KEY columns (rowids are always integers).
package enum StoredNumber {
    /// What a column holds, and so the range its values are read within (README, "Hostile input").
    package enum Domain: Sendable, Equatable {
        /// A row id: any 64-bit integer but the lowest (ids are only compared and shown; the
        /// range is symmetric, so negating one never overflows, and the stats' id tables keep
        /// `Int64.min` as their empty-slot mark).
        case id
        /// An instant in Unix seconds: 0001-01-01T00:00:00Z ... 9999-12-31T23:59:59Z.
        case instant
        /// A length of time in seconds: 0 ... 100 years (36,525 days).
        case seconds
        /// A length that is never 0 (an estimate, an attention span): 1 s ... 100 years.
        case positiveSeconds
        /// A number of things: 0 ... 2,147,483,647.
        case count
        /// A count that is at least 1 (a running session's cycles).
        case positiveCount
        /// 0 or 1; read as "not 0".
        case flag
        /// Minutes after local midnight: 0 ... 1439.
        case minuteOfDay
        /// A day number (days since 1970-01-01) within the instants' years.
        case dayNumber
        /// A subtask's priority: -1 (low), 0 (normal) or 1 (high).
        case priority

        package var range: ClosedRange<Int64> {
            switch self {
            case .id: return (Int64.min + 1)...Int64.max
            case .instant: return StoredNumber.instants
            case .seconds: return 0...36_525 * 86_400
            case .positiveSeconds: return 1...36_525 * 86_400
            case .count: return 0...Int64(Int32.max)
            case .positiveCount: return 1...Int64(Int32.max)
            case .flag: return 0...1
            case .minuteOfDay: return 0...1439
            case .dayNumber: return StoredNumber.floorDiv(instants.lowerBound, 86_400)...StoredNumber.floorDiv(instants.upperBound, 86_400)
            case .priority: return -1...1
            }
        }

        /// How `focus doctor` names the domain to a person.
        package var summary: String {
            switch self {
            case .id: return "a whole number above -9223372036854775808"
            case .instant: return "an instant in the years 0001-9999"
            case .seconds: return "a duration of 0 to 100 years in seconds"
            case .positiveSeconds: return "a duration of 1 second to 100 years in seconds"
            case .count: return "a count of 0 to 2147483647"
            case .positiveCount: return "a count of 1 to 2147483647"
            case .flag: return "0 or 1"
            case .minuteOfDay: return "a minute of the day, 0 to 1439"
            case .dayNumber: return "a day in the years 0001-9999"
            case .priority: return "-1, 0 or 1 (low, normal, high)"
            }
        }
    }

    /// 0001-01-01T00:00:00Z ... 9999-12-31T23:59:59Z in Unix seconds: every instant focus reads.
    package static let instants: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// `value` within `domain`.
    @inline(__always)
    package static func clamp(_ value: Int64, _ domain: Domain) -> Int64 {
        let r = domain.range
        return min(max(value, r.lowerBound), r.upperBound)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a / b - (a % b < 0 ? 1 : 0) }

    /// The longest session the log keeps (a forgotten timer: 31 days; README, "Sessions longer
    /// than a day").
    package static let longestSession: Int64 = SessionRecord.maximumLengthSeconds

    /// A session's start and end within the rules of its table (the end from the start to
    /// `longestSession` after it), from the stored values (nil for NULL): what is read is then what the store
    /// would accept back. The instant that was in range stays: a start out of range with an end
    /// in range is moved to the end (at most a day before it), else the end to the start.
    package static func session(start rawStart: Int64?, end rawEnd: Int64?) -> (start: Int64, end: Int64) {
        let start = clamp(rawStart ?? 0, .instant), end = clamp(rawEnd ?? 0, .instant)
        if start != rawStart, end == rawEnd {
            return (min(max(start, end - longestSession), end), end)
        }
        return (start, min(max(end, start), start + longestSession))
    }

    /// A block's end within the rules of its table: after its start (`endedAt > startedAt`).
    package static func blockEnd(start: Int64, end: Int64) -> Int64 { max(end, start + 1) }
}

/// A column of a `Row`, by position or by name: `row.date(3)`, `row.date("createdAt")`.
package enum RowColumn: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    case index(Int)
    case name(String)
    package init(integerLiteral value: Int) { self = .index(value) }
    package init(stringLiteral value: String) { self = .name(value) }
}

/// Typed reads of stored values that never trap: numbers through `StoredNumber`, text as SQLite
/// converts it (text from a blob is its UTF-8, invalid bytes becoming U+FFFD; from a number, its
/// digits). `Row`'s non-optional typed subscripts (`row["due"] as Int64`) stop the process on a
/// NULL or a missing column, so they are not used on stored data.
package protocol StoredColumns {
    associatedtype Column
    /// The value as SQLite converts it to an integer, before any domain; nil for NULL.
    func storedInteger(_ c: Column) -> Int64?
    /// The value as text; nil for NULL.
    func optionalText(_ c: Column) -> String?
}

extension StoredColumns {
    /// The value within `domain`; NULL as 0 (within the domain).
    package func number(_ c: Column, _ domain: StoredNumber.Domain) -> Int64 {
        StoredNumber.clamp(storedInteger(c) ?? 0, domain)
    }
    package func optionalNumber(_ c: Column, _ domain: StoredNumber.Domain) -> Int64? {
        storedInteger(c).map { StoredNumber.clamp($0, domain) }
    }

    package func id(_ c: Column) -> Int64 { number(c, .id) }
    package func optionalID(_ c: Column) -> Int64? { optionalNumber(c, .id) }

    /// An instant, in Unix seconds.
    package func unixSeconds(_ c: Column) -> Int64 { number(c, .instant) }
    package func date(_ c: Column) -> Date { Date(unixSeconds: unixSeconds(c)) }
    package func optionalDate(_ c: Column) -> Date? { optionalNumber(c, .instant).map(Date.init(unixSeconds:)) }

    /// A length of time in seconds.
    package func seconds(_ c: Column) -> Int { Int(number(c, .seconds)) }

    package func count(_ c: Column) -> Int { Int(number(c, .count)) }
    package func bool(_ c: Column) -> Bool { (storedInteger(c) ?? 0) != 0 }

    package func text(_ c: Column) -> String { optionalText(c) ?? "" }
}

extension Row: StoredColumns {
    package typealias Column = RowColumn

    func value(_ c: RowColumn) -> DatabaseValue {
        switch c {
        case let .index(i): return self[i] as DatabaseValue? ?? .null
        case let .name(n): return self[n] as DatabaseValue? ?? .null
        }
    }

    package func storedInteger(_ c: RowColumn) -> Int64? { SQLiteNumber.integer(value(c)) }
    package func optionalText(_ c: RowColumn) -> String? { Row.text(value(c)) }

    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case let .string(s): return s
        case let .blob(data): return String(decoding: data, as: UTF8.self)
        case let .int64(i): return String(i)
        case let .double(d): return String(d)
        }
    }
}

/// Column readers over SQLite's C API: for listings of thousands of rows, where copying every
/// value of every row into a `Row` costs more than the reads themselves. The numbers go
/// through the same checked conversion as every other read.
struct RawColumns: StoredColumns {
    let columns: StatementColumns

    func isNull(_ i: Int32) -> Bool { columns.isNull(i) }
    func storedInteger(_ i: Int32) -> Int64? { columns.integer(i) }
    /// SQLite's text of the value (a blob's bytes, invalid UTF-8 repaired as U+FFFD); nil for NULL.
    func optionalText(_ i: Int32) -> String? { columns.text(i) }
    /// A real column (a sum SQLite computed) as whole seconds within `domain`.
    func total(_ i: Int32, _ domain: StoredNumber.Domain) -> Int64 {
        StoredNumber.clamp(SQLiteNumber.integer(columns.real(i)), domain)
    }
}
