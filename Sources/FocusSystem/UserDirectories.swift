import Glibc

/// The user's directories named by the environment, else by the system.
package enum UserDirectories {
    /// `$HOME`, else the home directory of the password database (getpwuid(3)).
    package static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"] { return home }
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }

    /// `$TMPDIR` when it is set and not empty, else `/tmp` (as mkstemp(3)'s users expect).
    package static func temporary(_ environment: [String: String]) -> String {
        guard let dir = environment["TMPDIR"], !dir.isEmpty else { return "/tmp" }
        return dir
    }
}
