import Foundation

/// The repository the tests were built from, found from this file's path: where its scripts
/// (scripts/, grouped by purpose: servers/, ci/, …) and data/ are, for every test target.
package enum TestRepository {
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A script by its path under scripts/ (`servers/caldav-server.py`).
    package static func script(_ path: String) -> String {
        root.appendingPathComponent("scripts").appendingPathComponent(path).path
    }

    /// A file by its path under data/ (`sample-calendar.ics`).
    package static func data(_ path: String) -> String {
        root.appendingPathComponent("data").appendingPathComponent(path).path
    }
}
