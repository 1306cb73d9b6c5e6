import Foundation
import GRDB

/// Reads that never trap. The database is a file people may edit by hand (`sqlite3`), and
/// SQLite keeps whatever type a value was written with, while GRDB's typed subscripts
/// (`row["title"] as String`) stop the process on a mismatch. Every value read here converts
/// the way SQLite's own C API does: text from a blob is its UTF-8 (invalid bytes become
/// U+FFFD), text from a number is its digits, a number from text is its leading number (else 0),
/// a real is truncated to an integer within range, and NULL is "" or 0 where a value is required.
extension Row {
    func value(_ index: Int) -> DatabaseValue { self[index] as DatabaseValue? ?? .null }
    func value(_ column: String) -> DatabaseValue { self[column] as DatabaseValue? ?? .null }

    func text(_ index: Int) -> String { Row.text(value(index)) ?? "" }
    func text(_ column: String) -> String { Row.text(value(column)) ?? "" }
    func optionalText(_ index: Int) -> String? { Row.text(value(index)) }
    func optionalText(_ column: String) -> String? { Row.text(value(column)) }

    func int64(_ index: Int) -> Int64 { Row.int64(value(index)) ?? 0 }
    func int64(_ column: String) -> Int64 { Row.int64(value(column)) ?? 0 }
    func optionalInt64(_ index: Int) -> Int64? { Row.int64(value(index)) }
    func optionalInt64(_ column: String) -> Int64? { Row.int64(value(column)) }

    func int(_ index: Int) -> Int { Int(int64(index)) }
    func int(_ column: String) -> Int { Int(int64(column)) }
    func optionalInt(_ index: Int) -> Int? { optionalInt64(index).map { Int($0) } }
    func optionalInt(_ column: String) -> Int? { optionalInt64(column).map { Int($0) } }

    func double(_ index: Int) -> Double {
        switch value(index).storage {
        case let .double(d): return d
        case let .int64(i): return Double(i)
        default: return Double(int64(index))
        }
    }

    func bool(_ index: Int) -> Bool { int64(index) != 0 }
    func bool(_ column: String) -> Bool { int64(column) != 0 }

    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case let .string(s): return s
        case let .blob(data): return String(decoding: data, as: UTF8.self)
        case let .int64(i): return String(i)
        case let .double(d): return String(d)
        }
    }

    static func int64(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .null: return nil
        case let .int64(i): return i
        case let .double(d): return clamped(d)
        case let .string(s): return leadingNumber(s)
        case .blob: return 0
        }
    }

    private static func clamped(_ d: Double) -> Int64 {
        guard d.isFinite else { return d > 0 ? .max : (d < 0 ? .min : 0) }
        if d >= 9.2e18 { return .max }
        if d <= -9.2e18 { return .min }
        return Int64(d)
    }

    /// `"42abc"` → 42, `" -7"` → -7, `"1.5e3"` → 1500, `"abc"` → 0: SQLite's own text-to-integer reading.
    private static func leadingNumber(_ s: String) -> Int64 {
        let trimmed = s.drop { $0 == " " || $0 == "\t" }
        var end = trimmed.startIndex
        for c in trimmed {
            guard c.isASCII, c.isNumber || "+-.eE".contains(c) else { break }
            end = trimmed.index(after: end)
        }
        var candidate = trimmed[..<end]
        while !candidate.isEmpty {
            if let d = Double(candidate) { return clamped(d) }
            candidate = candidate.dropLast()
        }
        return 0
    }
}
