import FoundationEssentials

/// Reads one JSON Lines line: an object whose known keys become `RawFields`. Unknown keys are
/// skipped whatever their value. Strict RFC 8259 otherwise, read byte by byte (no Foundation
/// JSON objects: a hundred thousand lines must parse in a fraction of a second).
package enum JSONLineDecoder {
    /// Nesting deeper than this in an unknown key's value is refused.
    static let maximumDepth = 64

    package static func decode(_ line: UnsafeBufferPointer<UInt8>) throws(InterchangeIssue) -> RawFields {
        var reader = Reader(bytes: line)
        return try reader.object()
    }

    package static func decode(_ line: String) throws(InterchangeIssue) -> RawFields {
        var line = line
        let result: Result<RawFields, InterchangeIssue> = line.withUTF8 { bytes in
            do throws(InterchangeIssue) { return .success(try decode(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads one whole JSON value (an entry of a JSON array file, which may span lines).
    /// Errors name the position as "line L, column C" counted from the value's first line
    /// plus `firstLine - 1`, so they point into the file.
    package static func decodeValue(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int) throws(InterchangeIssue) -> JSON {
        var reader = Reader(bytes: bytes)
        reader.firstLine = firstLine
        reader.skipSpace()
        let value = try reader.anyValue(depth: 0)
        reader.skipSpace()
        guard reader.i == bytes.count else { throw reader.fail("unexpected text after the value") }
        return value
    }

    package static func decodeValue(_ text: String) throws(InterchangeIssue) -> JSON {
        var text = text
        let result: Result<JSON, InterchangeIssue> = text.withUTF8 { bytes in
            do throws(InterchangeIssue) { return .success(try decodeValue(bytes, firstLine: 1)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        /// Reused for strings with escapes.
        var scratch: [UInt8] = []
        /// Set when reading a value that may span lines: positions are then given as a line
        /// of the file and a column.
        var firstLine: Int?

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func fail(_ what: String) -> InterchangeIssue {
            if let firstLine {
                var line = firstLine
                var column = 1
                for k in 0..<min(i, bytes.count) {
                    if bytes[k] == 0x0A { line += 1; column = 1 } else { column += 1 }
                }
                if i >= bytes.count { return InterchangeIssue("bad JSON: \(what) at the end of the entry (line \(line))") }
                return InterchangeIssue("bad JSON: \(what) at line \(line), column \(column)")
            }
            if i >= bytes.count { return InterchangeIssue("bad JSON: \(what) at the end of the line") }
            return InterchangeIssue("bad JSON: \(what) at column \(i + 1)")
        }

        /// Any value, kept (objects keep their keys in order; a repeated key keeps the last).
        mutating func anyValue(depth: Int) throws(InterchangeIssue) -> JSON {
            guard depth < JSONLineDecoder.maximumDepth else { throw fail("nested too deeply") }
            skipSpace()
            guard i < bytes.count else { throw fail("expected a value") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(String, JSON)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
                    let key = try string()
                    try expect(UInt8(ascii: ":"), "':' after the key")
                    let value = try anyValue(depth: depth + 1)
                    if let k = members.firstIndex(where: { $0.0 == key }) { members[k].1 = value } else { members.append((key, value)) }
                    skipSpace()
                    guard i < bytes.count else { throw fail("expected ',' or '}'") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var elements: [JSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                while true {
                    elements.append(try anyValue(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("expected ',' or ']'") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                    throw fail("expected ',' or ']'")
                }
            default:
                switch try value() {
                case let .string(s): return .string(s)
                case let .number(d), let .writtenNumber(d, _): return .double(d)
                case let .bool(b): return .bool(b)
                default: return .null
                }
            }
        }

        mutating func skipSpace() {
            while i < bytes.count {
                let b = bytes[i]
                guard b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A else { return }
                i += 1
            }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(InterchangeIssue) {
            skipSpace()
            guard i < bytes.count, bytes[i] == byte else { throw fail("expected \(what)") }
            i += 1
        }

        mutating func object() throws(InterchangeIssue) -> RawFields {
            var fields = RawFields()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else {
                throw i < bytes.count ? fail("expected an object starting with '{'") : InterchangeIssue("bad JSON: empty line")
            }
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
            } else {
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
                    let key = try string()
                    try expect(UInt8(ascii: ":"), "':' after the key")
                    skipSpace()
                    if let field = InterchangeField(key: key) {
                        fields[field] = try field == .tags && i < bytes.count && bytes[i] == UInt8(ascii: "[")
                            ? RawValue.list(try anyValue(depth: 0)) : value()
                    } else {
                        try skipValue(depth: 0)
                    }
                    skipSpace()
                    guard i < bytes.count else { throw fail("expected ',' or '}'") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; break }
                    throw fail("expected ',' or '}'")
                }
            }
            skipSpace()
            guard i == bytes.count else { throw fail("unexpected text after the object") }
            return fields
        }

        mutating func value() throws(InterchangeIssue) -> RawValue {
            guard i < bytes.count else { throw fail("expected a value") }
            switch bytes[i] {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = i
                let d = try number()
                // Whole numbers of up to 15 digits read back exactly; others keep their text.
                if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return .number(d) }
                return .writtenNumber(d, String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "{"), UInt8(ascii: "["): try skipValue(depth: 0); return .composite
            default: throw fail("expected a value")
            }
        }

        mutating func literal(_ word: StaticString) throws(InterchangeIssue) {
            let count = word.utf8CodeUnitCount
            guard i + count <= bytes.count else { throw fail("expected a value") }
            let w = word.utf8Start
            for k in 0..<count where bytes[i + k] != w[k] { throw fail("expected a value") }
            i += count
        }

        /// A string at `bytes[i] == '"'`; UTF-8 checked, escapes decoded.
        mutating func string() throws(InterchangeIssue) -> String {
            i += 1
            let start = i
            // Fast path: no escapes.
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<i])
                    i += 1
                    guard let s = String(validating: slice, as: UTF8.self) else { throw InterchangeIssue("bad JSON: a string is not UTF-8 text") }
                    return s
                }
                if b == UInt8(ascii: "\\") { break }
                if b < 0x20 { throw fail("control character in a string (write it as \\u00XX)") }
                i += 1
            }
            guard i < bytes.count else { throw fail("unterminated string") }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: bytes[start..<i])
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    i += 1
                    guard let s = String(validating: scratch, as: UTF8.self) else { throw InterchangeIssue("bad JSON: a string is not UTF-8 text") }
                    return s
                }
                if b < 0x20 { throw fail("control character in a string (write it as \\u00XX)") }
                if b != UInt8(ascii: "\\") {
                    scratch.append(b)
                    i += 1
                    continue
                }
                i += 1
                guard i < bytes.count else { throw fail("unterminated string") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A high surrogate must be followed by an escaped low one.
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw fail("lone surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw fail("lone surrogate in \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("bad \\u escape") }
                    scratch.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    i -= 1
                    throw fail("unknown escape")
                }
            }
            throw fail("unterminated string")
        }

        mutating func hex4() throws(InterchangeIssue) -> UInt32 {
            guard i + 4 <= bytes.count else { throw fail("bad \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 0x30)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 0x61 + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 0x41 + 10)
                default: throw fail("bad \\u escape")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        /// A JSON number (RFC 8259 grammar).
        mutating func number() throws(InterchangeIssue) -> Double {
            let start = i
            var negative = false
            if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw fail("bad number") }
            var integer = 0
            var digits = 0
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                digits = 1
            } else {
                while i < bytes.count, isDigit(bytes[i]) {
                    if digits < 15 { integer = integer * 10 + Int(bytes[i] - 0x30) }
                    digits += 1
                    i += 1
                }
            }
            var simple = digits <= 15
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                simple = false
                i += 1
                guard i < bytes.count, isDigit(bytes[i]) else { throw fail("bad number") }
                while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                simple = false
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard i < bytes.count, isDigit(bytes[i]) else { throw fail("bad number") }
                while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            }
            if simple { return Double(negative ? -integer : integer) }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            guard let d = Double(text) else { throw fail("bad number") }
            return d
        }

        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

        /// Skips any value (for unknown keys and for arrays and objects).
        mutating func skipValue(depth: Int) throws(InterchangeIssue) {
            guard depth < JSONLineDecoder.maximumDepth else { throw fail("nested too deeply") }
            skipSpace()
            guard i < bytes.count else { throw fail("expected a value") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
                    _ = try string()
                    try expect(UInt8(ascii: ":"), "':' after the key")
                    try skipValue(depth: depth + 1)
                    skipSpace()
                    guard i < bytes.count else { throw fail("expected ',' or '}'") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return }
                while true {
                    try skipValue(depth: depth + 1)
                    skipSpace()
                    guard i < bytes.count else { throw fail("expected ',' or ']'") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return }
                    throw fail("expected ',' or ']'")
                }
            default:
                _ = try value()
            }
        }
    }
}
