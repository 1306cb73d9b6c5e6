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

    /// `make -s ARGS` in the repository (a target, `print-NAME`, variables) with `environment`,
    /// to its end; its output captured. Blocking, as `TestProcess.run`.
    package static func make(_ args: [String], environment: [String: String]) throws -> TestProcess.Output {
        try TestProcess.run("/usr/bin/make", ["-s", "-C", root.path] + args, environment: environment, stdin: nil, capture: true)
    }

    /// A file by its path under data/ (`sample-calendar.ics`).
    package static func data(_ path: String) -> String {
        root.appendingPathComponent("data").appendingPathComponent(path).path
    }
}
