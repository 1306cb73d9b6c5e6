import FocusCLI
import Foundation
import Testing

/// focus reads its settings from the environment it was started with (FOCUS_DB, TZ, NO_COLOR,
/// XDG_* ...): every variable, with its whole value.
@Suite struct ProcessEnvironmentTests {
    @Test func everyVariableTheProcessWasGivenIsRead() {
        #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
        #expect(!ProcessEnvironment.current().isEmpty)
    }
}
