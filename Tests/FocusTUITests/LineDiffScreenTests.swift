import FocusCoreTestSupport
import FocusRendering
import FocusText
import FocusTUI
import Testing

/// The screen writer's bytes fed to a small terminal (the ECMA-48 controls the writer uses:
/// CUP, ED 2, EL, SGR and private modes) and the screen compared with the frame.
struct LineDiffScreenTests {
    /// A grid of cells; a wide character takes its cell and leaves the next one empty.
    struct VirtualTerminal {
        var cells: [[String]]
        var row = 0, column = 0

        init(width: Int, height: Int) { cells = Array(repeating: Array(repeating: " ", count: width), count: height) }

        mutating func feed(_ bytes: String) {
            var scalars = Array(bytes.unicodeScalars)[...]
            while let first = scalars.first {
                if first == "\u{1B}" {
                    scalars = control(scalars.dropFirst())
                    continue
                }
                // One character (a grapheme) at a time, as a terminal lays it out.
                let text = String(String.UnicodeScalarView(scalars))
                let character = text.first!
                put(character)
                scalars = scalars.dropFirst(character.unicodeScalars.count)
            }
        }

        mutating func put(_ character: Character) {
            let width = TerminalText.width(of: character)
            guard row < cells.count, column + width <= cells[row].count else { return }
            cells[row][column] = String(character)
            if width == 2 { cells[row][column + 1] = "" }
            column += width
        }

        /// A CSI sequence after ESC: `[`, parameters, one final byte.
        mutating func control(_ rest: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
            var rest = rest.dropFirst()
            var parameters = ""
            while let c = rest.first, (0x20...0x3F).contains(c.value) {
                parameters.unicodeScalars.append(c)
                rest = rest.dropFirst()
            }
            guard let final = rest.first else { return rest }
            let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
            switch final {
            case "H":
                row = (numbers.first ?? 1) - 1
                column = (numbers.count > 1 ? numbers[1] : 1) - 1
            case "J" where parameters == "2":
                cells = cells.map { $0.map { _ in " " } }
            case "K":
                for c in column..<cells[row].count { cells[row][c] = " " }
            default:
                break
            }
            return rest.dropFirst()
        }

        var lines: [String] {
            cells.map { StyledLine.droppingTrailingSpacesForTests($0.joined()) }
        }
    }

    static let words = ["Thesis", "Chapter 2", "論文", "📚", "█", "░", "─", "é", "Math 101", " ", "  ", "✓", "⏎"]

    static func randomFrame(_ random: inout SeededRandom, width: Int, height: Int) -> Frame {
        let styles: [StyledLine.Style] = [.plain, .bold, .boldCyan, .dim, .red]
        let rows = (0..<height).map { _ -> StyledLine in
            var line = StyledLine()
            guard !random.chance(20) else { return line }
            for _ in 0...random.int(0...12) { line.add(DisplayText(random.pick(words)), random.pick(styles)) }
            return line
        }
        return Frame(width: width, height: height, rows: rows)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func aDiffFromAnyFrameToAnyOtherLeavesTheScreenShowingTheOther(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let (width, height) = (random.int(20...90), random.int(5...30))
        var terminal = VirtualTerminal(width: width, height: height)
        var drawn: [String]?
        for _ in 0..<6 {
            let frame = Self.randomFrame(&random, width: width, height: height)
            let color = random.chance(50)
            let lines = frame.lines(color: color)
            // A frame drawn again after a change of colour is a redraw of every line.
            if let bytes = LineDiff.bytes(from: drawn, to: lines) { terminal.feed(bytes) }
            drawn = lines
            #expect(terminal.lines == frame.lines(color: false), "seed \(seed)")
        }
    }
}

extension StyledLine {
    /// A terminal row's text without the blank cells after it.
    static func droppingTrailingSpacesForTests(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
