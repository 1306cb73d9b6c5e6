import ArgumentParser
import FocusCore
import FocusStorage
import Foundation

/// What `<Tab>` offers for each kind of argument, in bash, zsh and fish (the scripts
/// `focus --generate-completion-script SHELL` writes call `focus` back for the custom kinds).
/// Data comes from the database the command line names (`--db`), else `$FOCUS_DB`, else the
/// default one, read-only.
enum Completions {
    /// Task and subtask paths: `Thesis`, `Thesis/Chapter 2` (the shell quotes the spaces).
    static let paths = CompletionKind.custom { words, _, prefix in matching(CompletionData.paths(databasePath: database(words)), prefix) }
    /// The newest session ids.
    static let sessionIDs = CompletionKind.custom { words, _, prefix in matching(CompletionData.sessionIDs(databasePath: database(words)), prefix) }
    /// Stored calendars' names.
    static let calendars = CompletionKind.custom { words, _, prefix in matching(CompletionData.calendarNames(databasePath: database(words)), prefix) }
    /// Config keys (`work`, `hours.mon`, …).
    static let configKeys = CompletionKind.list(FocusConfig.keys.map(\.key))
    /// IANA zone names from the zone database.
    static let zones = CompletionKind.custom { _, _, prefix in
        let environment = ProcessInfo.processInfo.environment
        return matching(["UTC"] + ZoneDatabase(environment: environment).cities.values.sorted(), prefix)
    }

    /// The database a command line names.
    static func database(_ words: [String]) -> String {
        var option: String?
        for (index, word) in words.enumerated() {
            if word == "--db", index + 1 < words.count { option = unquoted(words[index + 1]) }
            if word.hasPrefix("--db=") { option = unquoted(String(word.dropFirst(5))) }
        }
        return FocusEnvironment.databasePath(option: option, environment: ProcessInfo.processInfo.environment)
    }

    /// Candidates that start with what is typed so far, case-insensitively (quotes the shell
    /// passes along are not part of it).
    static func matching(_ candidates: [String], _ prefix: String) -> [String] {
        let typed = TaskCatalog.key(unquoted(prefix))
        guard !typed.isEmpty else { return candidates }
        return candidates.filter { TaskCatalog.key($0).hasPrefix(typed) }
    }

    /// A shell word without its quotes and backslash escapes (`"Thesis/Ch` → `Thesis/Ch`).
    static func unquoted(_ word: String) -> String {
        var out = ""
        var quote: Character?
        var escaped = false
        for c in word {
            if escaped { out.append(c); escaped = false; continue }
            if c == "\\" && quote != "'" { escaped = true; continue }
            if let q = quote {
                if c == q { quote = nil } else { out.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
            } else {
                out.append(c)
            }
        }
        return out
    }
}
