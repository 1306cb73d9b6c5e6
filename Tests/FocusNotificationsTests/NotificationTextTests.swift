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
        ("Thesis\u{1B}[31m red", "Thesis[31m red"),
        ("bell\u{07} and nul\u{0} gone", "bell and nul gone"),
        ("two\nlines", "two lines"),
        ("windows\r\nline", "windows line"),
        ("tab\there", "tab here"),
        ("  padded \n", "padded"),
        ("del\u{7F} and c1\u{85}next\u{9B}x", "del and c1 nextx"),
        ("separator\u{2028}kept apart", "separator kept apart"),
        ("Thesis/Chapter 2", "Thesis/Chapter 2"),
    ])
    func singleLineTextLosesControlCharacters(input: String, cleaned: String) {
        #expect(NotificationText.singleLine(input) == cleaned)
    }

    @Test(arguments: [
        ("first\nsecond", "first\nsecond"),
        ("crlf\r\nline", "crlf\nline"),
        ("lone\rreturn", "lone\nreturn"),
        ("tab\tstop", "tab stop"),
        ("esc\u{1B}[2Jclear\u{07}", "esc[2Jclear"),
        ("a\u{0}b\u{1F}c\u{9F}d", "abcd"),
    ])
    func bodyKeepsLineBreaksButLosesOtherControlCharacters(input: String, cleaned: String) {
        #expect(NotificationText.multiLine(input) == cleaned)
    }
}
