import FocusText
import FoundationEssentials

/// One content line of an iCalendar object (RFC 5545 section 3.1): `NAME;PARAM=v:value`.
package struct ContentLine: Sendable, Equatable {
    /// Upper-cased.
    package var name: String
    /// Parameter names upper-cased, values without their quotes.
    package var parameters: [String: String]
    /// As written (TEXT values still escaped).
    package var value: String

    package init(name: String, parameters: [String: String], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }
}

/// A component's own properties (not those of components inside it), by name.
package struct ICSProperties: Sendable {
    package var component: String
    package var lines: [ContentLine]

    package func first(_ name: String) -> ContentLine? { lines.first { $0.name == name } }
    package func value(_ name: String) -> String? { first(name)?.value }
    /// A TEXT value unescaped (RFC 5545 section 3.3.11).
    package func text(_ name: String) -> String? { value(name).map(ICSText.unescape) }
}

/// Content lines one by one, for readers that keep what they do not know (sync's calendar
/// objects, written back over what another program wrote): unfolding and TEXT unescaping by
/// the rules `ICSReader` reads a file with (`ICSUnfolder`, `ICSValueParser.unescapeText`), so
/// that a calendar object reads the same whichever path reads it. (Writing is `ICSWriter`.)
package enum ICSText {
    /// The unfolded lines of `data`, parsed; lines that do not parse are skipped.
    package static func lines(_ data: Data) -> [ContentLine] {
        unfolded(data).compactMap(parse)
    }

    /// The logical lines of `data`, unfolded as `ICSReader` unfolds them (`ICSUnfolder`): the
    /// line ends and continuation lines of RFC 5545 section 3.1, a UTF-8 BOM skipped, a blank
    /// line ending a logical line, a continuation line with nothing to continue ignored.
    package static func unfolded(_ data: Data) -> [String] {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var unfolder = ICSUnfolder(bytes)
            var lines: [String] = []
            var current: [UInt8] = []
            var open = false
            func close() {
                if open { lines.append(String(decoding: current, as: UTF8.self)) }
                open = false
            }
            while let line = unfolder.next() {
                if line.continuation {
                    if open { current.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line.range])) }
                    continue
                }
                close()
                guard !line.range.isEmpty else { continue }
                open = true
                current = Array(UnsafeBufferPointer(rebasing: bytes[line.range]))
            }
            close()
            return lines
        }
    }

    /// `NAME;P=v;Q="a:b":value`.
    package static func parse(_ line: String) -> ContentLine? {
        var name = ""
        var parameters: [String: String] = [:]
        var index = line.startIndex
        while index < line.endIndex, line[index] != ";", line[index] != ":" {
            name.append(line[index])
            index = line.index(after: index)
        }
        guard !name.isEmpty, index < line.endIndex else { return nil }
        while index < line.endIndex, line[index] == ";" {
            index = line.index(after: index)
            var key = ""
            while index < line.endIndex, line[index] != "=", line[index] != ":", line[index] != ";" {
                key.append(line[index])
                index = line.index(after: index)
            }
            var value = ""
            if index < line.endIndex, line[index] == "=" {
                index = line.index(after: index)
                var quoted = false
                while index < line.endIndex {
                    let c = line[index]
                    if c == "\"" {
                        quoted.toggle()
                    } else if !quoted, c == ";" || c == ":" {
                        break
                    } else {
                        value.append(c)
                    }
                    index = line.index(after: index)
                }
            }
            parameters[key.uppercased()] = value
        }
        guard index < line.endIndex, line[index] == ":" else { return nil }
        return ContentLine(name: name.uppercased(), parameters: parameters, value: String(line[line.index(after: index)...]))
    }

    /// The properties of the first component named one of `names`, found anywhere.
    package static func firstComponent(_ lines: [ContentLine], named names: Set<String>) -> ICSProperties? {
        var depth = 0
        var found: ICSProperties?
        var foundDepth = 0
        for line in lines {
            if line.name == "BEGIN" {
                depth += 1
                if found == nil, names.contains(line.value.uppercased()) {
                    found = ICSProperties(component: line.value.uppercased(), lines: [])
                    foundDepth = depth
                }
            } else if line.name == "END" {
                if found != nil, depth == foundDepth { return found }
                depth -= 1
            } else if found != nil, depth == foundDepth {
                found?.lines.append(line)
            }
        }
        return nil  // never closed: not a whole component
    }

    /// RFC 5545 section 3.3.11, as `ICSReader` reads SUMMARY and DESCRIPTION
    /// (`ICSValueParser.unescapeText`: a backslash that ends the value is kept).
    package static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        return ICSValueParser.unescapeText(ArraySlice(value.utf8))
    }
}

/// The physical lines of iCalendar text (RFC 5545 section 3.1), for every reader in this module:
/// a line ends at CRLF, LF or a bare CR (old Mac exporters); a UTF-8 BOM is skipped; a line
/// that starts with a space or a tab continues the one before it (without that first byte).
struct ICSUnfolder {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// The number of the physical line `next()` returned last (the first is 1).
    private(set) var physical = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// The next physical line: its bytes (without the line end, and without the leading space
    /// or tab of a continuation line) and whether it continues the line before it.
    @inline(__always)
    mutating func next() -> (range: Range<Int>, continuation: Bool)? {
        let p = bytes
        let n = p.count
        let r = position
        guard r < n else { return nil }
        var e = r
        while e < n, p[e] != 10, p[e] != 13 { e += 1 }
        physical += 1
        position = e < n && p[e] == 13 && e + 1 < n && p[e + 1] == 10 ? e + 2 : min(e + 1, n)
        if e > r, p[r] == 32 || p[r] == 9 { return ((r + 1)..<e, true) }
        return (r..<e, false)
    }
}
