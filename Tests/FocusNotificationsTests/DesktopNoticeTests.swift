import FocusCore
import FocusNotifications
import Testing

@Suite struct DesktopNoticeTests {
    @Test(arguments: [
        (Notice.Urgency.low, 0),
        (.normal, 1),
        (.critical, 2),
    ])
    func urgencyMapsToLibnotifyLevels(urgency: Notice.Urgency, code: Int) {
        #expect(LibNotifyNotifier.urgencyCode(for: urgency) == code)
    }

    @Test func summaryIsPlainTextAndBodyIsEscapedMarkup() {
        let notice = Notice(
            kind: .workCompleted,
            summary: "Done:\tR&D <draft>\n",
            body: "R&D <draft>\nnext: break\u{1B}[0m"
        )
        let desktop = DesktopNotice(notice, iconPath: "/usr/share/focus/focus.svg", criticalWorkEnd: false, defaultExpiryMilliseconds: nil)
        #expect(desktop == DesktopNotice.expected(
            summary: "Done: R&D <draft>",
            body: "R&amp;D &lt;draft&gt;\nnext: break\u{FFFD}[0m",
            iconPath: "/usr/share/focus/focus.svg",
            urgency: .normal,
            timeoutMilliseconds: -1
        ))
    }

    @Test func emptyIconPathMeansNoIcon() {
        let notice = Notice(kind: .test, summary: "s", body: "b")
        #expect(DesktopNotice(notice, iconPath: "", criticalWorkEnd: false, defaultExpiryMilliseconds: nil).iconPath == nil)
        #expect(DesktopNotice(notice, iconPath: nil, criticalWorkEnd: false, defaultExpiryMilliseconds: nil).iconPath == nil)
    }

    @Test(arguments: [
        (Notice.Kind.workCompleted, Notice.Urgency.normal, true, Notice.Urgency.critical),
        (.workCompleted, .low, true, .critical),
        (.workCompleted, .normal, false, .normal),
        (.breakOver, .normal, true, .normal),
        (.blockReminder, .low, true, .low),
        (.daySummary, .critical, false, .critical),
    ])
    func criticalWorkEndRaisesOnlyTheFinishedWorkSession(
        kind: Notice.Kind, requested: Notice.Urgency, criticalWorkEnd: Bool, posted: Notice.Urgency
    ) {
        let notice = Notice(kind: kind, summary: "s", body: "b", urgency: requested)
        let desktop = DesktopNotice(notice, iconPath: nil, criticalWorkEnd: criticalWorkEnd, defaultExpiryMilliseconds: nil)
        #expect(desktop.urgency == posted)
    }

    @Test(arguments: [
        // (urgency, notice's expiry, user's default expiry, expire_timeout sent)
        (Notice.Urgency.normal, nil as Int?, nil as Int?, Int32(-1)),
        (.normal, 8000, nil, 8000),
        (.low, nil, 5000, 5000),
        (.normal, 3000, 5000, 3000),
        (.normal, 0, 5000, 5000),
        (.normal, -20, nil, -1),
        (.normal, nil, 0, -1),
        (.critical, 8000, 5000, 0),
        (.critical, nil, nil, 0),
        (.normal, Int(Int32.max) + 10, nil, Int32.max),
    ])
    func expiryFollowsNoticeThenSettingThenServer(
        urgency: Notice.Urgency, requested: Int?, userDefault: Int?, sent: Int32
    ) {
        let notice = Notice(kind: .test, summary: "s", body: "b", urgency: urgency, expiresAfterMilliseconds: requested)
        let desktop = DesktopNotice(notice, iconPath: nil, criticalWorkEnd: false, defaultExpiryMilliseconds: userDefault)
        #expect(desktop.timeoutMilliseconds == sent)
    }

    @Test func criticalWorkEndNeverExpires() {
        let notice = Notice(kind: .workCompleted, summary: "s", body: "b", expiresAfterMilliseconds: 10_000)
        let desktop = DesktopNotice(notice, iconPath: nil, criticalWorkEnd: true, defaultExpiryMilliseconds: 5000)
        #expect(desktop.timeoutMilliseconds == DesktopNotice.expiresNever)
        #expect(DesktopNotice.expiresNever == 0)
        #expect(DesktopNotice.expiresByServerDefault == -1)
    }
}

extension DesktopNotice {
    static func expected(summary: String, body: String, iconPath: String?, urgency: Notice.Urgency, timeoutMilliseconds: Int32) -> DesktopNotice {
        var value = DesktopNotice(Notice(kind: .test, summary: "", body: ""), iconPath: nil, criticalWorkEnd: false, defaultExpiryMilliseconds: nil)
        value.summary = summary
        value.body = body
        value.iconPath = iconPath
        value.urgency = urgency
        value.timeoutMilliseconds = timeoutMilliseconds
        return value
    }
}
