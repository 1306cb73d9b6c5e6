// libFuzzer target: the JSON Lines session importer, fed in two chunks split where the first
// byte says (chunk boundaries are where streaming parsers go wrong). Built by scripts/torture/fuzz.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSONLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzInterchange(.jsonl, UnsafeBufferPointer(start: data, count: size))
}
