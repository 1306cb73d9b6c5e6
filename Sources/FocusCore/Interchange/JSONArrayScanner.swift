import FoundationEssentials

/// Splits a file holding one JSON array, fed in chunks of any size, into the bytes of its
/// entries, each with its 1-based index and the line it starts on; memory holds one entry at
/// a time. Only strings, nesting and separators are tracked here: each entry is parsed by
/// `JSONLineDecoder.decodeValue` afterwards. A UTF-8 byte order mark is skipped.
package struct JSONArrayScanner {
    /// What the file should be, for the error when it is not ("a Timewarrior export").
    package let what: String

    package enum Problem: Error, Equatable {
        /// Something is wrong at this line: the sentence says what.
        case at(line: Int, reason: String)
    }

    package typealias Emit = (_ entry: UnsafeBufferPointer<UInt8>, _ index: Int, _ line: Int) throws -> Void

    private enum Phase { case before, inside, after }
    private var phase = Phase.before
    private var line = 1
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var entry: [UInt8] = []
    private var entryLine = 1
    private var entryHasValue = false
    private var index = 0
    private var seenBytes = 0

    package init(what: String) { self.what = what }

    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        var k = 0
        // A byte order mark only at the very start (it may arrive split across chunks).
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        while seenBytes < 3, k < chunk.count {
            if chunk[k] == bom[seenBytes] {
                k += 1
                seenBytes += 1
            } else if seenBytes > 0 {
                throw Problem.at(line: 1, reason: "\(what) is one JSON array starting with '[', but the file starts with something else")
            } else {
                seenBytes = 3
            }
        }
        var start = k  // start of the current entry's bytes within this chunk
        while k < chunk.count {
            let b = chunk[k]
            if b == 0x0A { line += 1 }
            switch phase {
            case .before:
                if b == UInt8(ascii: "[") {
                    phase = .inside
                    start = k + 1
                } else if !isSpace(b) {
                    throw Problem.at(line: line, reason: "\(what) is one JSON array starting with '[', but the file starts with something else")
                }
            case .after:
                if !isSpace(b) {
                    throw Problem.at(line: line, reason: "unexpected text after the closing ']' of the array")
                }
            case .inside:
                if inString {
                    if escaped {
                        escaped = false
                    } else if b == 0x5C {
                        escaped = true
                    } else if b == 0x22 {
                        inString = false
                    }
                    break
                }
                switch b {
                case 0x22:
                    inString = true
                    markValue()
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    markValue()
                case UInt8(ascii: "}"):
                    guard depth > 0 else { throw Problem.at(line: line, reason: "unexpected '}' in the array") }
                    depth -= 1
                case UInt8(ascii: "]") where depth > 0:
                    depth -= 1
                case UInt8(ascii: ","), UInt8(ascii: "]"):
                    if depth > 0 { break }  // a comma inside an entry
                    entry.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<k]))
                    start = k + 1
                    let closing = b == UInt8(ascii: "]")
                    if entryHasValue {
                        index += 1
                        entryHasValue = false
                        let (n, first) = (index, entryLine)
                        // From the value's first byte: the spaces and line breaks before it
                        // belong to no line of the entry.
                        var skip = 0
                        while skip < entry.count, isSpace(entry[skip]) { skip += 1 }
                        try entry.withUnsafeBufferPointer { try emit(UnsafeBufferPointer(rebasing: $0[skip...]), n, first) }
                    } else if !closing || index > 0 {
                        // `[,` `[1,,2]` or `[1,]`
                        throw Problem.at(line: line, reason: "entry \(index + 1) is empty (a stray ',' in the array)")
                    }
                    entry.removeAll(keepingCapacity: true)
                    if closing { phase = .after }
                default:
                    if !isSpace(b) { markValue() }
                }
            }
            k += 1
        }
        if phase == .inside, start < chunk.count {
            entry.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<chunk.count]))
        }
    }

    /// Notes that the current entry has begun (its first line is the one being read).
    private mutating func markValue() {
        if !entryHasValue {
            entryHasValue = true
            entryLine = line
        }
    }

    private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    package mutating func finish() throws {
        switch phase {
        case .before:
            throw Problem.at(line: line, reason: "the file is empty; \(what) is one JSON array starting with '['")
        case .inside:
            throw Problem.at(line: line, reason: "the file ends before the closing ']' of the array (is it cut short?)")
        case .after:
            return
        }
    }
}
