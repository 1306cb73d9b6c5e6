// scripts/torture/fuzz compiles this file into one module with FocusCore's sources.
#if canImport(FocusCore)
import FocusText
import FocusCore
#endif
import FoundationEssentials

/// A small namespace-aware XML reader, enough for WebDAV answers (RFC 4918 section 14.16
/// `multistatus`): elements with prefixed and default namespaces (Namespaces in XML 1.0,
/// section 6), attributes, text with the five predefined entities and character references
/// (XML 1.0 section 4.6 and 4.1), CDATA sections, comments; the XML declaration and processing
/// instructions are skipped. A DOCTYPE is refused: no WebDAV answer has one, and its entities
/// are how a document grows without bound. Foundation's XMLParser would bring libxml2 into
/// the binary.
///
/// It reads bytes in one pass, so a multistatus of thousands of events costs what reading it
/// once does. A document that is not well-formed is `.badInput` with the line and why; nothing
/// in it can crash or hang the reader (nesting is capped at `maximumDepth`).
package enum XMLReader {
    /// One element: its namespace URI ("" for none), local name, attributes (by qualified
    /// name, `xmlns` ones included), child elements in order, and its own text (every text and
    /// CDATA piece directly inside it, joined).
    package struct Element: Sendable, Equatable {
        package var namespace: String
        package var name: String
        package var attributes: [String: String]
        package var children: [Element]
        package var text: String

        package init(namespace: String, name: String, attributes: [String: String] = [:], children: [Element] = [], text: String = "") {
            self.namespace = namespace
            self.name = name
            self.attributes = attributes
            self.children = children
            self.text = text
        }

        package func `is`(_ namespace: String, _ name: String) -> Bool {
            self.name == name && self.namespace == namespace
        }

        /// The first child of that name.
        package func child(_ namespace: String, _ name: String) -> Element? {
            children.first { $0.is(namespace, name) }
        }

        /// Every child of that name.
        package func children(_ namespace: String, _ name: String) -> [Element] {
            children.filter { $0.is(namespace, name) }
        }

        /// The text with leading and trailing white space removed.
        package var trimmedText: String { text.trimmingSpacesAndNewlines() }
    }

    /// Deeper than any WebDAV answer nests (a multistatus is about eight levels).
    package static let maximumDepth = 256

    /// The root element of `data`; `source` names the document in errors.
    package static func parse(_ data: Data, source: String) throws(FocusError) -> Element {
        let bytes = [UInt8](data)
        var parser = Parser(bytes: bytes)
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(Failure) in
                try parser.run(buffer)
            }
        } catch {
            let line = bytes[..<min(error.offset, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw .badInput(file: source, line: line, reason: "not well-formed XML: \(error.reason).")
        }
    }

    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    private struct Open {
        var qualifiedName: ArraySlice<UInt8>
        var element: Element
        var text: [UInt8]
        var scopes: Int
    }

    private struct Parser {
        let bytes: [UInt8]
        /// Namespace bindings in force: each prefix ("" for the default) to its URIs, innermost
        /// last, so a name is resolved in constant time however many declarations are in force
        /// (a hostile answer may declare 160,000 prefixes on one element).
        var bindings: [String: [String]] = ["xml": ["http://www.w3.org/XML/1998/namespace"]]
        /// The prefixes declared by the open elements, in order (each element's `scopes` last
        /// ones are its own), to undo at its end.
        var declared: [String] = []
        var stack: [Open] = []
        var root: Element?

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func run(_ b: UnsafeBufferPointer<UInt8>) throws(Failure) -> Element {
            var i = 0
            let n = b.count
            if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
            while i < n {
                let c = b[i]
                if c != UInt8(ascii: "<") {
                    // Text: up to the next '<'.
                    var j = i
                    while j < n, b[j] != UInt8(ascii: "<") { j += 1 }
                    if stack.isEmpty {
                        if let k = (i..<j).first(where: { !Self.isSpace(b[$0]) }) {
                            throw Failure(offset: k, reason: root == nil ? "text before the first element" : "text after the last element")
                        }
                    } else {
                        try appendText(b, i, j)
                    }
                    i = j
                    continue
                }
                if Self.starts(b, i, "<!--") {
                    guard let end = Self.find(b, i + 4, "-->") else { throw Failure(offset: i, reason: "a comment that never ends") }
                    i = end + 3
                } else if Self.starts(b, i, "<![CDATA[") {
                    guard !stack.isEmpty else { throw Failure(offset: i, reason: "a CDATA section outside any element") }
                    guard let end = Self.find(b, i + 9, "]]>") else { throw Failure(offset: i, reason: "a CDATA section that never ends") }
                    stack[stack.count - 1].text.append(contentsOf: b[(i + 9)..<end])
                    i = end + 3
                } else if Self.starts(b, i, "<!") {
                    throw Failure(offset: i, reason: "a DOCTYPE or other declaration (WebDAV answers have none)")
                } else if Self.starts(b, i, "<?") {
                    guard let end = Self.find(b, i + 2, "?>") else { throw Failure(offset: i, reason: "a processing instruction that never ends") }
                    i = end + 2
                } else if Self.starts(b, i, "</") {
                    i = try close(b, i)
                } else {
                    i = try open(b, i)
                }
            }
            if let open = stack.last {
                throw Failure(offset: n, reason: "the document ends inside <\(String(decoding: open.qualifiedName, as: UTF8.self))> (truncated?)")
            }
            guard let root else { throw Failure(offset: n, reason: "no element at all") }
            return root
        }

        mutating func open(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) throws(Failure) -> Int {
            guard root == nil else { throw Failure(offset: start, reason: "a second element after the root one") }
            guard stack.count < XMLReader.maximumDepth else {
                throw Failure(offset: start, reason: "elements nested deeper than \(XMLReader.maximumDepth) levels")
            }
            var i = start + 1
            let nameStart = i
            i = Self.skipName(b, i)
            guard i > nameStart else { throw Failure(offset: start, reason: "a '<' that starts no element") }
            let qualifiedName = bytes[nameStart..<i]
            var attributes: [String: String] = [:]
            var scopes = 0
            var selfClosing = false
            while true {
                let before = i
                while i < b.count, Self.isSpace(b[i]) { i += 1 }
                guard i < b.count else { throw Failure(offset: start, reason: "a start tag that never ends") }
                if b[i] == UInt8(ascii: ">") { i += 1; break }
                if b[i] == UInt8(ascii: "/") {
                    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") else { throw Failure(offset: i, reason: "a '/' inside a start tag") }
                    selfClosing = true
                    i += 2
                    break
                }
                guard i > before else { throw Failure(offset: i, reason: "attributes without space between them") }
                let attributeStart = i
                i = Self.skipName(b, i)
                guard i > attributeStart else { throw Failure(offset: i, reason: "an unexpected character in a start tag") }
                let attributeName = String(decoding: bytes[attributeStart..<i], as: UTF8.self)
                while i < b.count, Self.isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: "=") else { throw Failure(offset: i, reason: "an attribute without '='") }
                i += 1
                while i < b.count, Self.isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                    throw Failure(offset: i, reason: "an attribute value without quotes")
                }
                let quote = b[i]
                i += 1
                let valueStart = i
                while i < b.count, b[i] != quote {
                    if b[i] == UInt8(ascii: "<") { throw Failure(offset: i, reason: "a '<' inside an attribute value") }
                    i += 1
                }
                guard i < b.count else { throw Failure(offset: valueStart, reason: "an attribute value that never ends") }
                var decoded: [UInt8] = []
                try Self.decode(b, valueStart, i, into: &decoded)
                i += 1
                let value = String(decoding: decoded, as: UTF8.self)
                guard attributes.updateValue(value, forKey: attributeName) == nil else {
                    throw Failure(offset: attributeStart, reason: "the attribute \(attributeName) twice in one tag")
                }
                if attributeName == "xmlns" {
                    bind("", value)
                    scopes += 1
                } else if attributeName.hasPrefix("xmlns:") {
                    let prefix = String(attributeName.dropFirst(6))
                    guard !value.isEmpty else { throw Failure(offset: attributeStart, reason: "the prefix \(prefix) bound to no namespace") }
                    bind(prefix, value)
                    scopes += 1
                }
            }
            let (namespace, local) = try resolve(qualifiedName, at: start)
            let element = Element(namespace: namespace, name: local, attributes: attributes)
            stack.append(Open(qualifiedName: qualifiedName, element: element, text: [], scopes: scopes))
            if selfClosing { finishTop() }
            return i
        }

        mutating func close(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) throws(Failure) -> Int {
            var i = start + 2
            let nameStart = i
            i = Self.skipName(b, i)
            let name = bytes[nameStart..<i]
            while i < b.count, Self.isSpace(b[i]) { i += 1 }
            guard i < b.count, b[i] == UInt8(ascii: ">") else { throw Failure(offset: start, reason: "an end tag that never ends") }
            guard let open = stack.last else {
                throw Failure(offset: start, reason: "</\(String(decoding: name, as: UTF8.self))> closes nothing")
            }
            guard open.qualifiedName.elementsEqual(name) else {
                throw Failure(offset: start, reason: "</\(String(decoding: name, as: UTF8.self))> where </\(String(decoding: open.qualifiedName, as: UTF8.self))> was expected")
            }
            finishTop()
            return i + 1
        }

        mutating func bind(_ prefix: String, _ uri: String) {
            bindings[prefix, default: []].append(uri)
            declared.append(prefix)
        }

        mutating func finishTop() {
            guard var open = stack.popLast() else { return }
            for _ in 0..<open.scopes {
                let prefix = declared.removeLast()
                bindings[prefix]?.removeLast()
                if bindings[prefix]?.isEmpty == true { bindings[prefix] = nil }
            }
            if !open.text.isEmpty { open.element.text = String(decoding: open.text, as: UTF8.self) }
            if stack.isEmpty {
                root = open.element
            } else {
                stack[stack.count - 1].element.children.append(open.element)
            }
        }

        mutating func appendText(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) throws(Failure) {
            try Self.decode(b, from, to, into: &stack[stack.count - 1].text)
        }

        func resolve(_ qualifiedName: ArraySlice<UInt8>, at offset: Int) throws(Failure) -> (String, String) {
            let prefix: String
            let local: String
            if let colon = qualifiedName.firstIndex(of: UInt8(ascii: ":")) {
                prefix = String(decoding: qualifiedName[..<colon], as: UTF8.self)
                local = String(decoding: qualifiedName[(colon + 1)...], as: UTF8.self)
                guard !prefix.isEmpty, !local.isEmpty else { throw Failure(offset: offset, reason: "an element name with an empty prefix or local part") }
            } else {
                prefix = ""
                local = String(decoding: qualifiedName, as: UTF8.self)
            }
            if let uri = bindings[prefix]?.last { return (uri, local) }
            guard prefix.isEmpty else { throw Failure(offset: offset, reason: "the namespace prefix \(prefix) is not declared") }
            return ("", local)
        }

        /// Appends the text in [from, to) with entity and character references replaced.
        static func decode(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, into out: inout [UInt8]) throws(Failure) {
            var i = from
            var run = from
            while i < to {
                guard b[i] == UInt8(ascii: "&") else { i += 1; continue }
                out.append(contentsOf: b[run..<i])
                var end = i + 1
                while end < to, end - i < 12, b[end] != UInt8(ascii: ";") { end += 1 }
                guard end < to, b[end] == UInt8(ascii: ";") else { throw Failure(offset: i, reason: "a '&' that starts no entity (write &amp;)") }
                let length = end - i - 1
                if length == 2, b[i + 2] == UInt8(ascii: "t"), b[i + 1] == UInt8(ascii: "l") {
                    out.append(UInt8(ascii: "<"))
                } else if length == 2, b[i + 2] == UInt8(ascii: "t"), b[i + 1] == UInt8(ascii: "g") {
                    out.append(UInt8(ascii: ">"))
                } else if length == 3, starts(b, i, "&amp;") {
                    out.append(UInt8(ascii: "&"))
                } else if length == 4, starts(b, i, "&quot;") {
                    out.append(UInt8(ascii: "\""))
                } else if length == 4, starts(b, i, "&apos;") {
                    out.append(UInt8(ascii: "'"))
                } else if length >= 2, b[i + 1] == UInt8(ascii: "#") {
                    let hex = b[i + 2] == UInt8(ascii: "x") || b[i + 2] == UInt8(ascii: "X")
                    var value: UInt32 = 0
                    var digits = 0
                    for k in (i + (hex ? 3 : 2))..<end {
                        let c = b[k]
                        let digit: UInt32
                        switch c {
                        case 0x30...0x39: digit = UInt32(c - 0x30)
                        case 0x61...0x66 where hex: digit = UInt32(c - 0x61 + 10)
                        case 0x41...0x46 where hex: digit = UInt32(c - 0x41 + 10)
                        default: digit = 99
                        }
                        guard digit < 99, value <= 0x10FFFF else { digits = 0; break }
                        value = value * (hex ? 16 : 10) + digit
                        digits += 1
                    }
                    // XML 1.0 section 2.2: Char excludes NUL, most C0 controls and surrogates.
                    guard digits > 0, value == 0x9 || value == 0xA || value == 0xD || value >= 0x20, let scalar = Unicode.Scalar(value) else {
                        let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]), as: UTF8.self)
                        throw Failure(offset: i, reason: "the character reference &\(name); names no XML character")
                    }
                    UTF8.encode(scalar) { out.append($0) }
                } else {
                    let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]), as: UTF8.self)
                    throw Failure(offset: i, reason: "the entity &\(name); (only &lt; &gt; &amp; &quot; &apos; and &#…; exist without a DOCTYPE)")
                }
                i = end + 1
                run = i
            }
            out.append(contentsOf: b[run..<to])
        }

        static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

        /// The end of the name starting at `i` (letters, digits, '-', '_', '.', ':', and any
        /// non-ASCII byte).
        static func skipName(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
            var i = i
            while i < b.count {
                let c = b[i]
                let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F || c == 0x2E
                    || c == 0x3A || c >= 0x80
                guard ok else { break }
                i += 1
            }
            return i
        }

        static func starts(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard i + count <= b.count else { return false }
            let p = literal.utf8Start
            for k in 0..<count where b[i + k] != p[k] { return false }
            return true
        }

        static func find(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ literal: StaticString) -> Int? {
            let first = literal.utf8Start[0]
            var i = from
            while i < b.count {
                if b[i] == first, starts(b, i, literal) { return i }
                i += 1
            }
            return nil
        }
    }
}
