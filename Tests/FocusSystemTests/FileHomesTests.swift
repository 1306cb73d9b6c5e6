import FocusCore
import FocusSystem
import Foundation
import Testing

/// Issue #43: the files focus writes have one home (`AtomicFileWriter`), and so has the first
/// unused name for a copy kept aside (`OutputFile.firstUnused`).
@Suite struct FileHomesTests {
    private func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-system-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    private func leftovers(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".focus-tmp-") }
    }

    @Test func aFileWrittenByItsTemporaryNameReplacesTheTargetPrivatelyAndLeavesNothingBehind() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/focus.sqlite.backup"
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        let file = try AtomicFileWriter(path: target, access: .privateToUser)
        let temporary = try #require(file.temporaryPath)
        // As SQLite's backup does: the temporary file is written through its own name.
        try "new".write(toFile: temporary, atomically: false, encoding: .utf8)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        try file.commit()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        #expect(try leftovers(dir).isEmpty)
    }

    @Test func aWriterDroppedBeforeItsCommitLeavesTheOldFileAndNoTemporary() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/report.html"
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        do {
            let file = try AtomicFileWriter(path: target, access: .requested)
            try file.write("half a rep")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        #expect(try leftovers(dir).isEmpty)
    }

    @Test func theFirstUnusedNameSkipsFilesAndLinksEvenDanglingOnes() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let aside = dir + "/focus.sqlite.before-restore"
        #expect(OutputFile.firstUnused(aside) == aside)
        try "a".write(toFile: aside, atomically: false, encoding: .utf8)
        try "b".write(toFile: aside + "-2", atomically: false, encoding: .utf8)
        // A dangling link is a name in use: renaming over it would lose what it names.
        try FileManager.default.createSymbolicLink(atPath: aside + "-3", withDestinationPath: dir + "/gone")
        #expect(OutputFile.firstUnused(aside) == aside + "-4")
    }
}
