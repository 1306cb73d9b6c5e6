import FoundationEssentials

/// The one line a long command shows on a terminal while it works:
/// `Importing 412,000 / 1,000,000 sessions · 27,500/s · 21 s left`, or in bytes
/// `Checking 12.3 MB / 80.0 MB · 40.1 MB/s · 2 s left`. Pure: the numbers in, the text out.
package enum ProgressLine {
    package enum Unit: Sendable, Equatable {
        /// Counted things, named in the plural (`sessions`).
        case items(String)
        case bytes
    }

    /// The line for `done` of `total` (nil: unknown) after `elapsed` seconds, cut to `width`
    /// columns (a line wider than the terminal would wrap, and `\r` could not erase it).
    package static func render(verb: String, done: Int, total: Int?, unit: Unit, elapsed: Double, width: Int = 80) -> String {
        var parts: [String] = []
        switch unit {
        case .items(let name):
            let count = total.map { "\(grouped(done)) / \(grouped($0))" } ?? grouped(done)
            parts.append("\(verb) \(count) \(name)")
        case .bytes:
            let count = total.map { "\(bytes(done)) / \(bytes($0))" } ?? bytes(done)
            parts.append("\(verb) \(count)")
        }
        if elapsed > 0, done > 0 {
            let rate = Double(done) / elapsed
            switch unit {
            case .items: parts.append("\(grouped(Int(rate.rounded())))/s")
            case .bytes: parts.append("\(bytes(Int(rate.rounded())))/s")
            }
            if let total, total > done, rate > 0 {
                parts.append("\(duration(Double(total - done) / rate)) left")
            }
        }
        let line = parts.joined(separator: " · ")
        let limit = max(1, width - 1)
        return line.count > limit ? String(line.prefix(limit)) : line
    }

    /// A step whose size is not known ahead: `Expanding events · 2 s`, cut to `width`.
    package static func phase(_ label: String, elapsed: Double, width: Int = 80) -> String {
        let line = "\(label) · \(Int(elapsed.rounded(.down))) s"
        let limit = max(1, width - 1)
        return line.count > limit ? String(line.prefix(limit)) : line
    }

    /// `1,000,000`.
    package static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// `812 B`, `12.3 kB`, `80.0 MB`, `1.2 GB` (decimal units; tenths rounded half up).
    package static func bytes(_ n: Int) -> String {
        let units = ["kB", "MB", "GB", "TB"]
        guard n >= 1000 else { return "\(n) B" }
        var index = 0
        var tenth = 100 // bytes in a tenth of the unit
        // In tenths of the unit, rounded; a value that rounds to 1000.0 moves up a unit.
        func tenths() -> Int { n / tenth + (n % tenth >= tenth / 2 ? 1 : 0) }
        while tenths() >= 10_000, index < units.count - 1 {
            tenth *= 1000
            index += 1
        }
        let shown = tenths()
        return "\(shown / 10).\(shown % 10) " + units[index]
    }

    /// `21 s`, `3 min 20 s`, `1 h 5 min` (rounded up: a promise of less than is left).
    package static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
        let minutes = (s % 3600) / 60
        return minutes == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(minutes) min"
    }
}
