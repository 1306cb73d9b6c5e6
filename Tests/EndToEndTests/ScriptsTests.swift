import FocusCoreTestSupport
import Foundation
import Testing

/// The repository's scripts, grouped by what they are for under scripts/ (docs/ARCHITECTURE.md,
/// "Layout"): every path to one written where it is, and the release binary and its build flags
/// named once, in the Makefile, whatever runs them.
@Suite struct ScriptsTests {
    static let root = TestRepository.root

    /// The text files of the repository that name scripts: the Makefile, CI, the docs and the
    /// README, the help texts and every other source, the tests, and the scripts themselves.
    static func textFiles() -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        for name in ["Makefile", "README.md", "Package.swift", ".ci/run"] {
            if let text = try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) { files.append((name, text)) }
        }
        for folder in ["scripts", "docs", "Sources", "Tests", "data"] {
            let base = root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where !url.path.contains("/Fuzz/corpus/") {
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                files.append((folder + url.path.dropFirst(base.path.count), text))
            }
        }
        return files
    }

    /// `make -s print-NAME`: a variable's value, as make reads it.
    static func make(_ name: String) throws -> String {
        let r = try TestRepository.make(["print-\(name)"], environment: ProcessInfo.processInfo.environment)
        #expect(r.status == 0, "\(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Moving a script into its group left no path to its old place: every `scripts/…` written
    /// anywhere in the repository names a file or folder that exists.
    @Test func everyScriptPathWrittenInTheRepositoryExists() {
        let files = Self.textFiles()
        #expect(files.contains { $0.path == "Makefile" } && files.count > 100, "\(files.count) files read")
        let path = /scripts\/[a-z][A-Za-z0-9_.\/-]*/
        var named = 0
        for file in files {
            for match in file.text.matches(of: path) {
                var written = String(match.output)
                while written.hasSuffix(".") { written.removeLast() }
                named += 1
                let exists = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(written).path)
                #expect(exists, "\(file.path) names \(written), which does not exist")
            }
        }
        #expect(named > 100)
    }

    /// No script nor CI spells the release binary's path or the release build's flags: they ask
    /// scripts/lib/focus-bin, which prints the Makefile's RELEASE_BIN (or FOCUS_BIN, another
    /// binary), and build with `make build`.
    @Test func theReleaseBinaryAndItsFlagsAreNamedInTheMakefileAlone() throws {
        for file in Self.textFiles() where file.path.hasPrefix("scripts/") || file.path == ".ci/run" {
            for spelling in [".build/release", "release/focus", "-c release", "--static-swift-stdlib"] {
                let spelled = file.text.contains(spelling)
                #expect(!spelled, "\(file.path) spells \(spelling): ask scripts/lib/focus-bin or the Makefile")
            }
        }
        let script = TestRepository.script("lib/focus-bin")
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "FOCUS_BIN")
        let release = try TestProcess.run(script, ["--no-build"], environment: environment, stdin: nil, capture: true)
        #expect(release.status == 0, "\(release.err)")
        #expect(release.out == Self.root.path + "/" + (try Self.make("RELEASE_BIN")) + "\n")
        environment["FOCUS_BIN"] = "/opt/older/focus"
        let other = try TestProcess.run(script, ["--no-build"], environment: environment, stdin: nil, capture: true)
        #expect(other.out == "/opt/older/focus\n")
        let wrong = try TestProcess.run(script, ["--bild"], environment: environment, stdin: nil, capture: true)
        #expect(wrong.status == 64 && wrong.err.contains("usage: scripts/lib/focus-bin"), "\(wrong.err)")
    }

    /// scripts/bench/build-times measures `make build` as the Makefile has it (it once built
    /// without three of the release flags): the same flags, and for its variant with debug
    /// information the same without `-Xswiftc -gnone`.
    @Test func buildTimesBuildsWithTheMakefilesReleaseFlags() throws {
        let script = TestRepository.script("bench/build-times")
        // Without --flags the script builds from nothing three times: never run it so here.
        try #require(try String(contentsOfFile: script, encoding: .utf8).contains("--flags)"), "build-times has no --flags")
        let r = try TestProcess.run(script, ["--flags"], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
        #expect(r.status == 0, "\(r.err)")
        let flags = try Self.make("SWIFT_FLAGS") + " " + Self.make("RELEASE_FLAGS")
        #expect(flags.contains(" -Xswiftc -gnone "))
        let debug = flags.replacingOccurrences(of: " -Xswiftc -gnone ", with: " ")
        #expect(r.out == "make build: \(flags)\nwith debug information: \(debug)\n")
    }
}
