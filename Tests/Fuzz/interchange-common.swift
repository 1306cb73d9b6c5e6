// Shared by the jsonl and csv fuzz targets.
import Foundation

func fuzzInterchange(_ format: InterchangeFormat, _ input: UnsafeBufferPointer<UInt8>) -> CInt {
    guard let first = input.first else { return 0 }
    let body = UnsafeBufferPointer(rebasing: input[1...])
    let split = body.isEmpty ? 0 : Int(first) % (body.count + 1)
    var parser = InterchangeParser(format: format, file: "fuzz")
    var records: [SessionRecord] = []
    let emit: InterchangeParser.Emit = { record, line in
        precondition(line >= 1)
        precondition(record.end >= record.start, "a session that ends before it starts")
        records.append(record)
    }
    do {
        try parser.feed(UnsafeBufferPointer(rebasing: body[..<split]), emit)
        try parser.feed(UnsafeBufferPointer(rebasing: body[split...]), emit)
        try parser.finish(emit)
    } catch let error as FocusError {
        precondition(error.exitCode == 65, "a parse error that is not bad input: \(error)")
        return 0
    } catch {
        preconditionFailure("an error that is not a FocusError: \(error)")
    }
    // Whatever was read writes back out and reads back the same.
    let writer = InterchangeWriter(format: format)
    var out: [UInt8] = []
    if format == .csv { out += Array(writer.header.utf8) }
    for r in records { writer.append(r, to: &out) }
    let again = try? InterchangeParser.parse(String(decoding: out, as: UTF8.self), format: format)
    precondition(again == records, "a round trip through \(format) changed the sessions")
    return 0
}
