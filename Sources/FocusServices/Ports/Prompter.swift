import FocusText

/// The person at the terminal, as a service asks them: a yes to a stored setting that was not
/// set up by them on this machine (README, "What focus promises"), a password typed when no
/// other source gives one (README, "Your real calendar"). FocusCLI asks on the terminal
/// (`TerminalPrompter`); a test answers from a script. A service that may not ask (the daemon,
/// publishing after a command) never calls it; where there is no terminal there is no prompter
/// (`ServiceContext.prompter` is nil). Questions are `DisplayText`: a user or host name read from
/// a database drives no terminal.
package protocol Prompter: Sendable {
    /// Asks a yes-or-no question (it ends in `[y/N]`); true for a yes.
    func confirm(_ question: DisplayText) -> Bool
    /// Asks for a password, typed without echo; nil when nothing was typed or the terminal
    /// cannot take one.
    func password(_ question: DisplayText) -> String?
}
