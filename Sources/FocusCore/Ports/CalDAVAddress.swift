import FoundationEssentials

/// The one rule for when two spellings of a CalDAV address name the same resource: used by
/// the HTTP client to resolve hrefs and by publishing to match what a server lists with what
/// focus wrote (README, "Your real calendar").
package enum CalDAVAddress {
    /// RFC 3986 section 6.2.2: scheme and host in lower case, percent-encodings of unreserved
    /// characters decoded and the others written with upper-case hex digits; a character that
    /// may not appear in an address at all (a space, a non-ASCII letter) percent-encoded as UTF-8.
    /// Reserved characters (RFC 3986 section 2.2) and `%` itself: kept as they are.
    private static let reservedBytes = Set(":/?#[]@!$&'()*+,;=%".utf8)

    package static func normalized(_ url: String) -> String {
        var out = ""
        var rest = Substring(url)
        if let range = url.firstRange(of: "://") {
            let authority = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            // The user part keeps its case; the host (after the last `@`) does not.
            let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
            out = url[..<range.upperBound].lowercased() + authority[..<host.startIndex] + host.lowercased()
            rest = url[authority.endIndex...]
        }
        let hex = Array("0123456789ABCDEF".utf8)
        func isUnreserved(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
        }
        func value(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x37
            case 0x61...0x66: return b - 0x57
            default: return nil
            }
        }
        let bytes = Array(rest.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x25, i + 2 < bytes.count, let high = value(bytes[i + 1]), let low = value(bytes[i + 2]) {
                let decoded = high << 4 | low
                if isUnreserved(decoded) { result.append(decoded) } else { result += [0x25, hex[Int(high)], hex[Int(low)]] }
                i += 3
                continue
            }
            if isUnreserved(b) || reservedBytes.contains(b) {
                result.append(b)
            } else {
                result += [0x25, hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
            i += 1
        }
        return out + String(decoding: result, as: UTF8.self)
    }
}
