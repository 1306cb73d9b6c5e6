import FoundationEssentials
import FocusText

/// The rules of a session's tags (README, "Tags"): what a tag name may be, when two names are
/// one tag, and the order tags are shown in.
///
/// - A name is trimmed of surrounding white space and then holds 1 to `maximumLength`
///   characters, none of them a control character, a line break or a bidirectional control
///   (`DisplayText.isUnsafe`), and no `;` (the separator of the CSV `tags` column).
/// - Names are one tag when they are equal ignoring case (in NFC, as task titles): `Deep` and
///   `deep` are the same tag, spelled as it was first written.
/// - A session's tags are shown sorted by that key, each once.
package enum SessionTags {
    /// The longest tag name, in characters.
    package static let maximumLength = 40
    /// The most tags one session holds (typed, imported or from sync).
    package static let maximumPerSession = 32

    /// The separator of the CSV `tags` column (README, "Moving history in and out").
    package static let csvSeparator: Character = ";"

    /// The case-insensitive key a tag is unique by.
    package static func key(_ name: String) -> String { TaskCatalog.key(name) }

    /// Why `raw` is not a tag name, or nil when it is one (after trimming).
    package static func problem(_ raw: String) -> String? {
        let name = raw.trimmingSpaces()
        if name.isEmpty { return "a tag name that is not empty" }
        if name.count > maximumLength { return "a tag name of at most \(maximumLength) characters" }
        for scalar in name.unicodeScalars where DisplayText.isUnsafe(scalar) || DisplayText.isBreak(scalar) {
            return "a tag name without control characters or line breaks"
        }
        if name.contains(csvSeparator) { return "a tag name without ';'" }
        return nil
    }

    /// `raw` trimmed, or `FocusError.invalidValue` (exit 64) saying what a tag name may be.
    package static func name(_ raw: String) throws(FocusError) -> String {
        if let expected = problem(raw) {
            throw .invalidValue(what: "tag", value: DisplayText(shown: raw, columns: 60).string, expected: expected)
        }
        return raw.trimmingSpaces()
    }

    /// Every name checked and trimmed, each tag once (its first spelling), sorted; at most
    /// `maximumPerSession` of them.
    package static func names(_ raws: [String]) throws(FocusError) -> [String] {
        var out: [String] = []
        for raw in raws { out.append(try name(raw)) }
        return try bounded(sorted(out))
    }

    /// `tags` when a session may hold that many, else `invalidValue` (exit 64).
    package static func bounded(_ tags: [String]) throws(FocusError) -> [String] {
        guard tags.count <= maximumPerSession else {
            throw .invalidValue(what: "tags", value: "\(tags.count) tags", expected: "at most \(maximumPerSession) tags on a session")
        }
        return tags
    }

    /// Each tag once (the first spelling of each key), sorted by key, then spelling.
    package static func sorted(_ names: [String]) -> [String] {
        var seen = Set<String>()
        var keyed: [(key: String, name: String)] = []
        for name in names {
            let k = key(name)
            if seen.insert(k).inserted { keyed.append((k, name)) }
        }
        return keyed.sorted { $0.key != $1.key ? $0.key < $1.key : $0.name < $1.name }.map(\.name)
    }

    /// `tags` with `added` and without `removed` (both matched ignoring case): `log edit --tag
    /// X --untag Y`. A tag both added and removed is removed.
    package static func edited(_ tags: [String], adding added: [String], removing removed: [String]) -> [String] {
        let gone = Set(removed.map(key))
        return sorted((tags + added).filter { !gone.contains(key($0)) })
    }

    /// Whether `tags` holds `name`, ignoring case.
    package static func contains(_ tags: [String], _ name: String) -> Bool {
        let k = key(name)
        return tags.contains { key($0) == k }
    }
}
