// libFuzzer target: the duration parser (`25m`, `1h30m`, `1.5h`, ...). Built by scripts/torture/fuzz.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzDuration(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let seconds = try? DurationParser.seconds(text) {
        precondition(seconds >= 0 && seconds <= DurationParser.maximumSeconds, "out of range: \(seconds)")
        _ = DurationParser.format(seconds)
        _ = DurationParser.clock(seconds)
        // What is shown must read back as the same duration, to the minute.
        let shown = DurationParser.format(seconds)
        if let again = try? DurationParser.seconds(shown) {
            precondition(abs(again - seconds) <= 30, "\(seconds) shown as \(shown) reads back as \(again)")
        } else {
            preconditionFailure("\(seconds) shown as \(shown) does not read back")
        }
    }
    return 0
}
