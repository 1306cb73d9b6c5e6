import FocusRendering
import FocusTestSupport
import Foundation
import Testing

/// `focus help TOPIC` (issue 38): every workflow's reference in the terminal, beside
/// `focus help COMMAND`, listed by `focus help`, within 80 columns and without colour.
@Suite struct HelpTopicsTests {
    static let names = HelpTopic.all.map(\.name)

    /// `focus help` lists the commands, then every topic with its line.
    @Test func helpListsTheCommandsAndEveryTopic() async throws {
        let world = try TestWorld(now: "2026-11-23T08:00:00Z")
        for arguments in [["help"], ["--help"], []] {
            let r = await world.output(arguments)
            #expect(r.code == 0, "\(arguments): \(r.err)")
            #expect(r.out.contains("SUBCOMMANDS:") && r.out.contains("  start "), "\(arguments): \(r.out)")
            let topics = try #require(r.out.components(separatedBy: "TOPICS:").dropFirst().first, "\(arguments): \(r.out)")
            for topic in HelpTopic.all {
                #expect(topics.contains("\n  \(topic.name)  "), "\(arguments): \(topic.name) is not listed:\n\(topics)")
            }
            for line in r.out.split(separator: "\n") { #expect(line.count <= 80, "over 80 columns: \(line)") }
        }
    }

    /// Each topic prints its heading and text: lines within 80 columns, no escape sequences
    /// (no colour, on a terminal or not), and the way back to the list and the manual.
    @Test(arguments: names)
    func everyTopicPrintsItsTextWithinEightyColumns(name: String) async throws {
        let world = try TestWorld(now: "2026-11-23T08:00:00Z")
        let topic = try #require(HelpTopic.named(name))
        let r = await world.output("help", name)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.isEmpty)
        #expect(r.out.hasPrefix(topic.title.uppercased() + " (focus help \(name))\n\n"), "\(r.out.prefix(200))")
        #expect(r.out.contains(String(topic.text.prefix(60))))
        #expect(r.out.hasSuffix("Every topic: focus help; all of them in one page: man focus.\n"))
        #expect(!r.out.contains("\u{1B}"))
        #expect(topic.text.count > 200, "\(name) is nearly empty")
        for line in r.out.split(separator: "\n") { #expect(line.count <= 80, "\(name): over 80 columns: \(line)") }
        // Typed in capitals, the same topic.
        #expect(await world.output("help", name.uppercased()).out == r.out)
    }

    /// `focus help COMMAND` keeps showing the command's help, and names the topic that explains it.
    @Test func helpOnACommandShowsItsHelpAndItsTopic() async throws {
        let world = try TestWorld(now: "2026-11-23T08:00:00Z")
        let r = await world.output("help", "sync")
        #expect(r.code == 0)
        #expect(r.out.contains("USAGE: focus sync"), "\(r.out)")
        #expect(r.out.hasSuffix("SEE ALSO:\n  focus help two-machines, man focus\n"), "\(r.out)")
        let flag = await world.output("start", "--help")
        #expect(flag.out.contains("USAGE: focus start"), "\(flag.out)")
        #expect(flag.out.hasSuffix("SEE ALSO:\n  focus help sessions, man focus\n"), "\(flag.out)")
        // A subcommand's help is the parser's alone.
        let sub = await world.output("help", "task", "add")
        #expect(sub.out.contains("USAGE: focus task add"), "\(sub.out)")
    }

    /// A name that is neither a topic nor a command gets the nearest of both, and exit 64
    /// (it printed the whole help and exit 0).
    @Test(arguments: [
        ("sesions", " Did you mean `focus help sessions`?"),
        ("remidners", " Did you mean `focus help reminders`?"),
        ("two-machine", " Did you mean `focus help two-machines`?"),
        ("statz", " Did you mean `focus help stats`?"),
        ("xyzzy", ""),
    ])
    func anUnknownTopicGetsTheNearestAndExit64(name: String, suggestion: String) async throws {
        let world = try TestWorld(now: "2026-11-23T08:00:00Z")
        let r = await world.output("help", name)
        #expect(r.code == 64)
        #expect(r.out.isEmpty)
        #expect(r.err == "focus: error: unknown help topic or command '\(name)'.\(suggestion) `focus help` lists the commands and the topics.\n")
    }

    /// Words after a topic are refused, not ignored (the parser printed the whole help, exit 0).
    @Test func wordsAfterATopicAreRefused() async throws {
        let world = try TestWorld(now: "2026-11-23T08:00:00Z")
        let r = await world.output("help", "sessions", "open")
        #expect(r.code == 64)
        #expect(r.out.isEmpty)
        #expect(r.err == "focus: error: `focus help` shows one topic; 'open' after 'sessions' is one word too many. `focus help sessions` shows it.\n")
        let unknown = await world.output("help", "sesions", "open")
        #expect(unknown.code == 64)
        #expect(unknown.err.hasPrefix("focus: error: unknown help topic or command 'sesions'. Did you mean `focus help sessions`?"), "\(unknown.err)")
    }

    /// The manual holds every topic as a section of its own, from the same text.
    @Test func theManualHasEveryTopicAsASection() throws {
        for topic in HelpTopic.all {
            let section = ManPageRenderer.section(topic)
            #expect(section.first == ".SH \"\(ManPageRenderer.escape(topic.title.uppercased()))\"")
            // Every word of the topic is in its section (roff escapes aside).
            let words = Set(topic.text.split(whereSeparator: { !$0.isLetter }).map(String.init))
            let body = section.joined(separator: " ")
            for word in words { #expect(body.contains(word), "\(topic.name): '\(word)' is missing from the manual") }
        }
    }
}
