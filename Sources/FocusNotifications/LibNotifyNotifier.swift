import CLibNotify
import Dispatch
import FocusCore
import FoundationEssentials
import Synchronization

/// Posts notices as desktop notifications through libnotify, and never stands in the way
/// of a session: libnotify is called on a dedicated serial queue, `post` waits for it at
/// most `postTimeoutMilliseconds`, and when desktop notifications cannot be used (no
/// session bus, no notification server, an error, no answer in time) this notice and
/// every later one go to `fallback`, with one warning for the run.
///
/// GLib logging: the first use in the process replaces GLib's log writer with one that
/// drops every message (`g_log_set_writer_func`), so no GLib, GIO or libnotify warning or
/// critical reaches the terminal, whatever `G_MESSAGES_DEBUG` says. This is process-wide
/// and done once (`GLibLogging`, shared with the screen-saver watcher, the one other GLib user).
package final class LibNotifyNotifier: Notifier {
    private struct State {
        /// Set once desktop notifications have failed in this run.
        var fallbackReason: String?
        var warned = false
    }

    private let appName: String
    private let iconPath: String?
    private let criticalWorkEnd: Bool
    private let expiryMilliseconds: Int?
    private let fallback: any Notifier
    private let fallbackLabel: String
    private let postTimeoutMilliseconds: Int
    private let missingBusReason: String?
    private let warn: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// - Parameters:
    ///   - appName: the application name servers show (`notify_init`'s, set once per process).
    ///   - iconPath: an icon file path (or icon name), nil for none.
    ///   - criticalWorkEnd: a finished work session is posted critical and never expires.
    ///   - expiryMilliseconds: expiry for notices that name none; nil for the server's default.
    ///   - fallback: takes the notices desktop notifications cannot show.
    ///   - fallbackLabel: names the fallback in the warning ("using the terminal bell").
    ///   - postTimeoutMilliseconds: the longest `post` waits for the server.
    ///   - environment: where the presence of a session bus is read from.
    ///   - warn: called once per run with a one-line reason, without the `focus: ` prefix.
    package static func make(
        appName: String = "focus",
        iconPath: String?,
        criticalWorkEnd: Bool,
        expiryMilliseconds: Int?,
        fallback: any Notifier,
        fallbackLabel: String = "the terminal bell",
        postTimeoutMilliseconds: Int = 1000,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        warn: @escaping @Sendable (String) -> Void
    ) -> any Notifier {
        LibNotifyNotifier(
            appName: appName,
            iconPath: iconPath,
            criticalWorkEnd: criticalWorkEnd,
            expiryMilliseconds: expiryMilliseconds,
            fallback: fallback,
            fallbackLabel: fallbackLabel,
            postTimeoutMilliseconds: max(1, postTimeoutMilliseconds),
            missingBusReason: SessionBus.missingReason(environment: environment),
            warn: warn
        )
    }

    private init(
        appName: String, iconPath: String?, criticalWorkEnd: Bool, expiryMilliseconds: Int?,
        fallback: any Notifier, fallbackLabel: String, postTimeoutMilliseconds: Int,
        missingBusReason: String?, warn: @escaping @Sendable (String) -> Void
    ) {
        self.appName = appName.isEmpty ? "focus" : appName
        self.iconPath = iconPath
        self.criticalWorkEnd = criticalWorkEnd
        self.expiryMilliseconds = expiryMilliseconds
        self.fallback = fallback
        self.fallbackLabel = fallbackLabel
        self.postTimeoutMilliseconds = postTimeoutMilliseconds
        self.missingBusReason = missingBusReason
        self.warn = warn
    }

    package func post(_ notice: Notice) async {
        if state.withLock({ $0.fallbackReason != nil }) {
            await fallback.post(notice)
            return
        }
        if let missingBusReason {
            await fallBack(with: notice, reason: missingBusReason)
            return
        }
        let request = DesktopNotice(
            notice,
            iconPath: iconPath,
            criticalWorkEnd: criticalWorkEnd,
            defaultExpiryMilliseconds: expiryMilliseconds
        )
        let appName = appName
        let outcome = await LibNotifyQueue.run(timeoutMilliseconds: postTimeoutMilliseconds) {
            Self.show(request, appName: appName)
        }
        switch outcome {
        case .some(.shown):
            return
        case .some(.failed(let reason)):
            await fallBack(with: notice, reason: reason)
        case .none:
            await fallBack(with: notice, reason: DesktopFailure.timeoutReason(milliseconds: postTimeoutMilliseconds))
        }
    }

    private func fallBack(with notice: Notice, reason: String) async {
        let shouldWarn = state.withLock { state in
            if state.fallbackReason == nil { state.fallbackReason = reason }
            defer { state.warned = true }
            return !state.warned
        }
        if shouldWarn { warn(DesktopFailure.warning(reason: reason, fallbackLabel: fallbackLabel)) }
        await fallback.post(notice)
    }

    /// The value of libnotify's `NOTIFY_URGENCY_*` for an urgency: 0, 1, 2, the byte the
    /// notification specification's `urgency` hint carries.
    package static func urgencyCode(for urgency: Notice.Urgency) -> Int {
        Int(libnotifyUrgency(urgency))
    }

    /// Name, vendor, version and specification version of the running notification server,
    /// waiting at most `timeoutMilliseconds`; nil when there is no session bus, no server,
    /// or no answer in time.
    package static func serverInfo(
        timeoutMilliseconds: Int,
        appName: String = "focus",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ServerInfo? {
        guard SessionBus.missingReason(environment: environment) == nil else { return nil }
        let result = LibNotifyQueue.runBlocking(timeoutMilliseconds: max(1, timeoutMilliseconds)) {
            Self.queryServerInfo(appName: appName.isEmpty ? "focus" : appName)
        }
        return result ?? nil
    }

    // MARK: - On the libnotify queue

    private enum Outcome: Sendable {
        case shown
        case failed(String)
    }

    private static func libnotifyUrgency(_ urgency: Notice.Urgency) -> Int32 {
        switch urgency {
        case .low: Int32(FOCUS_NOTIFY_URGENCY_LOW)
        case .normal: Int32(FOCUS_NOTIFY_URGENCY_NORMAL)
        case .critical: Int32(FOCUS_NOTIFY_URGENCY_CRITICAL)
        }
    }

    private static func show(_ request: DesktopNotice, appName: String) -> Outcome {
        let api: FocusLibNotify
        switch LibNotifyQueue.initializeOnce(appName: appName) {
        case .success(let loaded): api = loaded
        case .failure(let failure): return .failed(failure.reason)
        }
        LibNotifyQueue.dispatchPendingSignals(api)
        guard let notification = api.notify_notification_new(request.summary, request.body, request.iconPath) else {
            return .failed("libnotify could not create a notification")
        }
        defer { api.g_object_unref(notification) }
        api.notify_notification_set_urgency(notification, libnotifyUrgency(request.urgency))
        api.notify_notification_set_timeout(notification, request.timeoutMilliseconds)
        var error: UnsafeMutablePointer<FocusGError>? = nil
        let shown = api.notify_notification_show(notification, &error)
        if let error {
            let message = error.pointee.message.map { String(cString: $0) } ?? ""
            api.g_error_free(error)
            return .failed(DesktopFailure.reason(fromGLibMessage: message))
        }
        return shown != 0 ? .shown : .failed("the notification server refused the notice")
    }

    private static func queryServerInfo(appName: String) -> ServerInfo? {
        guard case .success(let api) = LibNotifyQueue.initializeOnce(appName: appName) else { return nil }
        var name: UnsafeMutablePointer<CChar>? = nil
        var vendor: UnsafeMutablePointer<CChar>? = nil
        var version: UnsafeMutablePointer<CChar>? = nil
        var specVersion: UnsafeMutablePointer<CChar>? = nil
        let answered = api.notify_get_server_info(&name, &vendor, &version, &specVersion)
        defer {
            api.g_free(name)
            api.g_free(vendor)
            api.g_free(version)
            api.g_free(specVersion)
        }
        guard answered != 0 else { return nil }
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
            pointer.map { NotificationText.singleLine(String(cString: $0)) } ?? ""
        }
        return ServerInfo(name: text(name), vendor: text(vendor), version: text(version), specVersion: text(specVersion))
    }
}

