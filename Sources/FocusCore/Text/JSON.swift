import FocusText
import FoundationEssentials

/// The one JSON value (RFC 8259): what every `--json` output writes and what focus reads whole
/// (Timewarrior and Watson entries, `JSONLineDecoder.decodeValue`). Object keys stay in the
/// order they were written, so every `--json` output has the stable key order the contract
/// documents.
package indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    package static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object (the first, when a file repeats it); nil otherwise.
    package subscript(key: String) -> JSON? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The value of `.int` or `.double` (a number read from a file is a `.double`).
    package var number: Double? {
        switch self {
        case let .int(i): return Double(i)
        case let .double(d): return d
        default: return nil
        }
    }

    /// What kind of value this is, for error messages ("a number").
    package var kind: String {
        switch self {
        case .string: return "text"
        case .int, .double: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// `.string` or `.null`.
    package static func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    /// `.int` or `.null`.
    package static func optional(_ i: Int?) -> JSON { i.map(JSON.int) ?? .null }
    package static func optional(_ i: Int64?) -> JSON { i.map { .int(Int($0)) } ?? .null }

    /// Compact (one line) or pretty (two-space indent) text.
    package func rendered(pretty: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(into: &out, pretty: pretty, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Written as bytes: appending small strings to a String cost a stats report's JSON
    /// several times the work of the figures themselves.
    private func write(into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case let .int(i): InterchangeWriter.integer(i, to: &out)
        case let .double(d):
            if d.isFinite {
                if d == d.rounded(), abs(d) < 1e15 { InterchangeWriter.integer(Int(d), to: &out) } else { out.append(contentsOf: String(d).utf8) }
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case let .string(s): JSONBytes.string(s, to: &out)
        case let .array(items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(0x5B)
            var first = true
            for item in items {
                JSON.separate(&out, first: &first, pretty: pretty, indent: indent + 1)
                item.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            JSON.close(&out, pretty: pretty, indent: indent)
            out.append(0x5D)
        case let .object(pairs):
            if pairs.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(0x7B)
            var first = true
            for (key, value) in pairs {
                JSON.separate(&out, first: &first, pretty: pretty, indent: indent + 1)
                JSONBytes.string(key, to: &out)
                out.append(0x3A)
                out.append(0x20)
                value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            JSON.close(&out, pretty: pretty, indent: indent)
            out.append(0x7D)
        }
    }

    /// `, ` between items (`,` and a new indented line when pretty).
    private static func separate(_ out: inout [UInt8], first: inout Bool, pretty: Bool, indent: Int) {
        if !first { out.append(0x2C); if !pretty { out.append(0x20) } }
        first = false
        if pretty { newline(&out, indent: indent) }
    }

    private static func close(_ out: inout [UInt8], pretty: Bool, indent: Int) {
        if pretty { newline(&out, indent: indent) }
    }

    private static func newline(_ out: inout [UInt8], indent: Int) {
        out.append(0x0A)
        for _ in 0..<(indent * 2) { out.append(0x20) }
    }
}
