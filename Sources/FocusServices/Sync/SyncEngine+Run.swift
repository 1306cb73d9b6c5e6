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

extension SyncEngine.Summary {
    /// What a sync did, in one or two lines.
    package func lines(target: SyncTarget) -> [String] {
        var lines: [String] = []
        if let backup = backup { lines.append("Backed up the database to \(DisplayText(backup).string) first.") }
        var parts: [String] = []
        if received > 0 { parts.append("\(received) received") }
        if sent > 0 { parts.append("\(sent) sent") }
        if deletedHere > 0 { parts.append("\(deletedHere) deleted here") }
        if deletedThere > 0 { parts.append("\(deletedThere) deleted there") }
        lines.append("Synced with \(DisplayText(target.name).string): \(parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")).")
        if conflicts > 0 {
            lines.append("\(conflicts) field\(conflicts == 1 ? " was" : "s were") changed on both machines: the newer kept; see `focus sync status`.")
        }
        lines += settings
        for label in kept {
            lines.append("warning: '\(DisplayText(label).string)' was deleted on one machine but holds work the other recorded: kept on both (`focus sync status`). To delete it again: \(DisplayText(Quoted.command("focus task rm", label, then: "--force")).string)")
        }
        for label in deletedElsewhere {
            let path = DisplayText(label).string
            lines.append("'\(path)' was deleted in another app: archived here with its sessions, which still count (`focus task list --all`). To delete it with them: focus task rm '\(path)' --force")
        }
        for label in seriesTicked {
            let path = DisplayText(label).string
            lines.append("'\(path)' was ticked done in another app: this period's work is done here, and the series goes on (to end it: focus task rm '\(path)').")
        }
        for label in cameBack {
            let path = DisplayText(label).string
            lines.append("warning: '\(path)', deleted here, is back: another machine recorded work in it meanwhile (`focus sync status`). To delete it again: focus task rm '\(path)' --force")
        }
        return lines + warnings.map { "warning: " + DisplayText($0).string }
    }
}
