// libFuzzer target: the XML reader and the reading of WebDAV multistatus answers (calendar
// properties, resources), which take whatever a server sends. Built by scripts/torture/fuzz.
import Foundation

/// The large-input mode (scripts/torture/fuzz's xml-large): PREFIX NUL UNIT NUL SUFFIX becomes PREFIX,
/// UNIT repeated to about 4 MB (each `#` in it the repetition's number, so declarations and
/// elements differ), then SUFFIX. Anything not so split is read as it is.
func grown(_ input: [UInt8]) -> [UInt8] {
    #if FUZZ_LARGE
    let parts = input.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[1].isEmpty else { return input }
    var out = Array(parts[0])
    out.reserveCapacity(4 << 20 + 64)
    var n = 0
    while out.count < 4 << 20 {
        for byte in parts[1] {
            if byte == UInt8(ascii: "#") { out += Array(String(n).utf8) } else { out.append(byte) }
        }
        n += 1
    }
    return out + parts[2]
    #else
    return input
    #endif
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(grown(Array(UnsafeBufferPointer(start: data, count: size))))
    _ = try? XMLReader.parse(bytes, source: "fuzz")
    let response = HTTPResponse(status: 207, headers: ["Content-Type": "application/xml"], body: bytes)
    if let answer = try? CalDAVHTTPClient.readMultistatus(response, url: "https://dav.example/alice/work/") {
        for item in answer.responses {
            precondition(item.url.hasPrefix("https://") || item.url.contains("://"), "an href left relative")
            _ = CalDAVHTTPClient.calendar(item)
            _ = CalDAVHTTPClient.resource(item)
        }
    }
    return 0
}
