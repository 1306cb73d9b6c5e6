import FocusCore
import FocusStorage
import FocusSystem
import FocusText

/// Where the password of a CalDAV account comes from (README, "Your real calendar"): focus never
/// stores one and never puts one in a process's arguments. In order: standard input
/// (`--password-stdin`), the account's `password_command` (both through the context's
/// `CredentialSource`), the person at the terminal (its `Prompter`); none of those and the
/// requests go without a password (the server says whether it needs one).
package struct CalDAVLogin: Sendable {
    package var passwordFromStandardInput = false
    /// Whether a person at a terminal may be asked (not after `plan`, not in the daemon).
    package var mayPrompt = true

    package init(passwordFromStandardInput: Bool = false, mayPrompt: Bool = true) {
        self.passwordFromStandardInput = passwordFromStandardInput
        self.mayPrompt = mayPrompt
    }

    /// The endpoint of a stored account, with its password. The account must have been set up
    /// by this user on this machine, or the person says yes to it now (README, "What focus
    /// promises"); its remembered `--ca-file` must still be a regular file (the input-file rule:
    /// a FIFO put there later never blocks a refresh).
    package func endpoint(_ account: StoredAccount, env: ServiceContext) throws(FocusError) -> CalDAVEndpoint {
        let user = account.user.isEmpty ? nil : account.user
        try approve(account, env: env)
        let password = try password(user: user, command: account.passwordCommand, host: CalendarFeed.shownAddress(account.url), env: env)
        return CalDAVEndpoint(url: account.url, user: user, password: password, caFile: account.caFile, insecure: account.insecure)
    }

    /// The stored-settings rule and the input-file rule for a stored account (see `endpoint`).
    package func approve(_ account: StoredAccount, env: ServiceContext, checkFile: Bool = true) throws(FocusError) {
        let setting = StoredSetting(kind: .account, url: account.url, user: account.user, passwordCommand: account.passwordCommand,
                                    caFile: account.caFile, insecure: account.insecure)
        try TrustStore(env: env).require(setting, mayAsk: mayPrompt, again: Self.again(account))
        if checkFile, let caFile = account.caFile { try InputFile.check(caFile) }
    }

    /// How to approve an account that came with the database.
    static func again(_ account: StoredAccount) -> String {
        var line = "focus calendar connect '\(account.url)'"
        if !account.user.isEmpty { line += " --user '\(account.user)'" }
        return "Run `focus calendar refresh` at a terminal to be asked, or connect the account yourself: `\(DisplayText(line).string) --password-command …`."
    }

    /// The password from the first source that has one (see above); nil when none does.
    package func password(user: String?, command: String?, host: String, env: ServiceContext) throws(FocusError) -> String? {
        if passwordFromStandardInput { return try env.credentials.standardInput() }
        if let command, !command.isEmpty { return try env.credentials.run(command, environment: env.environment) }
        guard let user, mayPrompt, let prompter = env.prompter else { return nil }
        return prompter.password("Password for \(user) at \(host): ")
    }
}
