// libFuzzer target: the CSV session importer, fed in two chunks split where the first byte
// says. Built by scripts/torture/fuzz.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzInterchange(.csv, UnsafeBufferPointer(start: data, count: size))
}
