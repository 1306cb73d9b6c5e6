import FocusCore
import Foundation
import Testing

/// No import line (CSV record) makes the parser hold more than `maximumLineBytes`.
@Suite struct InterchangeLimitTests {
    static func session(note: String) -> String {
        #"{"task": "Thesis", "start": "2026-11-20T09:00:00Z", "end": "2026-11-20T09:25:00Z", "status": "completed", "note": "\#(note)"}"#
    }

    @Test func aLineJustUnderAMegabyteIsRead() throws {
        let note = String(repeating: "x", count: 1_000_000)
        let records = try InterchangeParser.parse(Self.session(note: note) + "\n", format: .jsonl)
        #expect(records.first?.note?.count == 1_000_000)
    }

    @Test(arguments: [1 << 16, 1 << 20, 3 << 20])
    func aLongerLineIsRefusedWithItsNumberWhateverTheChunks(chunk: Int) throws {
        let good = Self.session(note: "ok") + "\n"
        let long = Self.session(note: String(repeating: "x", count: 2 << 20)) + "\n"
        let bytes = Array((good + long + good).utf8)
        var parser = InterchangeParser(format: .jsonl, file: "big.jsonl")
        var read = 0
        #expect {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                try parser.feed(Array(bytes[offset..<end])) { _, _ in read += 1 }
                offset = end
            }
            try parser.finish { _, _ in read += 1 }
        } throws: { error in
            guard case let FocusError.badInput(file, line, reason) = error else { return false }
            return file == "big.jsonl" && line == 2 && reason.contains("longer than 1 MB")
        }
        #expect(read == 1)
    }

    @Test func aBinaryFileWithNoLineBreaksIsRefusedEarly() throws {
        var parser = InterchangeParser(format: .jsonl, file: "blob.jsonl")
        let chunk = [UInt8](repeating: 0x41, count: 1 << 18)
        var fed = 0
        #expect(throws: FocusError.self) {
            for _ in 0..<64 {
                try parser.feed(chunk) { _, _ in }
                fed += chunk.count
            }
        }
        // Refused as soon as the line passed the limit, not after the whole 16 MB.
        #expect(fed <= InterchangeParser.maximumLineBytes)
    }

    @Test func anUnclosedCSVQuoteIsRefusedOnceTheRecordPassesTheLimit() throws {
        let header = "task,start,end,status\n"
        let open = "\"" + String(repeating: "y", count: 2 << 20)
        #expect {
            _ = try InterchangeParser.parse(header + open, format: .csv, file: "q.csv")
        } throws: { error in
            guard case let FocusError.badInput(_, line, reason) = error else { return false }
            return line == 2 && reason.contains("record is longer than 1 MB")
        }
    }
}
