import CGio
import Dispatch
import FocusCore
import FocusSystem
import FocusText
import FoundationEssentials
import Glibc
import Synchronization

/// Watches whether the person is away from the screen on D-Bus, through GIO's GDBus (libgio
/// loaded with dlopen when watching starts, as libnotify is for notifications):
/// - on the session bus, the screen savers `org.freedesktop.ScreenSaver` and
///   `org.gnome.ScreenSaver` (method `GetActive`, signal `ActiveChanged(b)`);
/// - on the system bus, where there is one, logind's session property `LockedHint`
///   (org.freedesktop.login1, the session of `$XDG_SESSION_ID`, else this process's), followed
///   through `org.freedesktop.DBus.Properties.PropertiesChanged`.
/// The person is away while any of them says so. Signals are received on a thread of this
/// watcher's own, which runs a GLib main context of its own (nothing else in `focus` runs one).
/// No service is started to answer (calls carry NO_AUTO_START).
package final class DBusAwayWatcher: AwayWatcher {
    private let environment: [String: String]
    private let now: @Sendable () -> Date
    private let setupTimeoutMilliseconds: Int
    private let current = Mutex<AwayWatch?>(nil)
    private let off = Mutex<String?>(nil)

    /// - Parameters:
    ///   - environment: where `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR` and
    ///     `XDG_SESSION_ID` are read from.
    ///   - now: the instant of each observation.
    ///   - setupTimeoutMilliseconds: the longest `start` waits for the buses to answer.
    package init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        now: @escaping @Sendable () -> Date,
        setupTimeoutMilliseconds: Int = 3000
    ) {
        self.environment = environment
        self.now = now
        self.setupTimeoutMilliseconds = max(1, setupTimeoutMilliseconds)
    }

    /// After a `start` that found nothing to watch: why ("no D-Bus session bus", ...).
    package var offReason: String? { off.withLock { $0 } }

    package func start(_ observe: @escaping @Sendable (AwayObservation) -> Void) -> String? {
        stop()
        let watch = AwayWatch(observe: observe, now: now)
        let plan = AwayWatch.Plan(
            sessionBus: SessionBus.missingReason(environment: environment) == nil,
            sessionID: environment["XDG_SESSION_ID"].flatMap { $0.isEmpty ? nil : $0 })
        DetachedThread.start { watch.run(plan) }
        guard let sources = watch.waitForSetup(milliseconds: setupTimeoutMilliseconds) else {
            watch.stop()
            off.withLock { $0 = "the D-Bus buses did not answer within \(setupTimeoutMilliseconds) ms" }
            return nil
        }
        guard case .success(let names) = sources, !names.isEmpty else {
            if case .failure(let reason) = sources { off.withLock { $0 = reason.text } }
            return nil
        }
        current.withLock { $0 = watch }
        off.withLock { $0 = nil }
        return names.joined(separator: ", ")
    }

    package func stop() {
        current.withLock { watch in
            watch?.stop()
            watch = nil
        }
    }
}

/// GIO's functions, loaded once per process, or why they cannot be used.
private enum GioLibrary {
    struct Failure: Error { var text: String }

    static let loaded: Result<FocusGio, Failure> = {
        var api = FocusGio()
        if let problem = focus_gio_load(&api) { return .failure(Failure(text: String(cString: problem))) }
        GLibLogging.silenceOnce {
            api.g_log_set_writer_func({ _, _, _, _ in Int32(FOCUS_GIO_LOG_WRITER_HANDLED) }, nil, nil)
        }
        return .success(api)
    }()
}

/// The screen savers watched on the session bus: bus name, object path, interface.
private let screenSavers: [(name: String, path: String)] = [
    ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),
    ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"),
]
private let logindSource = "logind LockedHint"
private let logindSessionInterface = "org.freedesktop.login1.Session"
/// G_DBUS_CALL_FLAGS_NO_AUTO_START: a call never starts a service to answer it.
private let noAutoStart: Int32 = 1
private let callTimeoutMilliseconds: Int32 = 1000

/// Receives GDBus signals on the watch's thread (C calling convention; `userData` is the watch).
private let signalReceived: FocusGDBusSignalCallback = { _, _, _, interface, _, parameters, userData in
    guard let interface, let parameters, let userData else { return }
    let watch = Unmanaged<AwayWatch>.fromOpaque(userData).takeUnretainedValue()
    watch.received(interface: String(cString: interface), parameters: parameters)
}

