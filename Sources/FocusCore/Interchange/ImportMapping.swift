import FocusText
import FoundationEssentials

/// The time trackers whose files `focus import` reads besides its own formats.
package enum ForeignFormat: String, Sendable, CaseIterable {
    /// The JSON array `timew export` prints.
    case timewarrior
    /// Watson's `frames` file: a JSON array of `[start, stop, project, id, tags, updated_at]`.
    case watson
    /// Open Pomodoro's `history` file: one pomodoro per line, a timestamp then logfmt attributes.
    case openpomodoro

    /// What the tool calls one entry, for error messages and the summary.
    package var entryName: String {
        switch self {
        case .timewarrior: return "interval"
        case .watson: return "frame"
        case .openpomodoro: return "pomodoro"
        }
    }
}

/// Which part of a foreign entry becomes the task and which the subtask (`--map`).
///
/// Written `task=SOURCE,subtask=SOURCE` (either may be left out: it keeps the format's
/// default). A SOURCE is
/// - `N`: the Nth tag (1-based), counting the tags that no `PREFIX*` rule took;
/// - `PREFIX*`: the first tag starting with PREFIX. A PREFIX that ends in a separator (not a
///   letter or digit: `project:`, `area/`) is a namespace and is dropped (`project:*` takes
///   `project:Thesis` as `Thesis`); one that ends in a letter or digit is the start of a name,
///   kept whole (`Th*` takes `Thesis` as `Thesis`, never `esis`);
/// - `project` (Watson) or `description` (Open Pomodoro);
/// - `none` (subtask only): no subtask.
///
/// Defaults: Timewarrior `task=1,subtask=2`; Watson `task=project,subtask=1`; Open Pomodoro
/// `task=description,subtask=none`. An entry whose task source is missing (no tags, no
/// description) goes to the task `Untagged`; a missing subtask source means no subtask.
package struct ImportMapping: Sendable, Equatable {
    package enum Source: Sendable, Equatable {
        case tag(Int)
        case tagPrefix(String)
        case project
        case description
        case none
    }

    package var task: Source
    package var subtask: Source

    /// The task of an entry with nothing to name it.
    package static let untagged = "Untagged"

    package init(task: Source, subtask: Source) {
        self.task = task
        self.subtask = subtask
    }

    package static func defaults(for format: ForeignFormat) -> ImportMapping {
        switch format {
        case .timewarrior: return ImportMapping(task: .tag(1), subtask: .tag(2))
        case .watson: return ImportMapping(task: .project, subtask: .tag(1))
        case .openpomodoro: return ImportMapping(task: .description, subtask: .none)
        }
    }

    /// Reads `--map`; what it does not name keeps the format's default.
    package static func parse(_ text: String, format: ForeignFormat) throws(FocusError) -> ImportMapping {
        var mapping = defaults(for: format)
        let expected = "task=SOURCE,subtask=SOURCE with SOURCE a tag number (1), PREFIX* (project:*)"
            + (format == .watson ? ", project" : format == .openpomodoro ? ", description" : "")
            + " or none (subtask only)"
        var named = Set<String>()
        for rule in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = rule.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .invalidValue(what: "--map rule", value: String(rule), expected: expected) }
            let key = parts[0].trimmingSpaces().lowercased()
            let value = parts[1].trimmingSpaces()
            guard key == "task" || key == "subtask" else {
                throw .invalidValue(what: "--map field", value: key, expected: "task or subtask")
            }
            guard named.insert(key).inserted else {
                throw .usage("--map names \(key) twice; give each of task and subtask once, e.g. --map task=1,subtask=2.")
            }
            let source: Source
            switch value.lowercased() {
            case "none":
                guard key == "subtask" else { throw .usage("--map task=none: every session needs a task; choose a tag number, PREFIX*, or leave task out.") }
                source = .none
            case "project":
                guard format == .watson else { throw .usage("--map \(key)=project: only Watson frames have a project; use a tag number or PREFIX* for \(format.rawValue).") }
                source = .project
            case "description":
                guard format == .openpomodoro else { throw .usage("--map \(key)=description: only Open Pomodoro entries have a description; use a tag number or PREFIX* for \(format.rawValue).") }
                source = .description
            default:
                if value.hasSuffix("*") {
                    let prefix = String(value.dropLast())
                    guard !prefix.isEmpty, !prefix.contains("*") else {
                        throw .invalidValue(what: "--map \(key)", value: value, expected: "a tag prefix followed by *, like project:*")
                    }
                    source = .tagPrefix(prefix)
                } else if let n = Int(value), n >= 1, n <= 1000, value.allSatisfy(\.isASCII) {
                    source = .tag(n)
                } else {
                    throw .invalidValue(what: "--map \(key)", value: value, expected: expected)
                }
            }
            if key == "task" { mapping.task = source } else { mapping.subtask = source }
        }
        return mapping
    }

    /// The task and subtask titles of one entry (before the title rules are checked).
    package func titles(tags: [String], project: String? = nil, description: String? = nil) -> (task: String, subtask: String?) {
        let parts = split(tags: tags, project: project, description: description)
        return (parts.task, parts.subtask)
    }

    /// The task and subtask titles of one entry, and the tags no rule took: those the session
    /// keeps as its tags (README, "Tags": a Timewarrior interval tagged `Thesis`, `Chapter 2`
    /// and `deep` is a session of Thesis/Chapter 2 tagged deep).
    package func split(tags: [String], project: String? = nil, description: String? = nil) -> (task: String, subtask: String?, tags: [String]) {
        // Prefix rules take their tags first; positions count what is left.
        var rest = tags
        var taken = Set<Int>()
        func pick(_ source: Source) -> String? {
            if case let .tagPrefix(prefix) = source, let k = rest.firstIndex(where: { $0.hasPrefix(prefix) }) {
                let tag = rest.remove(at: k)
                return ImportMapping.stripsPrefix(prefix) ? String(tag.dropFirst(prefix.count)) : tag
            }
            return nil
        }
        let taskByPrefix = pick(task)
        let subtaskByPrefix = pick(subtask)
        func value(_ source: Source, prefixed: String?) -> String? {
            switch source {
            case let .tag(n):
                guard n <= rest.count else { return nil }
                taken.insert(n - 1)
                return rest[n - 1]
            case .tagPrefix: return prefixed
            case .project: return project
            case .description: return description
            case .none: return nil
            }
        }
        func present(_ s: String?) -> String? {
            guard let s, !s.trimmingSpaces().isEmpty else { return nil }
            return s
        }
        let taskTitle = present(value(task, prefixed: taskByPrefix)) ?? ImportMapping.untagged
        var subtaskTitle = present(value(subtask, prefixed: subtaskByPrefix))
        // The same tag cannot be both (`task=1,subtask=1`).
        if task == subtask { subtaskTitle = nil }
        let kept = rest.indices.filter { !taken.contains($0) }.map { rest[$0] }
        return (taskTitle, subtaskTitle, kept)
    }

    /// Whether a `PREFIX*` rule drops its prefix from the tag: only a namespace, a prefix that
    /// ends in a separator (`project:`), not the start of a name (`Th`).
    package static func stripsPrefix(_ prefix: String) -> Bool {
        guard let last = prefix.unicodeScalars.last else { return false }
        return !(last.properties.isAlphabetic || ("0"..."9").contains(last))
    }
}
