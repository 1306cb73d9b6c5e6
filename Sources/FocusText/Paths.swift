/// File path text, as NSString's path methods read it, without Foundation: paths are split on
/// `/` only; nothing touches the file system.
package enum Paths {
    /// The path without its last component: `/a/b` → `/a`, `/a` → `/`, `a` → `` (empty),
    /// `/a/b/` → `/a`.
    package static func directory(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        let head = withoutTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// The last component: `/a/b` → `b`, `/a/b/` → `b`, `/` → `/`, `b` → `b`.
    package static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `directory` and `name` joined by one `/`.
    package static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// A file name without its extension: `work.ics` → `work`, `.hidden` → `.hidden`,
    /// `a.tar.gz` → `a.tar`.
    package static func removingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, !name[..<dot].hasSuffix("/") else { return name }
        return String(name[..<dot])
    }

    /// The path with `.` and `..` components and repeated slashes resolved by their text alone
    /// (no symbolic link is read): `/usr/bin/../share/focus` → `/usr/share/focus`.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var s = Substring(path)
        while s.count > 1, s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}
