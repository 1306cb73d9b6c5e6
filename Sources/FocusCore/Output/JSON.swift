import Foundation

/// A JSON value that keeps object keys in the order they were written, so every `--json`
/// output has the stable key order the contract documents.
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

    /// `.string` or `.null`.
    package static func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    /// `.int` or `.null`.
    package static func optional(_ i: Int?) -> JSON { i.map(JSON.int) ?? .null }
    package static func optional(_ i: Int64?) -> JSON { i.map { .int(Int($0)) } ?? .null }

    /// Compact (one line) or pretty (two-space indent) text.
    package func rendered(pretty: Bool = false) -> String {
        var out = ""
        write(into: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(into out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .int(i): out += String(i)
        case let .double(d):
            if d.isFinite {
                if d == d.rounded(), abs(d) < 1e15 { out += String(Int(d)) } else { out += String(d) }
            } else {
                out += "null"
            }
        case let .string(s): JSON.writeString(s, into: &out)
        case let .array(items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (n, item) in items.enumerated() {
                if n > 0 { out += pretty ? "," : ", " }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                item.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case let .object(pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{"
            for (n, (key, value)) in pairs.enumerated() {
                if n > 0 { out += pretty ? "," : ", " }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                JSON.writeString(key, into: &out)
                out += ": "
                value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// Escapes per RFC 8259, and further: every character `Sanitized` neutralises (C0, DEL, C1,
    /// bidirectional controls) and U+2028/U+2029 become \uXXXX, so JSON read in a terminal
    /// cannot drive it, while a JSON reader gets the text back exactly.
    package static func writeString(_ s: String, into out: inout String) {
        // Fast path: nothing to escape (the common case), copied whole.
        // (0xC2 leads C1 controls, 0xD8 U+061C, 0xE2 the bidi controls and U+2028/U+2029.)
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if Sanitized.isUnsafe(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
