import FocusText
import Glibc

/// The directories focus keeps its files in (data, backups, config, logs): made private, mode
/// 0700 with any missing parents, the first time something is written there.
package enum PrivateDirectory {
    /// Why a directory could not be made: the system's error number (errno(3)) and its words.
    package struct Failure: Error, CustomStringConvertible {
        package var path: String
        package var code: Int32
        package var description: String { String(cString: strerror(code)) }
    }

    /// Makes the directory that holds `path` when it is missing, as `mkdir -p -m 0700`.
    package static func makeParent(of path: String) throws(Failure) {
        let directory = Paths.directory(of: path)
        guard !directory.isEmpty else { return }
        try make(directory)
    }

    private static func make(_ directory: String) throws(Failure) {
        var info = stat()
        // Something already there: a file in the way is for the write that follows to report.
        if stat(directory, &info) == 0 { return }
        let parent = Paths.directory(of: directory)
        if !parent.isEmpty, parent != directory { try make(parent) }
        if mkdir(directory, 0o700) != 0, errno != EEXIST { throw Failure(path: directory, code: errno) }
    }
}
