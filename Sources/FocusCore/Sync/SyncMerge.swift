import FoundationEssentials

/// A field both machines changed since they last agreed, and the value kept.
package struct SyncConflict: Sendable, Equatable {
    package enum Side: String, Sendable { case local, remote }
    package var uid: String
    package var field: String
    package var local: String
    package var remote: String
    package var chosen: Side

    package init(uid: String, field: String, local: String, remote: String, chosen: Side) {
        self.uid = uid
        self.field = field
        self.local = local
        self.remote = remote
        self.chosen = chosen
    }
}

/// What one item's merge decided.
package struct MergeOutcome: Sendable, Equatable {
    /// The item both sides hold after the sync; nil: it is gone from both.
    package var result: SyncItem?
    /// This machine's copy must change (be written, or deleted when `result` is nil).
    package var writeLocal: Bool
    /// The server's copy must change (be written, or deleted when `result` is nil).
    package var writeRemote: Bool
    package var conflicts: [SyncConflict]

    package init(result: SyncItem?, writeLocal: Bool, writeRemote: Bool, conflicts: [SyncConflict] = []) {
        self.result = result
        self.writeLocal = writeLocal
        self.writeRemote = writeRemote
        self.conflicts = conflicts
    }
}

/// The merging rules of `focus sync` (README, "Two machines"), one item at a time, against the
/// version both sides last agreed on (`base`; nil when they never did):
///
/// 1. A deletion travels and never resurrects: gone on one side since the base, gone on both,
///    even if the other side edited it meanwhile.
/// 2. Fields merge one by one: a field changed on one side only takes that side's value; a
///    field changed on both to different values is a conflict, won by the side edited later
///    (`modified`), on a tie by the larger value (by Unicode scalars), so every machine that
///    merges the same pair decides alike. Without a base (the first sync of an item both sides
///    hold), every field that differs is decided that way.
/// 3. The result was edited when the later side was (`max` of both).
package enum SyncMerge {
    package static func merge(base: SyncItem?, local: SyncItem?, remote: SyncItem?) -> MergeOutcome {
        switch (local, remote) {
        case (nil, nil):
            return MergeOutcome(result: nil, writeLocal: false, writeRemote: false)
        case let (local?, nil):
            // Deleted there since both agreed: deleted here too. Never there: sent.
            return base != nil ? MergeOutcome(result: nil, writeLocal: true, writeRemote: false)
                : MergeOutcome(result: local, writeLocal: false, writeRemote: true)
        case let (nil, remote?):
            return base != nil ? MergeOutcome(result: nil, writeLocal: false, writeRemote: true)
                : MergeOutcome(result: remote, writeLocal: true, writeRemote: false)
        case let (local?, remote?):
            return both(base: base, local: local, remote: remote)
        }
    }

    private static func both(base: SyncItem?, local: SyncItem, remote: SyncItem) -> MergeOutcome {
        let modified = max(local.modified, remote.modified)
        guard local.kind == remote.kind else {
            // One name for two kinds of thing cannot happen between two copies of focus; the
            // server's copy is kept, and said so.
            let conflict = SyncConflict(uid: local.uid, field: "kind", local: local.kind.rawValue, remote: remote.kind.rawValue, chosen: .remote)
            return MergeOutcome(result: remote, writeLocal: true, writeRemote: false, conflicts: [conflict])
        }
        let baseFields = base.flatMap { $0.kind == local.kind ? Dictionary($0.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }) : nil }
        let remoteFields = Dictionary(remote.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        var chosen: [String: String] = [:]
        var conflicts: [SyncConflict] = []
        // A field only one side writes (`tags` is left out when empty) is empty on the other.
        let localNames = Set(local.fields.map(\.name))
        let fields = local.fields + remote.fields.filter { !localNames.contains($0.name) }.map { SyncField(name: $0.name, value: "") }
        for field in fields {
            let mine = field.value
            let theirs = remoteFields[field.name] ?? ""
            if mine == theirs { continue }
            let old = baseFields?[field.name]
            if old == mine {
                chosen[field.name] = theirs
            } else if old == theirs {
                continue  // only changed here: kept
            } else {
                let side = winner(local: mine, localModified: local.modified, remote: theirs, remoteModified: remote.modified)
                if side == .remote { chosen[field.name] = theirs }
                conflicts.append(SyncConflict(uid: local.uid, field: field.name, local: mine, remote: theirs, chosen: side))
            }
        }
        let result = local.with(chosen).modified(modified)
        return MergeOutcome(result: result, writeLocal: !result.sameContent(as: local), writeRemote: !result.sameContent(as: remote),
                            conflicts: conflicts)
    }

    /// The later edit; on a tie the larger value, compared the same way on every machine.
    private static func winner(local: String, localModified: Int64, remote: String, remoteModified: Int64) -> SyncConflict.Side {
        if localModified != remoteModified { return localModified > remoteModified ? .local : .remote }
        return local.unicodeScalars.lexicographicallyPrecedes(remote.unicodeScalars) ? .remote : .local
    }
}

