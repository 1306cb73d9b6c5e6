import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusSystem
import FocusText
import FoundationEssentials
import FocusStorage

/// `focus config (get KEY | set KEY VALUE | path | list)`.
package struct ConfigCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Read and change settings in config.toml.",
        subcommands: [ConfigListCommand.self, ConfigGetCommand.self, ConfigSetCommand.self, ConfigPathCommand.self],
        defaultSubcommand: ConfigListCommand.self
    )
    package init() {}
}

package struct ConfigListCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every setting and its value.")
    @Flag(help: "Print JSON for scripts.") var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let settings = try FocusConfig.keys.map { entry throws(FocusError) in (key: entry.key, value: try env.config.value(of: entry.key), help: entry.help) }
        if json {
            env.console.line(ConfigRenderer.json(settings.map { (key: $0.key, value: $0.value) }))
            return
        }
        env.console.show(ConfigRenderer.listing(settings, file: env.configPath))
    }
}

package struct ConfigGetCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one setting.")
    @Argument(help: ArgumentHelp("The setting, e.g. work.", valueName: "key"), completion: Completions.configKeys) var key: String
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        env.console.line(DisplayText(try env.config.value(of: key)))
    }
}

package struct ConfigSetCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change one setting (validated before it is written).",
        usage: "focus config set <key> <value> [--db <path>] [--tz <zone>]")
    @Argument(help: ArgumentHelp("The setting, e.g. work.", valueName: "key"), completion: Completions.configKeys) var key: String
    /// One value; taken as typed even when it starts with `-` (`off -2026-12-11` removes a day off,
    /// README "Configuration").
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Its new value, e.g. 50m.", valueName: "value")) var values: [String] = []
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    /// The value given (after `--`, the way such values were written before).
    var given: [String] { values.first == "--" ? Array(values.dropFirst()) : values }
    var value: String { given.first ?? "" }

    package func validate() throws {
        let values = given
        guard values.count == 1 else {
            throw FocusError.usage(values.isEmpty
                ? "`focus config set \(key)` needs a value: `focus config set \(key) VALUE` (see `focus config` for each key's values)."
                : "`focus config set` takes one value; quote a value with spaces: `focus config set \(key) \"\(values.joined(separator: " "))\"`.")
        }
    }

    package func run(in env: FocusEnvironment) async throws {
        var config = env.config
        try config.set(key, to: value, today: env.today)
        if FocusConfig.relatedKeys.contains(key), (try? config.validate()) == nil {
            // One key at a time: say which one to change first to get both where they are wanted.
            let other = key == "day_start" ? "day_end" : "day_start"
            let now = (try? env.config.value(of: other)) ?? ""
            throw FocusError.invalidValue(what: key, value: value, expected: "a time that keeps day_start before day_end (\(other) is \(now): change it first)")
        }
        try config.validate()
        let normalized = try config.value(of: key)
        let existing = FileManager.default.contents(atPath: env.configPath).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        let text = ConfigFile.updating(existing, key: key, value: normalized)
        // The finished file is what later commands read: it must read back whole.
        _ = try ConfigFile.parse(text, path: env.configPath)
        try AtomicFile.write(text, to: env.configPath, access: .privateToUser)
        env.console.line("\(key) = \(normalized)")
        // Working hours, lengths and breaks shape the plan: plan again under the new settings
        // (when there is a database; setting up focus before its first use creates none).
        guard env.databasePath == ":memory:" || FileManager.default.fileExists(atPath: env.databasePath) else { return }
        var updated = env
        updated.config = config
        let db = try env.openDatabase()
        if AttendanceReread.keys.contains(key) { try AttendanceReread.run(updated.services, db) }
        try db.markPlanStale()
        Planning.replanIfStale(updated.services, db)
    }
}

package struct ConfigPathCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "path", abstract: "Print where the config file lives.")
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        env.console.line(DisplayText(env.configPath))
    }
}
