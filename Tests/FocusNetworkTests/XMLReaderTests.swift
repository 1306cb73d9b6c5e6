import FocusCore
import FocusNetwork
import Foundation
import Testing

private func parse(_ text: String) throws(FocusError) -> XMLReader.Element {
    try XMLReader.parse(Data(text.utf8), source: "https://dav.example/")
}

private func refusal(_ text: String) -> String? {
    do {
        _ = try parse(text)
        return nil
    } catch {
        guard case let .badInput(file, _, reason) = error else { return "not badInput: \(error)" }
        #expect(file == "https://dav.example/")
        return reason
    }
}

@Suite("XML reader")
struct XMLReaderTests {
    @Test("A multistatus with prefixed and default namespaces reads as namespace and local name")
    func namespaces() throws {
        let root = try parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment -->
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:response>
                <D:href>/alice/work/</D:href>
                <D:propstat><D:prop>
                  <D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
                  <getctag xmlns="http://calendarserver.org/ns/">42</getctag>
                  <C:supported-calendar-component-set><C:comp name='VEVENT'/></C:supported-calendar-component-set>
                </D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
              </D:response>
            </D:multistatus>
            """)
        #expect(root.is("DAV:", "multistatus"))
        let prop = try #require(root.child("DAV:", "response")?.child("DAV:", "propstat")?.child("DAV:", "prop"))
        #expect(prop.child("DAV:", "resourcetype")?.child("urn:ietf:params:xml:ns:caldav", "calendar") != nil)
        #expect(prop.child("http://calendarserver.org/ns/", "getctag")?.text == "42")
        #expect(prop.child("urn:ietf:params:xml:ns:caldav", "supported-calendar-component-set")?
            .child("urn:ietf:params:xml:ns:caldav", "comp")?.attributes["name"] == "VEVENT")
        #expect(root.child("DAV:", "response")?.child("DAV:", "href")?.text == "/alice/work/")
    }

    @Test("Text reads the same escaped, in CDATA, or with character references", arguments: [
        ("<d xmlns=\"DAV:\">BEGIN:VCALENDAR&#13;&#10;SUMMARY:Tom &amp; Jerry &lt;3&#x21;</d>", "BEGIN:VCALENDAR\r\nSUMMARY:Tom & Jerry <3!"),
        ("<d xmlns=\"DAV:\"><![CDATA[BEGIN:VCALENDAR\r\nSUMMARY:Tom & Jerry <3!]]></d>", "BEGIN:VCALENDAR\r\nSUMMARY:Tom & Jerry <3!"),
        ("<d xmlns=\"DAV:\">&quot;a&apos; <!-- skipped --><?pi skipped?>b</d>", "\"a' b"),
        ("\u{FEFF}<d xmlns=\"DAV:\">caf\u{E9} &#233;</d>", "caf\u{E9} \u{E9}"),
        ("<d xmlns=\"DAV:\"/>", ""),
    ])
    func text(input: String, expected: String) throws {
        #expect(try parse(input).text == expected)
    }

    @Test("A default namespace ends with its element; an inner one overrides")
    func scopes() throws {
        let root = try parse("<a xmlns=\"one\"><b xmlns=\"two\"><c/></b><d/><e xmlns=\"\"/></a>")
        #expect(root.namespace == "one")
        #expect(root.children.map(\.namespace) == ["two", "one", ""])
        #expect(root.children[0].children[0].namespace == "two")
    }

    @Test("Malformed documents are refused with a reason, never a crash", arguments: [
        ("", "no element at all"),
        ("<a xmlns=\"DAV:\"><b></a>", "</a> where </b> was expected"),
        ("<a><b>", "ends inside <b>"),
        ("<a>text</a>trailing", "text after the last element"),
        ("<a/><b/>", "a second element"),
        ("<x:a/>", "prefix x is not declared"),
        ("<a>&nbsp;</a>", "the entity &nbsp;"),
        ("<a>AT&T</a>", "starts no entity"),
        ("<a>&#0;</a>", "names no XML character"),
        ("<a>&#xD800;</a>", "names no XML character"),
        ("<a>&#99999999999;</a>", "starts no entity"),
        ("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "DOCTYPE"),
        ("<a b=c/>", "without quotes"),
        ("<a b=\"1\" b=\"2\"/>", "twice"),
        ("<a><![CDATA[open", "CDATA section that never ends"),
        ("<a><!-- open", "comment that never ends"),
        ("<a", "start tag that never ends"),
        ("</a>", "closes nothing"),
        ("<html><body>Sign in</body></html", "end tag that never ends"),
        ("\u{0}\u{1}garbage", "text before the first element"),
    ])
    func malformed(input: String, reason: String) {
        let said = refusal(input)
        #expect(said?.contains(reason) == true, "\(said ?? "accepted")")
    }

    @Test("Nesting deeper than the cap is refused; at the cap it reads")
    func depth() throws {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(refusal(deep)?.contains("nested deeper than") == true)
        let cap = XMLReader.maximumDepth
        let fits = String(repeating: "<a>", count: cap) + String(repeating: "</a>", count: cap)
        #expect(try parse(fits).name == "a")
    }

    @Test("A million entities read in one pass")
    func manyEntities() throws {
        let text = "<a>" + String(repeating: "&amp;&#60;", count: 500_000) + "</a>"
        let root = try parse(text)
        #expect(root.text.utf8.count == 1_000_000)
    }

    @Test("The line of a failure is reported")
    func line() {
        do {
            _ = try parse("<a>\n<b>\n</c>\n</a>")
            Issue.record("accepted")
        } catch {
            #expect(error == .badInput(file: "https://dav.example/", line: 3, reason: "not well-formed XML: </c> where </b> was expected."))
        }
    }
}

@Suite("XML reader against a namespace flood")
struct XMLNamespaceFloodTests {
    /// A multistatus whose root declares `count` prefixes (160,000 is 4.5 MB, the hostile answer
    /// of issue 28), each response using the last one declared and a redeclared default.
    static func flood(_ count: Int) -> Data {
        var text = "<?xml version=\"1.0\"?><d:multistatus xmlns:d=\"DAV:\""
        text.reserveCapacity(count * 30 + 1000)
        for i in 0..<count { text += " xmlns:p\(i)=\"urn:x:\(i)\"" }
        text += "><d:response xmlns:p0=\"urn:inner\"><d:href>/a/</d:href><p\(count - 1):x/><p0:y/></d:response>"
        text += "<d:response><d:href>/b/</d:href><p0:y/></d:response></d:multistatus>"
        return Data(text.utf8)
    }

    @Test("160,000 namespace declarations resolve as declared, innermost first, and undone at each end tag")
    func floodResolves() throws {
        let root = try XMLReader.parse(Self.flood(160_000), source: "flood")
        #expect(root.is("DAV:", "multistatus"))
        #expect(root.attributes.count == 160_001)
        let responses = root.children("DAV:", "response")
        #expect(responses.count == 2)
        #expect(responses[0].children.map(\.namespace) == ["DAV:", "urn:x:159999", "urn:inner"])
        #expect(responses[1].children.map(\.namespace) == ["DAV:", "urn:x:0"], "the inner p0 ended with its element")
    }

    @Test("A prefix declared only inside an element is unknown after it")
    func scopeEnds() {
        let text = "<d:m xmlns:d=\"DAV:\"><d:a xmlns:q=\"urn:q\"><q:b/></d:a><q:c/></d:m>"
        #expect(throws: FocusError.self) { try XMLReader.parse(Data(text.utf8), source: "x") }
    }
}
