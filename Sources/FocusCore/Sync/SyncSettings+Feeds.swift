import FocusText
import FoundationEssentials

extension SyncSettings {
    /// A feed that arrived through sync, as this machine subscribes to it.
    package struct ArrivingFeed: Sendable, Equatable {
        package var address: String
        /// A name no calendar here has.
        package var name: String
    }

    /// What this machine does with the feeds other machines subscribe to (README, "Two
    /// machines"). A synced address passes exactly the checks a typed `focus calendar subscribe`
    /// makes (https, webcal, or plain http only to this machine; no user name or password in it;
    /// no file path) and is in the form subscribe stores, or it is not applied: one warning,
    /// and as the merge agreed on it, it is not tried again. A feed never takes the name of a
    /// calendar here (an imported file, another feed, a connected CalDAV calendar): it is named
    /// `Name (host)`, then `Name (host) 2`, …, so no calendar is replaced to make room for it.
    /// `taken`: the names of the calendars here.
    package static func arriving(_ feeds: [Feed], taken: [String]) -> (subscribe: [ArrivingFeed], warnings: [String]) {
        var keys = Set(taken.map(TaskCatalog.key))
        var subscribe: [ArrivingFeed] = []
        var warnings: [String] = []
        for feed in feeds {
            let shown = CalendarFeed.shownAddress(feed.address)
            let checked: String
            do {
                checked = try CalendarFeed.address(feed.address, insecure: false)
            } catch {
                warnings.append("warning: the feed \(DisplayText(shown).string) that another machine subscribes to was not subscribed to here: \(Self.reason(error))")
                continue
            }
            guard checked == feed.address else {
                warnings.append("warning: the feed \(DisplayText(shown).string) that another machine subscribes to was not subscribed to here: its address is not one `focus calendar subscribe` stores (\(DisplayText(CalendarFeed.shownAddress(checked)).string)).")
                continue
            }
            let base = SyncAdmission.clamp(feed.name, kind: "calendar").0
            let name = CalendarNaming.free(base, host: CalendarFeed.host(of: checked), taken: keys)
            keys.insert(TaskCatalog.key(name))
            subscribe.append(ArrivingFeed(address: checked, name: name))
        }
        return (subscribe, warnings)
    }

    /// Why an address was refused, without the address itself: its path may be a secret
    /// (messages show a feed's host only, README "Your real calendar").
    private static func reason(_ error: FocusError) -> String {
        if case let .invalidValue(_, _, expected) = error { return DisplayText("expected \(expected).").string }
        return DisplayText(error.description).string
    }
}
