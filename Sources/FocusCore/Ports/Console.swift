import Foundation

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
}

extension Console {
    /// A result line on standard output.
    package func line(_ text: String = "") { out(text + "\n") }
    /// A warning or notice on standard error: `focus: <text>`, on one line and made safe by
    /// `Sanitized.terminal` (notes quote task names, file names and server replies).
    package func note(_ text: String) { err("focus: \(Sanitized.terminal(text))\n") }
}
