import Foundation

/// What a task or subtask title may be.
package enum Titles {
    package static let maximumLength = 200

    package static func validate(_ title: String, what: String) throws(FocusError) -> String {
        let t = title.trimmingSpaces()
        guard !t.isEmpty else { throw .invalidValue(what: what, value: title, expected: "a non-empty name") }
        guard t.count <= maximumLength else {
            throw .invalidValue(what: what, value: String(t.prefix(20)) + "…", expected: "at most \(maximumLength) characters")
        }
        guard !t.unicodeScalars.contains(where: Sanitized.isUnsafe) else {
            throw .invalidValue(what: what, value: Sanitized.terminal(t), expected: "a name without control characters")
        }
        guard TaskCatalog.hashID(t) == nil else {
            throw .invalidValue(what: what, value: t, expected: "a name that does not look like an id (#12)")
        }
        return t
    }
}
