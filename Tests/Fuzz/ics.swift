// libFuzzer target: the .ics reader and busy-time expansion over a year's window in a zone
// with DST changes (recurrence expansion is where blow-ups hide). Built by scripts/torture/fuzz.
import Foundation

private let zones = ["Europe/Berlin", "America/New_York", "UTC", "CET-1CEST,M3.5.0,M10.5.0/3"].compactMap { ZoneRules.fromTZ($0) }.map { LocalCalendar(zone: $0) }
private let from = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
private let to = Date(timeIntervalSince1970: 1_798_761_600)    // 2027-01-01T00:00:00Z

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzICS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? ICSReader.parse(data: bytes) else { return 0 }
    let zone = zones[size % zones.count]
    let busy = document.busyOccurrences(from: from, to: to, local: zone)
    for o in busy {
        precondition(o.end >= o.start, "an occurrence that ends before it starts")
        precondition(o.end > from && o.start < to || o.start == o.end, "an occurrence outside the window")
    }
    precondition(zip(busy, busy.dropFirst()).allSatisfy { $0.start <= $1.start }, "not sorted by start")
    return 0
}
