import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// Import files are parsed as they are read, in chunks (README, "Fast paths"): on seeded random
/// histories written by the exporter, chunks of random sizes give exactly the records of the
/// whole text parsed at once, which are the records written.
@Suite struct StreamedParsingOracleTests {
    /// Sessions whose text has every character that crosses a chunk badly: quotes, commas,
    /// backslashes, line breaks, tabs, multi-byte UTF-8 and a surrogate pair in JSON.
    static func records(_ rng: inout SeededRandom) -> [SessionRecord] {
        let words = ["Thesis", "a \"quoted\" word", "comma, then", "back\\slash", "two\nlines", "tab\there", "é😀", "crlf\r\nend", "ß"]
        let tags = ["deep", "admin", "é"]
        var start: Int64 = 1_790_000_000
        return (0..<rng.int(40...120)).map { _ in
            start += Int64(rng.int(60...20_000))
            let length = Int64(rng.int(0...5400))
            return SessionRecord(
                task: rng.pick(["Thesis", "Reading", "Zürich trip"]), subtask: rng.chance(30) ? nil : rng.pick(["Ch 1", "Ch 2"]),
                start: start, end: start + length, status: rng.pick([.completed, .interrupted]),
                focusedSeconds: rng.int(0...Int(length)), plannedSeconds: rng.pick([900, 1500, 3000]),
                note: rng.chance(40) ? (0..<rng.int(1...4)).map { _ in rng.pick(words) }.joined(separator: " ") : nil,
                tags: rng.chance(20) ? [rng.pick(tags)] : [])
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func chunksOfRandomSizesGiveTheRecordsOfTheWholeText(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let records = Self.records(&rng)
        for format in [InterchangeFormat.jsonl, .csv] {
            let writer = InterchangeWriter(format: format)
            let text = writer.header + records.map(writer.line).joined()
            let whole = try InterchangeParser.parse(text, format: format)
            #expect(whole == records, "\(format), seed \(seed)")
            var parser = InterchangeParser(format: format, file: "f")
            var streamed: [SessionRecord] = []
            for chunk in Self.chunks(of: text, &rng) {
                try parser.feed(chunk) { r, _ in streamed.append(r) }
            }
            try parser.finish { r, _ in streamed.append(r) }
            #expect(streamed == whole, "\(format), seed \(seed)")
        }
    }

    /// A Timewarrior export (one JSON array, split by `JSONArrayScanner`) of random intervals
    /// with tags and annotations holding brackets, braces, quotes and escapes.
    @Test(arguments: [7, 8, 9] as [UInt64])
    func aTimewarriorArrayInChunksOfRandomSizesGivesTheRecordsOfTheWholeText(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let texts = ["Thesis", "a [bracket]", "a {brace}", "say \\\"hi\\\"", "é😀", "comma, colon: x"]
        var start = 1_790_000_000
        var entries: [String] = []
        for id in 1...rng.int(30...90) {
            start += rng.int(60...20_000)
            let utc = { (t: Int) in
                let d = Date(timeIntervalSince1970: Double(t))
                var c = Calendar(identifier: .gregorian)
                c.timeZone = TimeZone(identifier: "UTC")!
                let p = c.dateComponents([.year, .month, .day, .hour, .minute, .second], from: d)
                return String(format: "%04d%02d%02dT%02d%02d%02dZ", p.year!, p.month!, p.day!, p.hour!, p.minute!, p.second!)
            }
            var fields = ["\"id\":\(id)", "\"start\":\"\(utc(start))\"", "\"end\":\"\(utc(start + rng.int(0...5400)))\""]
            if rng.chance(70) { fields.append("\"tags\":[" + (0..<rng.int(1...2)).map { _ in "\"" + rng.pick(texts) + "\"" }.joined(separator: ",") + "]") }
            if rng.chance(30) { fields.append("\"annotation\":\"" + rng.pick(texts) + "\"") }
            entries.append("{" + fields.joined(separator: ",") + "}")
        }
        let text = "[\n" + entries.joined(separator: ",\n") + "\n]\n"
        let whole = try ForeignHistoryParser.parse(text, format: .timewarrior).records
        #expect(whole.count == entries.count)
        var parser = ForeignHistoryParser(format: .timewarrior, file: "f")
        var streamed: [SessionRecord] = []
        for chunk in Self.chunks(of: text, &rng) {
            try parser.feed(chunk) { r, _ in streamed.append(r) }
        }
        try parser.finish { r, _ in streamed.append(r) }
        #expect(streamed == whole, "seed \(seed)")
    }

    /// `text`'s bytes in chunks of random sizes, from one byte to a few hundred (three in ten of them
    /// one to three bytes, so a chunk often ends inside a UTF-8 sequence or an escape).
    static func chunks(of text: String, _ rng: inout SeededRandom) -> [[UInt8]] {
        let bytes = Array(text.utf8)
        var out: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            let n = rng.chance(30) ? rng.int(1...3) : rng.int(4...400)
            out.append(Array(bytes[i..<min(bytes.count, i + n)]))
            i += n
        }
        return out
    }
}
