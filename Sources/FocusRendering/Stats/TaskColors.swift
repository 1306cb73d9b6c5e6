import FocusCore
import FoundationEssentials

/// A colour per task for charts: derived from the title (so a task keeps its colour from
/// one report to the next), and distinct among the top tasks.
package struct TaskColors: Sendable, Equatable {
    /// Ten hues that read on white and on a dark background alike.
    package static let palette = [
        "#3b82c4", "#e8833a", "#d64550", "#3aa57a", "#8e6cc7",
        "#c9a227", "#2bb3c0", "#d16ba5", "#7f8c3a", "#a0674b",
    ]
    /// For everything past the top tasks ("Other").
    package static let other = "#9aa0a6"

    /// Colours by task title, for the top tasks only.
    package private(set) var byTask: [String: String] = [:]
    /// The titles that got their own colour, in the order given.
    package private(set) var top: [String] = []

    /// Assigns colours to the first `palette.count` titles (the caller passes them most
    /// important first). Each title prefers the palette slot its hash names; when a more
    /// important title took it, the next free slot is used.
    package init(titles: [String]) {
        var taken = [Bool](repeating: false, count: TaskColors.palette.count)
        for title in titles.prefix(TaskColors.palette.count) where byTask[title] == nil {
            var slot = Int(TaskColors.hash(title) % UInt32(TaskColors.palette.count))
            while taken[slot] { slot = (slot + 1) % TaskColors.palette.count }
            taken[slot] = true
            byTask[title] = TaskColors.palette[slot]
            top.append(title)
        }
    }

    /// The colour of a task: its own for a top task, grey otherwise.
    package func color(for title: String) -> String { byTask[title] ?? TaskColors.other }

    /// 32-bit FNV-1a over the lower-cased title's UTF-8: stable across runs and machines
    /// (unlike `Hasher`, which is seeded per process).
    package static func hash(_ title: String) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for byte in title.lowercased().utf8 {
            h ^= UInt32(byte)
            h = h &* 16_777_619
        }
        return h
    }
}
