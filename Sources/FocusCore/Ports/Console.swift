import FocusText
import FoundationEssentials

/// Where commands write: results to standard output, diagnostics to standard error.
package protocol Console: Sendable {
    /// Whether standard output is a terminal a person is looking at (live redraw, colour).
    var isInteractive: Bool { get }
    /// Whether colour escapes may be used (`NO_COLOR`, `TERM=dumb` and pipes say no).
    var allowsColor: Bool { get }
    /// Terminal width in columns (80 when unknown).
    var width: Int { get }
    /// The raw streams, written as they are. Text for a person goes through `show`, `line`,
    /// `note` and `error`, which take `DisplayText`; `out` is for formats that escape for
    /// themselves (JSON, CSV, iCalendar, a file sent to standard output).
    func out(_ text: String)
    func err(_ text: String)
    /// The first write to standard output or error that failed, if one did. After a failure
    /// nothing more is written to that stream (a file cut short stays cut, never holed).
    var writeFailure: ConsoleWriteFailure? { get }
}

/// A write to standard output or standard error that failed or fell short: a full disk
/// (ENOSPC), a closed descriptor (EBADF), a reader that went away (EPIPE). Exit 74.
package struct ConsoleWriteFailure: Equatable, Sendable {
    package enum Stream: Sendable { case output, error }
    package var stream: Stream
    /// The errno of the failed write.
    package var code: Int32
    /// Why, in the system's words ("No space left on device"; "it is closed" for EBADF).
    package var reason: String
    /// The reader of a pipe went away (EPIPE: `focus log | head -1`): not worth a message.
    package var isBrokenPipe: Bool

    /// FocusSystem's `init(stream:code:)` reads `reason` and `isBrokenPipe` from the errno.
    package init(stream: Stream, code: Int32, reason: String, isBrokenPipe: Bool) {
        self.stream = stream
        self.code = code
        self.reason = reason
        self.isBrokenPipe = isBrokenPipe
    }

    /// `cannot write to standard output: No space left on device. The output is incomplete.`
    package var sentence: String {
        let name = stream == .output ? "standard output" : "standard error"
        return "cannot write to \(name): \(reason). The output is incomplete."
    }
}

extension Console {
    package var writeFailure: ConsoleWriteFailure? { nil }

    /// Throws once a write to standard output has failed: long outputs (export) stop there.
    package func checkOutput() throws(FocusError) {
        if let failure = writeFailure, failure.stream == .output { throw .output(failure) }
    }

    /// Text for a person on standard output, as it is (a renderer's lines, line feeds included).
    package func show(_ text: DisplayText) { out(text.string) }
    /// A result line on standard output.
    package func line(_ text: DisplayText = "") { out(text.string + "\n") }
    /// A JSON value on its own line of standard output.
    package func line(_ json: JSON) { line(DisplayText(json)) }
    /// A warning or notice on standard error: `focus: <text>`, on one line (notes quote task
    /// names, file names and server replies; the rule is applied again to the whole line).
    package func note(_ text: DisplayText) { err("focus: \(DisplayText(text.string).string)\n") }
    /// The error line a command ends with: `focus: error: <text>` on standard error.
    package func error(_ text: DisplayText) { err("focus: error: \(text.string)\n") }
}

extension DisplayText {
    /// A JSON document as it is: JSON writes every control and line break inside a string as
    /// an escape (`JSON.rendered`, RFC 8259 section 7), so its text drives no terminal.
    package init(_ json: JSON) { self.init(trusted: json.rendered()) }
}
