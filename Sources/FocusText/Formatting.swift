// Number and URL text without Foundation's String(format:) and percent-encoding methods.

extension String {
    /// `value` in decimal with leading zeros to at least `width` characters, as printf's `%0*d`:
    /// `(7, 2)` → `07`, `(2026, 4)` → `2026`, `(-5, 3)` → `-05`.
    /// The one zero padding (clock faces, dates, iCalendar and sync times all use it).
    package init(zeroPadded value: Int, width: Int) {
        // Clock faces and dates pad 0...99 to two places on every redraw: kept made.
        if width == 2, value >= 0, value < 100 {
            self = Self.twoPlaces[value]
        } else {
            self = Self.padded(value, width)
        }
    }

    private static let twoPlaces: [String] = (0..<100).map { padded($0, 2) }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: Swift.max(0, width - sign.count - digits.count)) + digits
    }

}

extension StringProtocol {
    /// The text with every `%XX` decoded (RFC 3986 section 2.1); nil when a `%` is not followed
    /// by two hexadecimal digits or the bytes decoded are not UTF-8.
    package var percentDecoded: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var it = utf8.makeIterator()
        while let b = it.next() {
            guard b == UInt8(ascii: "%") else { bytes.append(b); continue }
            guard let h = it.next().flatMap(Self.hexValue), let l = it.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(h << 4 | l)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The text with every byte of its UTF-8 for which `keep` is false written as `%XX`
    /// (uppercase hexadecimal, RFC 3986 section 2.1).
    package func percentEncoded(keeping keep: (UInt8) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        for b in utf8 {
            if keep(b) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters: ALPHA, DIGIT, `-`, `.`, `_`, `~` (section 2.3).
    package static func isUnreserved(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Unicode.Scalar {
    /// `A`–`Z`, `a`–`z`, `0`–`9`.
    package var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
