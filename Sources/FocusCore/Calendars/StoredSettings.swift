import FocusText
import FoundationEssentials

/// A setting kept in the database that makes focus run a program, read a file or contact an
/// address: a CalDAV account (its address, user, password command, CA file) or a subscribed feed
/// (its address, CA file). README, "What focus promises": such a setting is used only when this
/// user set it on this machine, or after the person says yes to it. What the person set is
/// remembered outside the database, as the SHA-256 digest of the setting (`digest`), in a file
/// in their config directory; a database file (a restored one, one `--db` names) cannot add to it.
package struct StoredSetting: Equatable, Sendable {
    package enum Kind: String, Sendable { case account, feed }
    package var kind: Kind
    package var url: String
    /// Empty for a feed, or an account without a login.
    package var user: String
    package var passwordCommand: String?
    package var caFile: String?
    package var insecure: Bool

    package init(kind: Kind, url: String, user: String = "", passwordCommand: String? = nil, caFile: String? = nil, insecure: Bool = false) {
        self.kind = kind
        self.url = url
        self.user = user
        self.passwordCommand = passwordCommand.flatMap { $0.isEmpty ? nil : $0 }
        self.caFile = caFile.flatMap { $0.isEmpty ? nil : $0 }
        self.insecure = insecure
    }

    /// Every field, each preceded by its length, so no two settings share a record.
    var record: String {
        let fields = ["focus-stored-setting-1", kind.rawValue, url, user, passwordCommand ?? "\u{0}", caFile ?? "\u{0}", insecure ? "1" : "0"]
        return fields.map { "\($0.utf8.count):\($0)" }.joined(separator: "\n")
    }

    /// What the trusted-settings file keeps of it.
    package var digest: String { SHA256.hex(record.utf8) }

    /// `CalDAV account https://cloud.example.org/ (user me), password command 'pass show x', CA file /etc/ca.pem`:
    /// what a person is asked about and `doctor` lists (the address as messages show it).
    package var summary: String {
        var text = kind == .account ? "CalDAV account \(CalendarFeed.shownAddress(url))" : "feed \(CalendarFeed.shownAddress(url))"
        if !user.isEmpty { text += " (user \(user))" }
        if let passwordCommand { text += ", password command '\(passwordCommand)'" }
        if let caFile { text += ", CA file \(caFile)" }
        if insecure { text += ", plain http allowed (--insecure)" }
        return DisplayText(text).string
    }

    /// The sentence when a setting this user did not set may not be used without asking.
    package func refusal(again: String) -> FocusError {
        let what = passwordCommand != nil ? "run its password command or contact it" : "contact it"
        return .unavailable("the \(summary) came with this database and was not set up by you on this machine, so focus will not \(what) without asking. \(again)")
    }
}

/// The trusted-settings file: one digest a line (`StoredSetting.digest`), `#` comments.
package enum TrustedSettings {
    package static func parse(_ text: String) -> Set<String> {
        Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.filter { $0.count == 64 && $0.allSatisfy(\.isHexDigit) }.map { $0.lowercased() })
    }

    package static func render(_ digests: Set<String>) -> String {
        "# focus: calendar settings (accounts, password commands, CA files, feed addresses) this user set on this machine.\n"
            + "# SHA-256 digests, one a line; README, \"What focus promises\". Delete a line to be asked again.\n"
            + digests.sorted().map { $0 + "\n" }.joined()
    }
}
