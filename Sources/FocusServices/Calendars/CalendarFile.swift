import FocusCalendar
import FocusCore
import FocusText
import FoundationEssentials
import Glibc

/// An iCalendar file or feed read as busy time, as `calendar import`, `subscribe`, `refresh` and
/// the connected calendars read them: one reader, one size limit, one window of stored
/// occurrences.
package enum CalendarFile {
    /// Occurrences are stored for this window around the import; outside it (and in another
    /// zone) busy time is expanded from the stored file.
    /// (The import budget, 1 s for 20,000 events, allows about 60k stored rows.)
    package static let daysBack = 14
    package static let daysAhead = 180

    /// The calendar's name, its number of events and its occurrences within `horizon`.
    /// Only what busy time needs is read (no DESCRIPTION or LOCATION), and the events focus
    /// published itself are left out, counted nowhere (README: Calendars).
    package static func expand(_ data: Data, file: String, name: String?, fallbackName: String? = nil, horizon: DateInterval,
                               local: LocalCalendar, strict: Bool, attendance: AttendancePolicy? = nil,
                               declined: ((BusyTimes) -> Void)? = nil, warn: (String) -> Void) throws -> (String, Int, BusyTimes) {
        let document: ICSDocument
        do {
            document = try ICSReader.parse(data: data, strict: strict, detail: .busyTime)
        } catch {
            throw FocusError.badInput(file: file, line: error.line, reason: error.reason)
        }
        for warning in document.warnings {
            warn("warning: \(file):\(warning.line): \(warning.message)")
        }
        let calendarName = try calendarName(option: name, document: document, file: fallbackName ?? file)
        let isFree = attendance?.isFree
        let occurrences = document.busyTimes(from: horizon.start, to: horizon.end, local: local, isFree: isFree)
        // The meetings left out, for the agenda to show marked.
        if let declined, let isFree { declined(document.freeTimes(from: horizon.start, to: horizon.end, local: local, isFree: isFree)) }
        return (calendarName, document.events.count, occurrences)
    }

    /// The most of one .ics file that is read: a calendar is parsed whole, so a bigger file
    /// (a 100 MB export, or /dev/zero) is refused before it can fill memory.
    package static let maximumBytes = 32 << 20

    /// The file's bytes, read in chunks and refused (65) once past `maximumBytes`; a missing or
    /// non-regular file is 66 and an unreadable one 74, as for every input file.
    package static func read(_ file: String) throws -> Data {
        var data = Data()
        // Room for the whole file at once: growing by doubling would briefly hold two copies.
        var info = stat()
        if stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            data.reserveCapacity(min(Int(info.st_size), maximumBytes))
        }
        try ChunkedFile.read(file) { chunk in
            guard data.count + chunk.count <= maximumBytes else {
                throw FocusError.badInput(file: file, line: nil, reason: "the file is larger than \(maximumBytes >> 20) MB, the most focus reads from one calendar. Export a shorter range of the calendar, or split it into several files")
            }
            data.append(contentsOf: chunk)
        }
        return data
    }

    /// `--name`, else X-WR-CALNAME, else the file's base name without its extension.
    package static func calendarName(option: String?, document: ICSDocument, file: String) throws(FocusError) -> String {
        if let option {
            let trimmed = option.trimmingSpaces()
            guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: DisplayText.isUnsafe) else {
                throw .invalidValue(what: "calendar name", value: option, expected: "a name with visible characters")
            }
            return trimmed
        }
        if let inside = document.name?.trimmingSpaces(), !inside.isEmpty {
            return DisplayText(inside).string
        }
        let base = Paths.removingExtension(Paths.name(of: file))
        return base.isEmpty ? "calendar" : DisplayText(base).string
    }
}