/// The one serial queue on which this process talks to libnotify and GLib, and the
/// time-bounded ways to wait for it.
private enum LibNotifyQueue {
    static let queue = DispatchQueue(label: "focus.notifications.libnotify", qos: .utility)

    struct Failure: Error { var reason: String }

    /// nil before the first use; then libnotify's functions, or why they cannot be used.
    /// Read and written only on `queue`.
    nonisolated(unsafe) private static var initialization: Result<FocusLibNotify, Failure>?

    /// Loads libnotify, silences GLib logging and calls `notify_init`, all once per process;
    /// returns the loaded functions or the reason they cannot be used. Call only on `queue`.
    static func initializeOnce(appName: String) -> Result<FocusLibNotify, Failure> {
        if let initialization { return initialization }
        var api = FocusLibNotify()
        let result: Result<FocusLibNotify, Failure>
        if let problem = focus_libnotify_load(&api) {
            result = .failure(Failure(reason: String(cString: problem)))
        } else {
            GLibLogging.silenceOnce { api.g_log_set_writer_func({ _, _, _, _ in Int32(FOCUS_G_LOG_WRITER_HANDLED) }, nil, nil) }
            result = api.notify_init(appName) != 0 ? .success(api) : .failure(Failure(reason: "libnotify could not be initialised"))
        }
        initialization = result
        return result
    }

    /// Runs the D-Bus signal deliveries GDBus has queued on GLib's default main context
    /// (nothing runs a GLib main loop in `focus`), so a long-running process does not
    /// accumulate them. Call only on `queue`.
    static func dispatchPendingSignals(_ api: FocusLibNotify) {
        var rounds = 0
        while rounds < 64, api.g_main_context_iteration(nil, 0) != 0 { rounds += 1 }
    }

    /// Runs `work` on the queue and returns its result, or nil when it has not finished
    /// within the timeout (it then still finishes later, unobserved).
    static func run<T: Sendable>(timeoutMilliseconds: Int, _ work: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let gate = ResumeOnce(continuation)
            queue.async { gate.resume(work()) }
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(timeoutMilliseconds)) {
                gate.resume(nil)
            }
        }
    }

    /// The blocking form of `run`, for synchronous callers such as `focus doctor`.
    static func runBlocking<T: Sendable>(timeoutMilliseconds: Int, _ work: @escaping @Sendable () -> T) -> T? {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            let value = work()
            box.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + .milliseconds(timeoutMilliseconds)) == .success else { return nil }
        return box.withLock { $0 }
    }
}

/// Resumes a continuation with the first value offered and ignores the rest.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: T) {
        let pending = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        pending?.resume(returning: value)
    }
}
