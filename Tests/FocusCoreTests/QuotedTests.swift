import FocusCore
import Testing

/// Names in suggested commands are quoted so that the line pastes into a POSIX shell as printed.
@Suite struct QuotedTests {
    @Test(arguments: [
        ("Thesis", "Thesis"),
        ("Thesis/Chapter 2", "\"Thesis/Chapter 2\""),
        ("it's", "\"it's\""),
        ("$HOME/x", "'$HOME/x'"),
        ("a'b$c", "'a'\\''b$c'"),
        // A word that starts with `#` is a comment to the shell; `=` first is expanded by zsh.
        ("#12", "\"#12\""),
        ("=x", "\"=x\""),
        ("x#1", "x#1"),
        ("~/x", "\"~/x\""),
        ("", "\"\""),
    ])
    func aNameIsOneShellWord(name: String, quoted: String) {
        #expect(Quoted.shell(name) == quoted)
    }

    /// Issue #39: `focus task rm --force --force` did not run as printed; a name that starts
    /// with `-` comes after the options and `--`.
    @Test func aSuggestedCommandPutsANameThatStartsWithADashAfterDoubleDash() {
        #expect(Quoted.command("focus task rm", "--force", then: "--force") == "focus task rm --force -- --force")
        #expect(Quoted.command("focus task rm", "-draft notes") == "focus task rm -- \"-draft notes\"")
        #expect(Quoted.command("focus task rm", "Thesis/Chapter 2", then: "--force") == "focus task rm \"Thesis/Chapter 2\" --force")
    }
}
