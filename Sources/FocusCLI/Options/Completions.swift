import ArgumentParser
import FocusCore
import FocusStorage
import FocusText
import FoundationEssentials

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
    /// passes along are not part of it). A name holding a line break, a tab or another control
    /// character is never offered: the scripts read candidates one a line (fish splits a
    /// description off at a tab), so it would reach the shell as pieces of another name. Nor is
    /// one the views show escaped (a bidirectional control, a zero-width character: `Thes\u{200B}is`
    /// offered as `Thesis`): what a candidate inserts is what it looks like.
    static func matching(_ candidates: [String], _ prefix: String) -> [String] {
        let typed = TaskCatalog.key(unquoted(prefix))
        return candidates.filter { candidate in
            DisplayText.isShownAsIs(candidate)
                && (typed.isEmpty || TaskCatalog.key(candidate).hasPrefix(typed))
        }
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

/// The completion scripts the parser writes, with what it leaves out added.
enum CompletionScripts {
    /// `script` for `shell`, completing `--db` and `--tz` before the subcommand too
    /// (`focus --tz Eu<Tab>`, `focus --db x.sqlite start Th<Tab>`): the parser keeps them on each
    /// subcommand (`FocusMain.hoistingGlobalOptions` moves them there), so its scripts know them
    /// only after one. A script whose shape this does not recognise is returned as it is.
    static func patched(_ script: String, shell: String) -> String {
        switch shell {
        case "bash": return candidatesAsDataInBash(patchedBash(script) ?? script)
        case "zsh": return candidatesAsDataInZsh(patchedZsh(script) ?? script)
        case "fish": return patchedFish(script) ?? script
        default: return script
        }
    }

    /// bash: the candidates `focus ---completion` prints (names from the database, which another
    /// app or a shared calendar may have chosen) are read one a line and go into `COMPREPLY`
    /// quoted by `printf %q`, so the word inserted reads back as the name (`Evil\ \$\(x\)`).
    /// The parser's script hands them to `compgen -W "$(…)"`, which expands `$(…)`, backticks
    /// and variables in each word (bash(1), "Programmable Completion": the word list undergoes
    /// command substitution), so pressing Tab would run what a name holds; and readline's own
    /// quoting of `-o filenames` leaves `$` and a closing parenthesis as they are, so it is
    /// turned off for these candidates (`compopt +o filenames`).
    private static func candidatesAsDataInBash(_ script: String) -> String {
        let call = "__focus_add_completions -W \"$(__focus_custom_complete "
        let end = "\"$(__focus_cursor_index_in_current_word)\")\""
        // After an opening quote (the word as typed, `COMP_WORDS[COMP_CWORD]`, begins with it;
        // readline closes it) the name goes inside it: in '…' only a ' needs care, in "…" a
        // backslash, $, ` and " (bash(1), QUOTING).
        let function = #"""
            # focus: candidates as data, one a line, never through `compgen -W` (which expands them).
            __focus_add_candidates() {
                compopt +o filenames 2>/dev/null
                local candidate quoted
                while IFS='' read -r candidate; do
                    case "${COMP_WORDS[COMP_CWORD]}" in
                    \'*) quoted="${candidate//\'/\'\\\'\'}" ;;
                    \"*)
                        quoted="${candidate//\\/\\\\}"
                        quoted="${quoted//\$/\\\$}"
                        quoted="${quoted//\`/\\\`}"
                        quoted="${quoted//\"/\\\"}"
                        ;;
                    *) printf -v quoted '%q' "${candidate}" ;;
                    esac
                    COMPREPLY+=("${quoted}")
                done < <(__focus_custom_complete "${@}")
            }

            _focus() {
            """#
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where line.contains(call) && line.hasSuffix(end) {
            lines[index] = String(line.replacing(call, with: "__focus_add_candidates ").dropLast(3)) + "\""
        }
        return lines.joined(separator: "\n").replacing("\n_focus() {\n", with: "\n" + function + "\n", maxReplacements: 1)
    }

    /// zsh: the candidates are added with `compadd`, which quotes what it inserts, rather than
    /// through `_describe`, which would take a name's first `:` for the start of a description
    /// (zshcompsys(1), `_describe`): `Col:on` completes to itself.
    private static func candidatesAsDataInZsh(_ script: String) -> String {
        script.replacing(
            "    if [[ \"${#completions[@]}\" -gt 1 ]]; then\n        __focus_complete \"${completions[@]:0:-1}\"\n",
            with: "    if [[ \"${#completions[@]}\" -gt 1 ]]; then\n        local -a names=(\"${completions[@]:0:-1}\")\n"
                + "        compadd -V '' -d names -- \"${names[@]}\"\n",
            maxReplacements: 1)
    }

    /// zsh: the root function's `_arguments` takes the two options, with the specs (and so the
    /// value completion) `status` has, so they are consumed before the subcommand.
    private static func patchedZsh(_ script: String) -> String? {
        patchingRoot(script) { body, statusBody in
            let specs = statusBody.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.hasPrefix("        '--db[") || $0.hasPrefix("        '--tz[") }
            let anchor = "        '--version[Show the version.]'\n"
            guard specs.count == 2, let at = body.firstRange(of: anchor) else { return false }
            body.replaceSubrange(at, with: specs.joined(separator: "\n") + "\n" + anchor)
            return true
        }
    }

    /// The script with the root function's body (`_focus`, in bash's and zsh's scripts alike)
    /// changed by `patch`, which is handed `status`'s body to take the two options' completions
    /// from; nil when either function is not found or `patch` finds nothing to change.
    private static func patchingRoot(_ script: String, _ patch: (inout String, Substring) -> Bool) -> String? {
        guard let root = script.firstRange(of: "\n_focus() {\n"),
              let rootEnd = script[root.upperBound..<script.endIndex].firstRange(of: "\n}\n"),
              let status = script.firstRange(of: "\n_focus_status() {\n"),
              let statusEnd = script[status.upperBound..<script.endIndex].firstRange(of: "\n}\n")
        else { return nil }
        var body = String(script[root.upperBound..<rootEnd.lowerBound])
        guard patch(&body, script[status.upperBound..<statusEnd.lowerBound]) else { return nil }
        return String(script[..<root.upperBound]) + body + String(script[rootEnd.lowerBound...])
    }

    /// fish: the root's token parser knows the two options take a value, and the root offers
    /// them with `status`'s completions of their values.
    private static func patchedFish(_ script: String) -> String? {
        let rootParse = "    case 'focus'\n        __focus_parse_subcommand 0 'version' 'h/help'\n"
        guard let parse = script.firstRange(of: rootParse) else { return nil }
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        let global = lines.filter {
            $0.hasPrefix("complete -c 'focus' -n '__focus_should_offer_completions_for_flags_or_options \"focus status\" db'")
                || $0.hasPrefix("complete -c 'focus' -n '__focus_should_offer_completions_for_flags_or_options \"focus status\" tz'")
        }.map { String($0.replacing("\"focus status\" ", with: "\"focus\" ")) }
        let help = "complete -c 'focus' -n '__focus_should_offer_completions_for_flags_or_options \"focus\" h help'"
        guard global.count == 2, let helpLine = lines.firstIndex(where: { $0.hasPrefix(help) }) else { return nil }
        var patched = script
        patched.replaceSubrange(parse, with: "    case 'focus'\n        __focus_parse_subcommand 0 'db=' 'tz=' 'version' 'h/help'\n")
        var out = patched.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The parse line keeps the line count, so the help line's index still holds.
        out.insert(contentsOf: global, at: helpLine + 1)
        return out.joined(separator: "\n")
    }

    /// The root function declares the two options (so their values are skipped on the way to
    /// the subcommand, and they are offered with the flags) and completes their values as the
    /// subcommands do, with the case arms taken from `status`'s function.
    private static func patchedBash(_ script: String) -> String? {
        patchingRoot(script) { body, statusBody in
            let declaration = "    local -a non_repeating_options=()\n    __focus_offer_flags_options 0\n"
            guard let db = caseArm("--db", in: statusBody), let tz = caseArm("--tz", in: statusBody),
                  let at = body.firstRange(of: declaration) else { return false }
            body.replaceSubrange(at, with: """
                    local -a non_repeating_options=(--db --tz)
                    __focus_offer_flags_options 0

                    # focus: --db and --tz before the subcommand, completing their value.
                    if [[ "${#unparsed_words[@]}" -eq 0 ]]; then
                        case "${prev}" in
                \(db)\(tz)    esac
                    fi

                """)
            return true
        }
    }

    /// `    '--tz')` … `        ;;` with its line end, from a function's `case "${prev}"`.
    private static func caseArm(_ option: String, in body: Substring) -> String? {
        guard let start = body.firstRange(of: "    '\(option)')\n"),
              let end = body[start.upperBound..<body.endIndex].firstRange(of: "        ;;\n")
        else { return nil }
        return String(body[start.lowerBound..<end.upperBound])
    }
}
