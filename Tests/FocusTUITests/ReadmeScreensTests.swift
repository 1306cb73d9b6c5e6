import FocusCore
import FocusTUI
import Foundation
import Testing

/// The README's captured screens of `focus ui` are the view's own frames (80×24, the pinned
/// Monday of the fixtures, no colour): a change of a screen shows here until the README follows.
struct ReadmeScreensTests {
    /// A screen as the README shows it: the frame's text, each line without trailing blanks.
    static func captured(_ screen: Screen) -> String {
        let snapshot = SessionSnapshot(phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(1500), isPaused: false,
                                       phaseStartedAt: UIFixtures.at(23, 10, 30), endsAt: UIFixtures.at(23, 10, 55), focusedSeconds: 0,
                                       workStartedAt: UIFixtures.at(23, 10, 30), workPlannedSeconds: 1500)
        let active = ActiveSession(pid: 1, taskID: 1, subtaskID: 2, blockID: 7, snapshot: snapshot, checkpointAt: UIFixtures.at(23, 10, 30))
        let data = screen == .timer
            ? UIFixtures.data(session: RunningSession(active: active, task: "Thesis", subtask: "Chapter 2"))
            : UIFixtures.data()
        let frame = UIView.frame(UIFixtures.state(screen, width: 80, height: 24, data: data))
        var lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    static var readme: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }

    @Test(arguments: Screen.allCases)
    func theReadmeShowsEachScreenAsTheViewDrawsIt(_ screen: Screen) throws {
        let shown = "```text\n" + Self.captured(screen) + "\n```"
        if ProcessInfo.processInfo.environment["FOCUS_WRITE_SCREENS"] != nil {
            try shown.write(toFile: "/tmp/focus-screen-\(screen.title).txt", atomically: true, encoding: .utf8)
        }
        #expect(Self.readme.contains(shown), "the README's \(screen.title) screen differs from the view's frame:\n\(shown)")
    }
}