/// One watching: its thread's main context, the sources' states, and the observer.
private final class AwayWatch: @unchecked Sendable {
    struct Plan {
        var sessionBus: Bool
        var sessionID: String?
    }

    private struct State {
        var stopped = false
        /// The thread's GLib main context, as an address (a pointer is not Sendable).
        var context: UInt?
        var away: [String: Bool] = [:]
        var lastAway = false
        var setup: Result<[String], GioLibrary.Failure>?
    }

    private let observe: @Sendable (AwayObservation) -> Void
    private let now: @Sendable () -> Date
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    init(observe: @escaping @Sendable (AwayObservation) -> Void, now: @escaping @Sendable () -> Date) {
        self.observe = observe
        self.now = now
    }

    func waitForSetup(milliseconds: Int) -> Result<[String], GioLibrary.Failure>? {
        guard ready.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return nil }
        return state.withLock { $0.setup }
    }

    func stop() {
        guard case .success(let api) = GioLibrary.loaded else { return }
        state.withLock { s in
            s.stopped = true
            if let context = s.context { api.g_main_context_wakeup(UnsafeMutableRawPointer(bitPattern: context)) }
        }
    }

    /// The thread's body: connects, subscribes, reports what it watches, then dispatches signals
    /// until stopped.
    func run(_ plan: Plan) {
        let api: FocusGio
        switch GioLibrary.loaded {
        case .success(let loaded): api = loaded
        case .failure(let failure):
            finishSetup(.failure(failure))
            return
        }
        guard let context = api.g_main_context_new() else {
            finishSetup(.failure(.init(text: "GLib could not make a main context")))
            return
        }
        api.g_main_context_push_thread_default(context)
        let address = UInt(bitPattern: context)
        state.withLock { $0.context = address }
        let me = Unmanaged.passUnretained(self).toOpaque()
        var subscriptions: [(connection: UnsafeMutableRawPointer, id: UInt32)] = []
        var connections: [UnsafeMutableRawPointer] = []
        var sources: [String] = []
        if plan.sessionBus, let bus = Self.connect(api, Int32(FOCUS_G_BUS_TYPE_SESSION)) {
            connections.append(bus)
            for saver in screenSavers {
                guard let active = Self.getActive(api, bus, saver.name, saver.path) else { continue }
                let id = api.g_dbus_connection_signal_subscribe(bus, nil, saver.name, "ActiveChanged", saver.path, nil, 0, signalReceived, me, nil)
                subscriptions.append((bus, id))
                sources.append(saver.name)
                update(saver.name, away: active)
            }
        }
        if let system = Self.connect(api, Int32(FOCUS_G_BUS_TYPE_SYSTEM)) {
            connections.append(system)
            if let path = Self.sessionPath(api, system, plan.sessionID), let locked = Self.lockedHint(api, system, path) {
                let id = api.g_dbus_connection_signal_subscribe(
                    system, "org.freedesktop.login1", "org.freedesktop.DBus.Properties", "PropertiesChanged", path,
                    logindSessionInterface, 0, signalReceived, me, nil)
                subscriptions.append((system, id))
                sources.append(logindSource)
                update(logindSource, away: locked)
            }
        }
        if sources.isEmpty {
            let reason = plan.sessionBus ? "no screen saver on the D-Bus session bus and no logind session" : "no D-Bus session bus and no logind session"
            finishSetup(.failure(.init(text: reason)))
        } else {
            finishSetup(.success(sources))
            while !state.withLock({ $0.stopped }) { _ = api.g_main_context_iteration(context, 1) }
        }
        for (connection, id) in subscriptions { api.g_dbus_connection_signal_unsubscribe(connection, id) }
        // Pending deliveries of the subscriptions just dropped are dispatched (and ignored) here.
        while api.g_main_context_iteration(context, 0) != 0 {}
        for connection in connections { api.g_object_unref(connection) }
        state.withLock { $0.context = nil }
    }

    private func finishSetup(_ result: Result<[String], GioLibrary.Failure>) {
        state.withLock { $0.setup = result }
        ready.signal()
    }

    /// A signal: `ActiveChanged(b)` of a screen saver, or logind's `PropertiesChanged`.
    func received(interface: String, parameters: UnsafeMutableRawPointer) {
        guard case .success(let api) = GioLibrary.loaded else { return }
        if interface == "org.freedesktop.DBus.Properties" {
            guard api.g_variant_is_of_type(parameters, "(sa{sv}as)") != 0,
                  let changed = api.g_variant_get_child_value(parameters, 1) else { return }
            defer { api.g_variant_unref(changed) }
            guard let value = api.g_variant_lookup_value(changed, "LockedHint", "b") else { return }
            defer { api.g_variant_unref(value) }
            update(logindSource, away: api.g_variant_get_boolean(value) != 0)
        } else if screenSavers.contains(where: { $0.name == interface }) {
            guard let active = Self.firstBoolean(api, parameters) else { return }
            update(interface, away: active)
        }
    }

    /// Records a source's state; tells the observer when "away" (any source) changes.
    private func update(_ source: String, away: Bool) {
        let changed: Bool? = state.withLock { s in
            guard !s.stopped else { return nil }
            s.away[source] = away
            let now = s.away.values.contains(true)
            guard now != s.lastAway else { return nil }
            s.lastAway = now
            return now
        }
        if let changed { observe(AwayObservation(isAway: changed, at: self.now())) }
    }

    // MARK: - GDBus calls (on the watch's thread)

    private static func connect(_ api: FocusGio, _ type: Int32) -> UnsafeMutableRawPointer? {
        var error: UnsafeMutablePointer<FocusGioError>? = nil
        let connection = api.g_bus_get_sync(type, nil, &error)
        if let error { api.g_error_free(error) }
        // A bus that goes away must not end the process (GDBus's default for these connections).
        if let connection { api.g_dbus_connection_set_exit_on_close(connection, 0) }
        return connection
    }

    /// Calls a method and returns its reply (owned by the caller), nil on any error.
    private static func call(
        _ api: FocusGio, _ bus: UnsafeMutableRawPointer, _ name: String, _ path: String, _ interface: String,
        _ method: String, _ arguments: [UnsafeMutableRawPointer?], reply: String
    ) -> UnsafeMutableRawPointer? {
        let parameters = arguments.isEmpty ? nil : arguments.withUnsafeBufferPointer { api.g_variant_new_tuple($0.baseAddress, $0.count) }
        var error: UnsafeMutablePointer<FocusGioError>? = nil
        let answer = api.g_dbus_connection_call_sync(bus, name, path, interface, method, parameters, reply, noAutoStart, callTimeoutMilliseconds, nil, &error)
        if let error { api.g_error_free(error) }
        return answer
    }

    private static func firstBoolean(_ api: FocusGio, _ tuple: UnsafeMutableRawPointer) -> Bool? {
        guard api.g_variant_is_of_type(tuple, "(b)") != 0, let value = api.g_variant_get_child_value(tuple, 0) else { return nil }
        defer { api.g_variant_unref(value) }
        return api.g_variant_get_boolean(value) != 0
    }

    private static func getActive(_ api: FocusGio, _ bus: UnsafeMutableRawPointer, _ name: String, _ path: String) -> Bool? {
        guard let reply = call(api, bus, name, path, name, "GetActive", [], reply: "(b)") else { return nil }
        defer { api.g_variant_unref(reply) }
        return firstBoolean(api, reply)
    }

    /// The object path of the logind session: `$XDG_SESSION_ID`'s, else this process's.
    private static func sessionPath(_ api: FocusGio, _ bus: UnsafeMutableRawPointer, _ sessionID: String?) -> String? {
        let argument = sessionID.map { api.g_variant_new_string($0) } ?? api.g_variant_new_uint32(UInt32(getpid()))
        let method = sessionID == nil ? "GetSessionByPID" : "GetSession"
        guard let reply = call(api, bus, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                               method, [argument], reply: "(o)") else { return nil }
        defer { api.g_variant_unref(reply) }
        guard let path = api.g_variant_get_child_value(reply, 0) else { return nil }
        defer { api.g_variant_unref(path) }
        return api.g_variant_get_string(path, nil).map { String(cString: $0) }
    }

    private static func lockedHint(_ api: FocusGio, _ bus: UnsafeMutableRawPointer, _ path: String) -> Bool? {
        let arguments = [api.g_variant_new_string(logindSessionInterface), api.g_variant_new_string("LockedHint")]
        guard let reply = call(api, bus, "org.freedesktop.login1", path, "org.freedesktop.DBus.Properties", "Get",
                               arguments, reply: "(v)") else { return nil }
        defer { api.g_variant_unref(reply) }
        guard let boxed = api.g_variant_get_child_value(reply, 0) else { return nil }
        defer { api.g_variant_unref(boxed) }
        guard let value = api.g_variant_get_variant(boxed) else { return nil }
        defer { api.g_variant_unref(value) }
        guard api.g_variant_is_of_type(value, "b") != 0 else { return nil }
        return api.g_variant_get_boolean(value) != 0
    }
}
