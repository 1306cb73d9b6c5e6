import FocusCore

/// The sources of a CalDAV account's password that are not the person at the terminal (README,
/// "Your real calendar"): standard input (`--password-stdin`) and the account's
/// `password_command`. FocusCLI reads the one and runs the other (`ProcessCredentials`: the
/// program gets the terminal while it runs); a test's fake answers at once.
package protocol CredentialSource: Sendable {
    /// The first line of standard input; throws the usage error when it holds none.
    func standardInput() throws(FocusError) -> String
    /// Runs a `password_command` (without a shell) and returns the first line it prints.
    func run(_ command: String, environment: [String: String]) throws(FocusError) -> String
}
