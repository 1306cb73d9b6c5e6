import FocusText
import FoundationEssentials

/// JSON string escaping into bytes (RFC 8259): quotes, backslashes and control characters
/// (terminal escapes included) escaped, and U+2028/U+2029, which some JavaScript parsers choke on;
/// zero-width characters (`DisplayText.isZeroWidth`) are written `\u200b`, exact for a program
/// and visible to a person reading the JSON.
package enum JSONBytes {
    package static func string(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        let utf8 = s.utf8
        var clean = true
        for b in utf8 where b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2 || b == 0xEF {
            clean = false
            break
        }
        if clean {
            out.append(contentsOf: utf8)
            out.append(0x22)
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out.append(contentsOf: #"\""#.utf8)
            case 0x5C: out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x2028: out.append(contentsOf: #"\u2028"#.utf8)
            case 0x2029: out.append(contentsOf: #"\u2029"#.utf8)
            case _ where DisplayText.isUnsafe(scalar) || DisplayText.isZeroWidth(scalar):
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u"#.utf8)
                for shift in [12, 8, 4, 0] { out.append(hex[Int((scalar.value >> UInt32(shift)) & 0xF)]) }
            default:
                out.append(contentsOf: String(Character(scalar)).utf8)
            }
        }
        out.append(0x22)
    }
}