/// The names items have on every machine.
package enum SyncIdentity {
    /// `focus-task-<32 hex>@focus` / `focus-subtask-…@focus`: random, made at an item's first sync.
    package static func newUID(_ kind: SyncKind, random: () -> UInt64) -> String {
        let hex = [random(), random()].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        return "focus-\(kind.rawValue)-\(hex)@focus"
    }

    /// The name of a task's stand-in subtask: the subtask of the task's title that carries the
    /// due date and estimate another app gave a to-do without a parent (README, "Two
    /// machines"). Never an item of its own: its due date and estimate travel in the task's.
    package static func standInUID(taskUID: String) -> String { taskUID + standInSuffix }

    /// The same rule over SQL: the stand-in's name of the task whose name `column` holds.
    package static func standInUID(sqlColumn column: String) -> String { "\(column) || '\(standInSuffix)'" }

    private static let standInSuffix = "#due"

    /// `focus-subtask-<16 hex>-<YYYYMMDD>@focus`: an instance of recurring work, named from its
    /// series' name and the first day of its period, so the instance two machines each make for
    /// one period is one item (README, "Planning").
    package static func instanceUID(seriesUID: String, periodStart: LocalDate) -> String {
        var hash = FNV1a()
        hash.add("\(seriesUID)|\(periodStart)".utf8)
        let digits = String(hash.value, radix: 16)
        let day = periodStart.description.filter { $0 != "-" }
        return "focus-subtask-\(String(repeating: "0", count: 16 - digits.count) + digits)-\(day)@focus"
    }

    /// Whether `uid` has the form `instanceUID` gives the instance of the period starting on
    /// `periodStart` (`YYYY-MM-DD`): `focus-subtask-<16 hex>-<YYYYMMDD>@focus`. The hex is not
    /// checked against the series, whose name may have changed since (two series unified).
    package static func isInstanceName(_ uid: String, periodStart: String) -> Bool {
        let day = periodStart.filter { $0 != "-" }
        let prefix = "focus-subtask-", suffix = "-\(day)@focus"
        guard uid.hasPrefix(prefix), uid.hasSuffix(suffix), uid.count == prefix.count + 16 + suffix.count else { return false }
        return uid.dropFirst(prefix.count).prefix(16).allSatisfy(\.isHexDigit)
    }

    /// `session-<16 hex>-<start, UTC>@focus`: made from the session's task, subtask and start,
    /// so two machines that hold the same session name it alike. A UID of the form focus gives
    /// the sessions it writes (never read back as busy time).
    package static func sessionUID(taskUID: String, subtaskUID: String?, start: Date) -> String {
        let seconds = Int64(start.timeIntervalSince1970.rounded(.down))
        var hash = FNV1a()
        hash.add("\(taskUID)|\(subtaskUID ?? "")|\(seconds)".utf8)
        let digits = String(hash.value, radix: 16)
        return "session-\(String(repeating: "0", count: 16 - digits.count) + digits)-\(SyncCodec.utc(start))@focus"
    }
}

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): a stable digest for names and fingerprints, the
/// same on every machine and every run.
package struct FNV1a: Sendable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }
}
