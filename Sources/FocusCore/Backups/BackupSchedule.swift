import FocusText
import FoundationEssentials

/// The daily backups kept beside the database: `focus.sqlite.backup-2026-11-22`, one per local
/// day, the newest `kept` of them. Names only: the files are made and removed in FocusStorage.
package struct BackupSchedule: Sendable, Equatable {
    /// How many daily backups are kept.
    package static let kept = 7

    /// The directory holding the database and its backups.
    package let directory: String
    /// The database's file name (`focus.sqlite`).
    package let databaseName: String

    /// A relative `databasePath` is taken from the working directory. Text only: building a
    /// file URL for this was a thirtieth of every command's start.
    package init(databasePath: String) {
        let absolute = databasePath.hasPrefix("/")
            ? databasePath : Paths.join(FileManager.default.currentDirectoryPath, databasePath)
        directory = Paths.directory(of: absolute)
        databaseName = Paths.name(of: absolute)
    }

    private var prefix: String { databaseName + ".backup-" }

    /// `focus.sqlite.backup-2026-11-22`.
    package func fileName(for day: LocalDate) -> String { prefix + day.description }

    package func path(for day: LocalDate) -> String { directory + "/" + fileName(for: day) }

    /// The day a daily backup's file name stands for; nil for any other file.
    package func day(ofFileName name: String) -> LocalDate? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard rest.count == 10, let day = DateParser.parseDate(rest) else { return nil }
        // Only the canonical spelling: `2026-1-5` or a suffix makes it someone else's file.
        return day.description == rest ? day : nil
    }

    /// The daily backups among `fileNames`, newest first.
    package func backups(among fileNames: [String]) -> [(name: String, day: LocalDate)] {
        fileNames.compactMap { name in day(ofFileName: name).map { (name, $0) } }.sorted { $0.day > $1.day }
    }

    /// The daily backups to remove so that the newest `kept` remain.
    package func expired(among fileNames: [String]) -> [String] {
        backups(among: fileNames).dropFirst(BackupSchedule.kept).map(\.name)
    }

    /// `focus.sqlite.before-restore-20261122-093000`: where `focus restore` keeps the database it
    /// replaces (UTC, so two restores in one second are the only clash).
    package func asidePath(at instant: Date) -> String {
        let seconds = Int(TimeRange.seconds(instant.timeIntervalSince1970))
        let day = LocalDate(dayNumber: CivilCalendar.day(ofWall: seconds))
        let time = CivilCalendar.secondOfDay(ofWall: seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let stamp = day.description.replacing("-", with: "") + "-" + two(time / 3600) + two(time / 60 % 60) + two(time % 60)
        return directory + "/" + databaseName + ".before-restore-" + stamp
    }
}
