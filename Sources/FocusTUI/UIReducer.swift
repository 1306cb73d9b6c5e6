import FocusCore
import FocusTime
import FoundationEssentials

/// The view's one decision: the next state and what to do, from the state and what happened.
package enum UIReducer {
    /// The windows `[` `]` step through on Stats.
    package static let statsWindows = [7, 14, 30]

    package static func reduce(_ state: UIState, _ event: UIEvent) -> (UIState, [Effect]) {
        var s = state
        switch event {
        case let .key(key):
            return pressed(key, s)
        case let .resized(width, height):
            s.width = width
            s.height = height
            return (s, [])
        case let .tick(now):
            let before = s.today
            s.now = now
            // At midnight a view left on today moves on to the new day.
            guard s.today != before, s.day == before else { return (s, []) }
            s.day = s.today
            s.weekStart = UIState.monday(of: s.day)
            s.weekDay = s.day.dayNumber - s.weekStart.dayNumber
            return (s, [.load(s.request)])
        case .changed:
            return (s, [.load(s.request)])
        case let .loaded(data, request):
            // An answer to a request since replaced is dropped: a newer one is on its way.
            guard request == s.request else { return (s, []) }
            s.data = data
            s.message = nil
            for screen in [Screen.today, .tasks, .stats] { s.keepSelection(on: screen) }
            return (s, [])
        case let .failed(sentence):
            s.message = sentence
            return (s, [])
        }
    }

    private static func pressed(_ key: Key, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        if s.showingHelp, key == .escape || key == .char("?") {
            s.showingHelp = false
            return (s, [])
        }
        guard let action = KeyTable.action(for: key, on: s.screen) else { return (s, []) }
        switch action {
        case .quit: return (s, [.quit])
        case .help: s.showingHelp.toggle()
        case let .show(screen): s.screen = screen; s.showingHelp = false
        case .nextScreen: s.screen = Screen(rawValue: s.screen.rawValue % 5 + 1) ?? .today; s.showingHelp = false
        case .previousScreen: s.screen = Screen(rawValue: (s.screen.rawValue + 3) % 5 + 1) ?? .today; s.showingHelp = false
        case .down: s.move(to: s.selected(s.screen) + 1)
        case .up: s.move(to: s.selected(s.screen) - 1)
        case .top: s.move(to: 0)
        case .bottom: s.move(to: Int.max)
        case .left, .right, .earlier, .later, .open: return stepped(action, s)
        }
        return (s, [])
    }

    /// The keys that change what is loaded: another day, week or window.
    private static func stepped(_ action: Action, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        let before = s.request
        switch (s.screen, action) {
        case (.week, .left), (.week, .right):
            let day = s.weekStart.adding(days: s.weekDay + (action == .left ? -1 : 1))
            s.weekStart = UIState.monday(of: day)
            s.weekDay = day.dayNumber - s.weekStart.dayNumber
        case (.week, .earlier), (.week, .later):
            s.weekStart = s.weekStart.adding(days: action == .earlier ? -7 : 7)
        case (.week, .open):
            s.day = s.weekStart.adding(days: s.weekDay)
            s.screen = .today
            s.selection[.today] = 0
            s.selectedKey[.today] = nil
        case (.today, .earlier), (.today, .later):
            s.day = s.day.adding(days: action == .earlier ? -1 : 1)
            s.selection[.today] = 0
            s.selectedKey[.today] = nil
        case (.stats, .earlier), (.stats, .later):
            let index = statsWindows.firstIndex(of: s.statsDays) ?? 0
            s.statsDays = statsWindows[max(0, min(statsWindows.count - 1, index + (action == .earlier ? -1 : 1)))]
        default:
            break
        }
        return (s, s.request == before ? [] : [.load(s.request)])
    }
}

extension UIState {
    /// The keys of the rows a screen's list selects among.
    package func itemKeys(_ screen: Screen) -> [String] {
        guard let data else { return [] }
        switch screen {
        case .today: return TodayLayout.items(data.day).map(\.key)
        case .tasks: return TasksLayout.rows(data.tasks).map(\.key)
        case .stats: return data.stats.tasks.map(\.task)
        case .week, .timer: return []
        }
    }

    /// Selects row `index` (clamped to the list) on the current screen.
    mutating func move(to index: Int) {
        let keys = itemKeys(screen)
        guard !keys.isEmpty else { return }
        let clamped = max(0, min(keys.count - 1, index))
        selection[screen] = clamped
        selectedKey[screen] = keys[clamped]
    }

    /// After a reload: the same item as before where it still is, else the same row.
    mutating func keepSelection(on screen: Screen) {
        let keys = itemKeys(screen)
        if let key = selectedKey[screen], let index = keys.firstIndex(of: key) {
            selection[screen] = index
        } else if !keys.isEmpty {
            let index = max(0, min(keys.count - 1, selected(screen)))
            selection[screen] = index
            selectedKey[screen] = keys[index]
        } else {
            selection[screen] = 0
        }
    }
}
