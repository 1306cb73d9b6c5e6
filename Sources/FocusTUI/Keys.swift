/// A key the person pressed, as the view's key table names it.
package enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right, enter, tab, backTab, escape, backspace, home, end, pageUp, pageDown
    /// A control character other than those above (`ctrl("l")` for Ctrl-L).
    case ctrl(Character)
}

/// Keys from the bytes a terminal sends in cbreak mode: UTF-8 text, C0 controls, and the cursor
/// keys' CSI and SS3 sequences (ECMA-48 5.4; the cursor and editing keys as terminfo(5) names
/// them: kcuu1, kcud1, khome, kend, kpp, knp, kcbt).
package enum KeyDecoder {
    package static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                let (key, length) = escape(bytes, at: index)
                keys.append(key)
                index += length
            } else if byte < 0x20 || byte == 0x7F {
                keys.append(control(byte))
                index += 1
            } else {
                var end = index
                while end < bytes.count, bytes[end] >= 0x20, bytes[end] != 0x7F, bytes[end] != 0x1B { end += 1 }
                // A repaired decoding: bytes that are not UTF-8 become U+FFFD, never a crash.
                for character in String(decoding: bytes[index..<end], as: UTF8.self) { keys.append(.char(character)) }
                index = end
            }
        }
        return keys
    }

    private static func control(_ byte: UInt8) -> Key {
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x7F, 0x08: return .backspace
        default: return .ctrl(Character(Unicode.Scalar(byte + 0x60)))
        }
    }

    /// The key an escape sequence at `start` stands for, and the bytes it takes.
    private static func escape(_ bytes: [UInt8], at start: Int) -> (Key, Int) {
        guard start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "[") || bytes[start + 1] == UInt8(ascii: "O") else {
            return (.escape, 1)
        }
        // Parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E).
        var end = start + 2
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (.escape, 1) }
        let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let length = end - start + 1
        switch (bytes[end], parameters) {
        case (UInt8(ascii: "A"), _): return (.up, length)
        case (UInt8(ascii: "B"), _): return (.down, length)
        case (UInt8(ascii: "C"), _): return (.right, length)
        case (UInt8(ascii: "D"), _): return (.left, length)
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
        case (UInt8(ascii: "Z"), _): return (.backTab, length)
        case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
        case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
        default: return (.escape, length)
        }
    }
}
