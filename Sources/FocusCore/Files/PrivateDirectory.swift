import Foundation

/// The directories focus keeps its files in (data, backups, config, logs): made private, mode
/// 0700 with any missing parents, the first time something is written there.
package enum PrivateDirectory {
    /// Makes the directory that holds `path` when it is missing; throws the file system's error.
    package static func makeParent(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
}
