import FocusNotifications
import Testing

@Suite struct NotificationTextTests {
    @Test(arguments: [
        ("R&D <draft>", "R&amp;D &lt;draft&gt;"),
        ("a && b", "a &amp;&amp; b"),
        ("<b>bold</b>", "&lt;b&gt;bold&lt;/b&gt;"),
        ("&amp;", "&amp;amp;"),
        ("plain — text 🍅", "plain — text 🍅"),
        ("quotes \"stay\" 'as' they are", "quotes \"stay\" 'as' they are"),
        ("", ""),
    ])
    func bodyMarkupShowsTaskNamesLiterally(input: String, escaped: String) {
        #expect(NotificationText.escapingMarkup(input) == escaped)
    }

    @Test(arguments: [
        ("Thesis\u{1B}[31m red", "Thesis\u{FFFD}[31m red"),
        ("bell\u{07} and nul\u{0} shown", "bell\u{FFFD} and nul\u{FFFD} shown"),
        ("two\nlines", "two lines"),
        ("windows\r\nline", "windows line"),
        ("tab\there", "tab here"),
        ("  padded \n", "padded"),
        ("del\u{7F} and c1\u{85}next\u{9B}x", "del\u{FFFD} and c1 next\u{FFFD}x"),
        ("separator\u{2028}kept apart", "separator kept apart"),
        ("Thesis/Chapter 2", "Thesis/Chapter 2"),
        ("bidi\u{202E}txt.exe\u{2066}", "bidi\u{FFFD}txt.exe\u{FFFD}"),
    ])
    func singleLineTextNeutralisesControlCharacters(input: String, cleaned: String) {
        #expect(NotificationText.singleLine(input) == cleaned)
    }

    @Test(arguments: [
        ("first\nsecond", "first\nsecond"),
        ("crlf\r\nline", "crlf\nline"),
        ("lone\rreturn", "lone\nreturn"),
        ("tab\tstop", "tab stop"),
        ("esc\u{1B}[2Jclear\u{07}", "esc\u{FFFD}[2Jclear\u{FFFD}"),
        ("a\u{0}b\u{1F}c\u{9F}d\u{202E}e", "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e"),
    ])
    func bodyKeepsLineBreaksButNeutralisesOtherControlCharacters(input: String, cleaned: String) {
        #expect(NotificationText.multiLine(input) == cleaned)
    }
}
