import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// The next planned block: the first by start that has not ended at `now` (one running now
    /// counts). Blocks last less than two days, so this reads the (status, start) index from two
    /// days back and stops at the first hit; `focus status` runs it every second.
    package static let nextBlockSQL = AppDatabase.blockSelectSQL + """
         WHERE scheduledBlock.status = 'planned' AND scheduledBlock.startedAt >= ? AND scheduledBlock.endedAt > ?
           AND scheduledBlock.id IS NOT ?
         ORDER BY scheduledBlock.startedAt LIMIT 1
        """

    /// The next planned block at `now`, leaving out `excluding` (the running session's block).
    package func nextBlock(at now: Date, excluding: Int64? = nil) throws(FocusError) -> BlockView? {
        try read { db in
            try Row.fetchOne(db, sql: AppDatabase.nextBlockSQL, arguments: [now.unixSeconds - 2 * 86_400, now.unixSeconds, excluding])
                .map(AppDatabase.blockView)
        }
    }
}
