import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import FocusSQLite

/// A temporary directory for files a command reads or writes; removed when released.
final class TempDir {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "focus-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` inside the directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let p = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    func read(_ name: String) throws -> String {
        try String(decoding: Data(contentsOf: URL(fileURLWithPath: path + "/" + name)), as: UTF8.self)
    }
}

enum CLIFixtures {
    /// Three sessions in Berlin, one of them across midnight (23:30–00:20, 40 of its 50
    /// minutes focused), seen from "now" = 2026-11-22 10:00 local.
    static let smallHistory = """
        {"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-20T09:00:00+01:00", "end": "2026-11-20T09:25:00+01:00", "status": "completed"}

        {"task": "Thesis", "start": "2026-11-21T23:30:00+01:00", "end": "2026-11-22T00:20:00+01:00", "status": "interrupted", "focused_seconds": 2400, "note": "late"}
        {"task": "Reading", "subtask": null, "start": "2026-11-22T08:00:00Z", "end": "2026-11-22T08:50:00Z", "status": "completed", "planned_seconds": 3000}

        """

    /// The repository's `data/` directory.
    static var dataDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data").path
    }

    /// Imports JSON Lines text straight into the world's database.
    static func seed(_ world: TestWorld, _ jsonl: String) throws {
        let records = try InterchangeParser.parse(jsonl, format: .jsonl)
        _ = try world.database.importSessions(now: world.now) { insert in
            for r in records { try insert(r) }
        }
    }

    static func count(_ world: TestWorld, _ table: String) throws -> Int {
        try world.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }
}
