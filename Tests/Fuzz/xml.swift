// libFuzzer target: the XML reader and the reading of WebDAV multistatus answers (calendar
// properties, resources), which take whatever a server sends. Built by scripts/fuzz.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
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
