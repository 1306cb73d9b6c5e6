import FocusCore
import Foundation
import GRDB

// Rows are decoded by hand: faster than Codable and explicit about every column.
// Instants are stored as whole Unix seconds.

extension Date {
    init(unixSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(unixSeconds)) }
    var unixSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}

extension LocalDate {
    init?(column: String?) {
        guard let column, let d = try? DateParser.date(column, today: LocalDate(year: 1970, month: 1, day: 1)) else { return nil }
        self = d
    }
}

extension FocusTask {
    init(row: Row) {
        self.init(
            id: row["id"], title: row["title"], notes: row["notes"], archived: row["archived"],
            createdAt: Date(unixSeconds: row["createdAt"])
        )
    }
}

extension Subtask {
    init(row: Row) {
        let due: Int64? = row["due"]
        let earliest: Int? = row["earliestMinutes"]
        self.init(
            id: row["id"], taskID: row["taskId"], title: row["title"], notes: row["notes"],
            estimateSeconds: row["estimateSeconds"], startDate: LocalDate(column: row["startDate"]),
            due: due.map(Date.init(unixSeconds:)), spanSeconds: row["spanSeconds"],
            earliest: earliest.map(TimeOfDay.init(minutes:)), done: row["done"], atRisk: row["atRisk"],
            createdAt: Date(unixSeconds: row["createdAt"])
        )
    }

    /// Column values for INSERT/UPDATE, in `Subtask.columns` order.
    var arguments: StatementArguments {
        [taskID, title, TaskCatalog.key(title), notes, estimateSeconds, startDate?.description,
         due?.unixSeconds, spanSeconds, earliest?.minutes, done, atRisk]
    }

    static let columns = "taskId, title, titleKey, notes, estimateSeconds, startDate, due, spanSeconds, earliestMinutes, done, atRisk"
}

extension TimeLog {
    init(row: Row) {
        let status: String = row["status"]
        self.init(
            id: row["id"], taskID: row["taskId"], subtaskID: row["subtaskId"],
            startedAt: Date(unixSeconds: row["startedAt"]), endedAt: Date(unixSeconds: row["endedAt"]),
            plannedSeconds: row["plannedSeconds"], focusedSeconds: row["focusedSeconds"],
            status: SessionStatus(rawValue: status) ?? .interrupted, blockID: row["blockId"], note: row["note"]
        )
    }
}

extension ScheduledBlock {
    init(row: Row) {
        let status: String = row["status"]
        self.init(
            id: row["id"], subtaskID: row["subtaskId"], startedAt: Date(unixSeconds: row["startedAt"]),
            endedAt: Date(unixSeconds: row["endedAt"]), status: BlockStatus(rawValue: status) ?? .planned
        )
    }
}
