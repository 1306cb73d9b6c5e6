import FocusCore
import FocusCoreTestSupport
import FocusServices
import Foundation
import Glibc
import Testing

/// The trusted-settings file (README, "What focus promises"): believed only when it is a
/// regular file of this user's that no one else may write, as ssh treats its own files; and
/// commands adding to it at once lose nothing (issue #39).
@Suite struct TrustedSettingsFileTests {
    let digest = String(repeating: "a", count: 64)

    func file(_ world: ServiceWorld) -> String { world.directory + "/trusted-settings" }

    @Test func aFileGroupOrOthersMayWriteIsIgnoredWithOneWarning() throws {
        let world = try ServiceWorld()
        let store = TrustStore(env: world.context())
        try (digest + "\n").write(toFile: file(world), atomically: true, encoding: .utf8)
        #expect(chmod(file(world), 0o620) == 0)
        #expect(try store.trusted().isEmpty)
        #expect(try store.trusted().isEmpty)
        let warnings = world.console.stderr.split(separator: "\n").filter { $0.contains("ignoring \(file(world))") }
        #expect(warnings.count == 1, "\(world.console.stderr)")
        #expect(warnings.first?.contains("group or others may write it") == true)
        #expect(chmod(file(world), 0o600) == 0)
        #expect(try store.trusted() == [digest], "trusted again once only its owner may write it")
    }

    @Test func aFileOfAnotherUserOrAFIFOIsIgnored() throws {
        let world = try ServiceWorld()
        let store = TrustStore(env: world.context())
        #expect(mkfifo(file(world), 0o600) == 0)
        #expect(try store.trusted().isEmpty, "read without blocking on the FIFO")
        #expect(world.console.stderr.contains("it is not a regular file"), "\(world.console.stderr)")
        guard geteuid() == 0 else { return }
        let other = try ServiceWorld()
        try (digest + "\n").write(toFile: file(other), atomically: true, encoding: .utf8)
        #expect(chown(file(other), 65_534, 65_534) == 0)
        #expect(try TrustStore(env: other.context()).trusted().isEmpty)
        #expect(other.console.stderr.contains("it belongs to another user (uid 65534)"), "\(other.console.stderr)")
    }

    @Test func parallelWritersLoseNoDigest() throws {
        let world = try ServiceWorld()
        let context = world.context()
        let writers = 8, each = 25
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let store = TrustStore(env: context)
            for n in 0..<each {
                let digest = String(format: "%032lx%032lx", writer, n)
                try? store.add([digest])
            }
        }
        #expect(try TrustStore(env: context).load()?.count == writers * each)
    }
}
