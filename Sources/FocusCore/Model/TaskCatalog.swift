import FocusText
import FoundationEssentials

/// What a path on the command line can name.
package enum PathTarget: Equatable, Sendable {
    case task(id: Int64)
    case subtask(taskID: Int64, id: Int64)

    package var taskID: Int64 {
        switch self {
        case let .task(id): return id
        case let .subtask(taskID, _): return taskID
        }
    }

    package var subtaskID: Int64? {
        if case let .subtask(_, id) = self { return id }
        return nil
    }
}

/// The names of every task and subtask: enough to resolve a path without touching the history.
package struct TaskCatalog: Sendable {
    package struct Entry: Sendable, Equatable {
        package var id: Int64
        package var title: String
        /// Archived (task) or done (subtask): still matched, but exact names and open ones win.
        package var closed: Bool
        /// An instance of recurring work: named by its id, never by its title (a path names
        /// the series, README "Planning").
        package var isInstance: Bool
        package init(id: Int64, title: String, closed: Bool, isInstance: Bool = false) {
            self.id = id
            self.title = title
            self.closed = closed
            self.isInstance = isInstance
        }
    }

    package var tasks: [Entry]
    package var subtasks: [Int64: [Entry]]

    package init(tasks: [Entry], subtasks: [Int64: [Entry]]) {
        self.tasks = tasks
        self.subtasks = subtasks
    }

    /// The case-insensitive key titles are unique by, in NFC so that canonically equivalent
    /// spellings ("é" as one code point or as e + U+0301) are one key.
    package static func key(_ title: String) -> String { Titles.normalized(title.lowercased()) }

    /// Splits `Thesis/Chapter 2` at the first slash (task titles cannot contain one).
    package static func split(_ path: String) -> (task: String, subtask: String?) {
        guard let slash = path.firstIndex(of: "/") else { return (path.trimmingSpaces(), nil) }
        let task = path[..<slash].trimmingSpaces()
        let sub = path[path.index(after: slash)...].trimmingSpaces()
        return (task, sub)
    }

    /// Resolves `Thesis`, `Thesis/Chapter 2`, a unique case-insensitive prefix of either part, or
    /// `#ID` (task and subtask ids never collide).
    package func resolve(_ path: String) throws(FocusError) -> PathTarget {
        let trimmed = path.trimmingSpaces()
        if let id = TaskCatalog.hashID(trimmed) {
            if tasks.contains(where: { $0.id == id }) { return .task(id: id) }
            for (taskID, subs) in subtasks where subs.contains(where: { $0.id == id }) {
                return .subtask(taskID: taskID, id: id)
            }
            throw .notFound(path: trimmed, suggestions: [])
        }
        let (taskPart, subPart) = TaskCatalog.split(trimmed)
        guard !taskPart.isEmpty else { throw .invalidValue(what: "task path", value: path, expected: "a task like Thesis or Thesis/Chapter 2") }
        let task = try TaskCatalog.match(taskPart, in: tasks, shownAs: { $0 }, fullPath: trimmed)
        guard let subPart else { return .task(id: task.id) }
        guard !subPart.isEmpty else { return .task(id: task.id) }
        let subs = subtasks[task.id] ?? []
        if let id = TaskCatalog.hashID(subPart), subs.contains(where: { $0.id == id }) {
            return .subtask(taskID: task.id, id: id)
        }
        let sub = try TaskCatalog.match(subPart, in: subs, shownAs: { "\(task.title)/\($0)" }, fullPath: trimmed)
        return .subtask(taskID: task.id, id: sub.id)
    }

    /// Resolves a path for deleting: as `resolve`, but a mere prefix is refused (deleting by one
    /// is too easy to get wrong), so the whole name (any case, any accents' spelling) or `#ID`
    /// is needed. `toDelete` says what would go: `it`, `its sessions`.
    package func resolveWhole(_ path: String, toDelete: String = "it") throws(FocusError) -> PathTarget {
        let target = try resolve(path)
        let shown = self.path(of: target)
        let (t, s) = TaskCatalog.split(path)
        let typed = s.map { "\(t)/\($0)" } ?? t
        if TaskCatalog.hashID(t) == nil, s.flatMap(TaskCatalog.hashID) == nil, TaskCatalog.key(typed) != TaskCatalog.key(shown) {
            throw .usage("'\(path)' is only a prefix of '\(shown)'; type the whole name (or #ID) to delete \(toDelete).")
        }
        return target
    }

    /// The display path of a target.
    package func path(of target: PathTarget) -> String {
        let names = titles(of: target)
        return names.subtask.map { "\(names.task)/\($0)" } ?? names.task
    }

    /// The task's and the subtask's titles (`#ID` for one that is gone).
    package func titles(of target: PathTarget) -> (task: String, subtask: String?) {
        let task = tasks.first { $0.id == target.taskID }?.title ?? "#\(target.taskID)"
        guard let sid = target.subtaskID else { return (task, nil) }
        return (task, subtasks[target.taskID]?.first { $0.id == sid }?.title ?? "#\(sid)")
    }

    package static func hashID(_ s: String) -> Int64? {
        guard s.hasPrefix("#") else { return nil }
        return Int64(s.dropFirst())
    }

    private static func match(_ name: String, in all: [Entry], shownAs: (String) -> String, fullPath: String) throws(FocusError) -> Entry {
        let entries = all.contains(where: \.isInstance) ? all.filter { !$0.isInstance } : all
        let key = TaskCatalog.key(name)
        if let exact = entries.first(where: { TaskCatalog.key($0.title) == key }) { return exact }
        let prefixed = entries.filter { TaskCatalog.key($0.title).hasPrefix(key) }
        let open = prefixed.filter { !$0.closed }
        if open.count == 1 { return open[0] }
        if open.isEmpty, prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            let names = (open.isEmpty ? prefixed : open).map { shownAs($0.title) }.sorted()
            throw .ambiguous(path: fullPath, candidates: names)
        }
        throw .notFound(path: fullPath, suggestions: suggestions(for: key, in: entries).map(shownAs))
    }

    /// Close names: a title containing the typed text, or within a small edit distance.
    private static func suggestions(for key: String, in entries: [Entry]) -> [String] {
        let scored: [(Int, String)] = entries.compactMap { e in
            let k = TaskCatalog.key(e.title)
            if k.contains(key) || (key.count >= 3 && key.contains(k)) { return (0, e.title) }
            let d = NearestNames.editDistance(Array(key), Array(k.prefix(key.count + 2)))
            let limit = max(1, min(3, key.count / 3))
            return d <= limit ? (d, e.title) : nil
        }
        return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(3).map(\.1)
    }
}
