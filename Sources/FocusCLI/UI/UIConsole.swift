import FocusCore

/// The console of the services `focus ui` calls: each line they would print is said on the
/// view's message line instead of being written over the frame.
struct UIConsole: Console {
    let wake: UIWake

    var isInteractive: Bool { false }
    var allowsColor: Bool { false }
    var width: Int { 80 }
    var writeFailure: ConsoleWriteFailure? { nil }

    func out(_ text: String) { say(text) }
    func err(_ text: String) { say(text) }

    private func say(_ text: String) {
        for line in text.split(separator: "\n") where !line.isEmpty { wake.say(String(line)) }
    }
}
