import FocusText
import FoundationEssentials

/// Every format `focus import` reads.
package enum ImportFormat: Sendable, Equatable {
    case interchange(InterchangeFormat)
    case foreign(ForeignFormat)

    /// `--format` values, as the help lists them.
    package static let names = "jsonl, csv, timewarrior, watson or openpomodoro"

    package init?(name: String) {
        let key = name.lowercased()
        if let f = InterchangeFormat(rawValue: key) {
            self = .interchange(f)
        } else if let f = ForeignFormat(rawValue: key) {
            self = .foreign(f)
        } else {
            return nil
        }
    }

    /// The format a file's name implies: `.jsonl`/`.ndjson` JSON Lines, `.csv` CSV, a file named
    /// `frames` Watson's, one named `history` Open Pomodoro's. A `.json` file is told by its
    /// first bytes (`head`): a JSON array of objects is a Timewarrior export, of arrays Watson
    /// frames, anything else JSON Lines.
    package static func detect(path: String, head: [UInt8]) -> ImportFormat? {
        let name = Paths.name(of: path).lowercased()
        if name == "frames" { return .foreign(.watson) }
        if name == "history" { return .foreign(.openpomodoro) }
        if name.hasSuffix(".json") {
            var bytes = head[...]
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            let significant = bytes.filter { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
            if significant.first == UInt8(ascii: "[") {
                let second = significant.dropFirst().first
                if second == UInt8(ascii: "[") { return .foreign(.watson) }
                return .foreign(.timewarrior)
            }
        }
        return InterchangeFormat.detect(path: path).map { .interchange($0) }
    }
}

/// One parser for any import format: sessions with the line they start on, then `finish`.
package struct SessionFileParser {
    private enum Inner {
        case interchange(InterchangeParser)
        case foreign(ForeignHistoryParser)
    }

    private var inner: Inner

    package init(format: ImportFormat, mapping: ImportMapping?, file: String) {
        switch format {
        case let .interchange(f): inner = .interchange(InterchangeParser(format: f, file: file))
        case let .foreign(f): inner = .foreign(ForeignHistoryParser(format: f, mapping: mapping, file: file))
        }
    }

    package typealias Emit = (_ record: SessionRecord, _ line: Int) throws -> Void

    /// Entries left out on purpose (Timewarrior intervals still being tracked).
    package var skipped: Int {
        if case let .foreign(p) = inner { return p.skipped }
        return 0
    }

    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        switch inner {
        case var .interchange(p):
            defer { inner = .interchange(p) }
            try p.feed(chunk, emit)
        case var .foreign(p):
            defer { inner = .foreign(p) }
            try p.feed(chunk, emit)
        }
    }

    package mutating func finish(_ emit: Emit) throws {
        switch inner {
        case var .interchange(p):
            defer { inner = .interchange(p) }
            try p.finish(emit)
        case var .foreign(p):
            defer { inner = .foreign(p) }
            try p.finish(emit)
        }
    }
}
