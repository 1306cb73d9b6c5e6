import FocusText
import FoundationEssentials

/// What a task or subtask title may be.
package enum Titles {
    package static let maximumLength = 200

    /// A title as it is stored and compared: trimmed and in Unicode Normalization Form C, so "été"
    /// typed with composed or with decomposed accents is one name (Unicode Standard Annex #15).
    /// Fails unless it is a name some path can address: not empty, not too long, no control
    /// characters, and not an id (`#12`, `#0012`), which `#ID` paths would shadow.
    package static func validate(_ title: String, what: String) throws(FocusError) -> String {
        let t = normalized(title.trimmingSpaces())
        guard !t.isEmpty else { throw .invalidValue(what: what, value: title, expected: "a non-empty name") }
        guard t.count <= maximumLength else {
            throw .invalidValue(what: what, value: String(t.prefix(20)) + "…", expected: "at most \(maximumLength) characters")
        }
        guard !t.unicodeScalars.contains(where: DisplayText.isUnsafe) else {
            throw .invalidValue(what: what, value: DisplayText(t).string, expected: "a name without control characters")
        }
        guard TaskCatalog.hashID(t) == nil else {
            throw .invalidValue(what: what, value: t, expected: "a name that does not look like an id (#12)")
        }
        return t
    }

    /// A task's title: a valid title (above) without `/`, which separates a task from its subtask.
    package static func validateTask(_ title: String) throws(FocusError) -> String {
        let t = try validate(title, what: "task name")
        guard !t.contains("/") else {
            throw .invalidValue(what: "task name", value: DisplayText(t).string, expected: "a name without '/', which separates a task from its subtask")
        }
        return t
    }

    /// Unicode Normalization Form C (canonical composition, UAX #15), computed by the Swift
    /// standard library's own normalisation tables (`_nfcCodeUnits`, public though underscored),
    /// not through ICU. ASCII, the common case, is returned as it is.
    package static func normalized(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        return String(decoding: s._nfcCodeUnits, as: UTF8.self)
    }
}
