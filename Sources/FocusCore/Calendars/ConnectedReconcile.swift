import FoundationEssentials

/// A connected calendar's delta checked against a listing (README, "A CalDAV account"), as sync
/// does: a server may answer a sync token it pruned with every member as `200 OK` rather than
/// RFC 6578's error (DAViCal prunes tokens older than 7 days), and such a delta never reports a
/// deletion, so a meeting deleted while this machine was away would stay busy for good.
package enum ConnectedReconcile {
    /// Whether a refresh checks what changed since its token against a listing: its last read
    /// is older than three days, or the answer lists, unchanged, nearly every member stored
    /// here (of a calendar of some size).
    package static func needed(_ changes: RemoteChanges, stored: [RemoteResource], lastFetch: Date?, now: Date) -> Bool {
        guard !changes.complete, !stored.isEmpty else { return false }
        if let lastFetch, now.timeIntervalSince(lastFetch) > 3 * 86_400 { return true }
        guard stored.count >= 20 else { return false }
        let known = Dictionary(stored.map { ($0.url, $0.etag) }, uniquingKeysWith: { a, _ in a })
        let unchanged = changes.changed.filter { r in r.etag != nil && known[r.url].flatMap { $0 } == r.etag }.count
        return unchanged * 10 >= stored.count * 9
    }

    /// The delta with every stored member the listing lacks added as removed.
    package static func reconciled(_ changes: RemoteChanges, listing: CollectionListing, stored: [RemoteResource]) -> RemoteChanges {
        let present = Set(listing.members.map(\.url))
        var out = changes
        out.removed += stored.map(\.url).filter { !present.contains($0) && !changes.removed.contains($0) }.sorted()
        return out
    }
}
