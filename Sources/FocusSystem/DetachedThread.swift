import Glibc

/// A thread of its own for work that blocks (waiting on a child process, copying a pipe),
/// started detached (pthread_create(3), pthread_detach(3)).
package enum DetachedThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    package static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, work)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had (EAGAIN): do the work here rather than never.
            Unmanaged<Work>.fromOpaque(work).takeRetainedValue().body()
        }
    }
}
