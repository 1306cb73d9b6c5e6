import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials

extension SyncEngine {
    /// Runs one sync and notes how it ended; an error is noted and thrown. `progress` counts
    /// the writes.
    package static func sync(_ target: SyncTarget, endpoint: CalDAVEndpoint, db: AppDatabase, env: ServiceContext,
                             client: (any CalDAVClient)? = nil, progress: (any ProgressCounter)? = nil) throws -> Summary {
        let client = client ?? env.caldav
        do {
            let summary = try SyncEngine(env: env, client: client, db: db, progress: progress).run(target, endpoint: endpoint)
            if summary.unconverged { try db.noteSync(at: env.now(), token: nil, error: unconverged) }
            return summary
        } catch {
            let message = (error as? FocusError)?.description ?? "\(error)"
            try? db.noteSync(at: env.now(), token: nil, error: message)
            throw error
        }
    }

    /// What a sync that could not converge says, here and in `sync status` and `doctor`.
    package static let unconverged = "did not converge: the server still refused some writes after \(rounds) rounds, so the two sides still differ. Run `focus sync` again; if this persists, `focus sync status` shows what waits."
}
