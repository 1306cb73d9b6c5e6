import FoundationEssentials

extension PlanChanges {
    /// A subtask whose next block a change of plan moves: where it was, where it goes.
    package struct Move: Sendable, Equatable {
        package var path: String
        package var from: Date
        package var to: Date

        package init(path: String, from: Date, to: Date) {
            self.path = path
            self.from = from
            self.to = to
        }
    }

    /// The subtasks other than `except` whose next block after `now` starts elsewhere in `after`
    /// than in `before` (the add form's "which blocks would move"), earliest first, then by path.
    package static func moves(before: [Block], after: [Block], except: Int64?, now: Date) -> [Move] {
        func next(_ blocks: [Block]) -> [Int64: Block] {
            var first: [Int64: Block] = [:]
            for block in blocks where block.end > now && block.subtaskID != except {
                if let seen = first[block.subtaskID], seen.start <= block.start { continue }
                first[block.subtaskID] = block
            }
            return first
        }
        let was = next(before)
        let will = next(after)
        return was.compactMap { subtask, old in
            guard let new = will[subtask], new.start != old.start else { return nil }
            return Move(path: old.path, from: old.start, to: new.start)
        }.sorted { ($0.from, $0.path) < ($1.from, $1.path) }
    }
}
