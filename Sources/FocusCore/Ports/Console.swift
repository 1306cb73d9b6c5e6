import FoundationEssentials
import Glibc

/// Where commands write: results to standard output, diagnostics to standard error.
package protocol Console: Sendable {
    /// Whether standard output is a terminal a person is looking at (live redraw, colour).
    var isInteractive: Bool { get }
    /// Whether colour escapes may be used (`NO_COLOR`, `TERM=dumb` and pipes say no).
    var allowsColor: Bool { get }
    /// Terminal width in columns (80 when unknown).
    var width: Int { get }
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

    package init(stream: Stream, code: Int32) {
        self.stream = stream
        self.code = code
    }

    /// The reader of a pipe went away (`focus log | head -1`): not worth a message.
    package var isBrokenPipe: Bool { code == EPIPE }

    /// `cannot write to standard output: No space left on device. The output is incomplete.`
    package var sentence: String {
        let name = stream == .output ? "standard output" : "standard error"
        let reason = code == EBADF ? "it is closed" : String(cString: strerror(code))
        return "cannot write to \(name): \(reason). The output is incomplete."
    }
}

extension Console {
    package var writeFailure: ConsoleWriteFailure? { nil }

    /// Throws once a write to standard output has failed: long outputs (export) stop there.
    package func checkOutput() throws(FocusError) {
        if let failure = writeFailure, failure.stream == .output { throw .output(failure) }
    }

    /// A result line on standard output.
    package func line(_ text: String = "") { out(text + "\n") }
    /// A warning or notice on standard error: `focus: <text>`, on one line and made safe by
    /// `Sanitized.terminal` (notes quote task names, file names and server replies).
    package func note(_ text: String) { err("focus: \(Sanitized.terminal(text))\n") }
}
