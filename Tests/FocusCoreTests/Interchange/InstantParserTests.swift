import Foundation
import Testing
import FocusCore

@Suite struct InstantParserTests {
    /// 2026-11-20T08:00:00Z.
    static let eight: Int64 = 1_795_161_600

    @Test(arguments: [
        ("2026-11-20T08:00:00Z", eight),
        ("2026-11-20T09:00:00+01:00", eight),
        ("2026-11-20T03:00:00-05:00", eight),
        ("2026-11-20T13:30:00+0530", eight),
        ("2026-11-20T09:00:00+01", eight),
        ("2026-11-20 09:00:00+01:00", eight),
        ("2026-11-20t08:00:00z", eight),
        ("2026-11-20T08:00Z", eight),
        ("2026-11-20T08:00:00.999Z", eight),
        ("  2026-11-20T08:00:00Z ", eight),
        ("2026-11-20T00:30:00+01:00", eight - 8 * 3600 - 1800),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("1970-01-01T00:00:00Z", 0),
    ])
    func readsInstantsWithAnOffset(text: String, seconds: Int64) {
        #expect(InstantParser.parse(text) == .instant(seconds))
    }

    @Test(arguments: ["2026-11-20T09:00:00", "2026-11-20 09:00", "2026-11-20T09:00:00.5"])
    func aLocalTimeWithoutOffsetIsRecognisedAsSuch(text: String) {
        #expect(InstantParser.parse(text) == .missingOffset)
    }

    @Test(arguments: [
        "", "2026-11-20", "2026-11-31T09:00:00Z", "2025-02-29T09:00:00Z", "2026-13-01T09:00:00Z", "2026-11-20T24:00:00Z",
        "2026-11-20T09:60:00Z", "2026-11-20T09:00:61Z", "2026-11-20X09:00:00Z", "2026-11-20T09:00:00+1", "2026-11-20T09:00:00+01:0",
        "2026-11-20T09:00:00+19:00", "2026-11-20T09:00:00Zulu", "20261120T090000Z", "2026-11-20T09:00:00.Z", "yesterday 9am",
    ])
    func anythingElseIsMalformed(text: String) {
        #expect(InstantParser.parse(text) == .malformed)
    }
}
