import FocusCore
import Glibc

extension FileIdentity {
    /// The file at `path` (stat(2) follows a symbolic link), or nil when there is none.
    package static func of(path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// Size and modification time of the database and its write-ahead log: any commit by any
/// process changes one of them, and reading them costs two `stat` calls, no SQLite.
package struct DatabaseFingerprint: Sendable, Equatable {
    package var parts: [Int64]

    package static func of(path: String) -> DatabaseFingerprint? {
        var parts: [Int64] = []
        for file in [path, path + "-wal"] {
            var info = stat()
            if stat(file, &info) == 0 {
                parts += [Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
            } else {
                parts += [-1]
            }
        }
        return DatabaseFingerprint(parts: parts)
    }
}
