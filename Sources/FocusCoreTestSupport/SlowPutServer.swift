import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `scripts/servers/slow-put-server.py` on a free loopback port: an HTTP server that answers each PUT
/// after `hold` seconds, several at once (or one at a time, `serial`), and tells what it saw
/// (`stats`). Python's standard library only. Killed when the value goes away.
package final class SlowPutServer: @unchecked Sendable {
    package let port: Int
    private let directory: URL
    private var pid: pid_t = 0

    /// `upstream`: a CalDAV server (`RadicaleServer.rootURL`) every request is passed on to,
    /// each PUT after its hold (`--forward-puts`); `holdDeletes`: each DELETE too.
    /// `loseAnswers`: the first that many PUTs arriving while another is held are passed on,
    /// then their connection is closed without an answer (`--lose-answers`).
    package init(hold: Double, serial: Bool = false, upstream: String? = nil, holdDeletes: Bool = false, loseAnswers: Int = 0) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("focus-slow-put-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = TestRepository.script("servers/slow-put-server.py")
        pid = try TestProcess.start(["/usr/bin/env", RadicaleServer.python, script, directory.path, String(hold)] + (serial ? ["--serial"] : [])
                                    + (upstream.map { ["--upstream", $0, "--forward-puts"] } ?? [])
                                    + (holdDeletes ? ["--hold-deletes"] : [])
                                    + (loseAnswers > 0 ? ["--lose-answers", String(loseAnswers)] : []),
                                    output: directory.appendingPathComponent("log").path)
        let found = TestProcess.awaitFile(directory.appendingPathComponent("port").path, writtenBy: pid, within: 30) { Int($0) }
        guard let found else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            TestProcess.stop(pid)
            throw RadicaleFailure(message: "scripts/servers/slow-put-server.py did not start: \(log)")
        }
        port = found
    }

    package var rootURL: String { "http://127.0.0.1:\(port)/" }

    /// What the server saw: the most PUTs in flight at once, and how many PUTs wrote each path.
    package func stats() throws -> (mostInFlight: Int, written: [String: Int]) {
        let object = try statsObject()
        return (object["most_in_flight"] as? Int ?? 0, object["written"] as? [String: Int] ?? [:])
    }

    /// The DELETEs the server held (`holdDeletes`): the most in flight at once, and how many
    /// deleted each path.
    package func deleteStats() throws -> (mostInFlight: Int, deleted: [String: Int]) {
        let object = try statsObject()
        return (object["most_deletes_in_flight"] as? Int ?? 0, object["deleted"] as? [String: Int] ?? [:])
    }

    /// The paths of the PUTs the server took but never answered (`loseAnswers`).
    package func lost() throws -> [String: Int] {
        try statsObject()["lost"] as? [String: Int] ?? [:]
    }

    private func statsObject() throws -> [String: Any] {
        // Through the curl tool, never focus's own client.
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = ["curl", "-s", "--noproxy", "*", rootURL + "_stats"]
        let pipe = Pipe()
        curl.standardOutput = pipe
        try curl.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    deinit {
        TestProcess.stop(pid)
        try? FileManager.default.removeItem(at: directory)
    }
}
