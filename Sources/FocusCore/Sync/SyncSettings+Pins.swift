import FoundationEssentials

extension SyncSettings {
    /// A pinned block as it travels with the settings (README, "Two machines": pins are a
    /// planning input like working hours): its subtask's sync name, its time and the UID of its
    /// published event, one `pin.…` key a pin. A pin dropped on one machine (`plan --unpin`, the
    /// work done) is the empty value, and is dropped on the others.
    package struct Pin: Sendable, Equatable {
        package var subtaskUID: String
        package var start: Date
        package var end: Date
        package var eventUID: String

        package init(subtaskUID: String, start: Date, end: Date, eventUID: String) {
            self.subtaskUID = subtaskUID
            self.start = start
            self.end = end
            self.eventUID = eventUID
        }

        package var key: String { "pin." + String(SHA256.hex(eventUID.utf8).prefix(16)) }
        var value: String {
            [subtaskUID, String(Int64(start.timeIntervalSince1970)), String(Int64(end.timeIntervalSince1970)), eventUID].joined(separator: "\n")
        }

        static func parse(_ value: String) -> Pin? {
            let parts = value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, !parts[0].isEmpty, !parts[3].isEmpty, let start = Int64(parts[1]), let end = Int64(parts[2]), end > start
            else { return nil }
            return Pin(subtaskUID: parts[0], start: Date(timeIntervalSince1970: Double(start)), end: Date(timeIntervalSince1970: Double(end)),
                       eventUID: parts[3])
        }
    }

    /// The pins here as the merge reads them (added to `localValues`).
    package static func localPins(_ pins: [Pin]) -> [String: String] {
        Dictionary(pins.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// What a merge's `apply` changes of the pins here: blocks to pin (or move), and the event
    /// UIDs of pins to drop.
    package static func pinChanges(_ merge: Merge, local: [String: String]) -> (pin: [Pin], unpin: [String]) {
        var pin: [Pin] = [], unpin: [String] = []
        for (key, value) in merge.apply where key.hasPrefix("pin.") {
            if let arriving = Pin.parse(value) {
                pin.append(arriving)
            } else if value.isEmpty, let held = local[key].flatMap(Pin.parse) {
                unpin.append(held.eventUID)
            }
        }
        return (pin.sorted { $0.eventUID < $1.eventUID }, unpin.sorted())
    }
}
