import FoundationEssentials

/// A piece of work a person tracks time against: "Thesis", "Groceries".
/// Named `FocusTask` so it never shadows Swift concurrency's `Task`.
package struct FocusTask: Sendable, Equatable, Hashable {
    package var id: Int64?
    package var title: String
    package var notes: String?
    package var archived: Bool
    package var createdAt: Date

    package init(id: Int64? = nil, title: String, notes: String? = nil, archived: Bool = false, createdAt: Date) {
        self.id = id
        self.title = title
        self.notes = notes
        self.archived = archived
        self.createdAt = createdAt
    }
}
