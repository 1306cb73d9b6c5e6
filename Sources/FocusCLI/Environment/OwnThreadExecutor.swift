import FocusSystem
import FocusText
import Glibc

/// Runs a task's jobs on one thread of its own instead of the concurrency pool, for the commands
/// that live for hours and must sleep when nothing changes (`focus ui`, `status --follow`). On
/// Linux the pool is libdispatch's, whose first worker thread starts a timer that wakes the
/// process every second for as long as it runs (measured: `strace -f` shows its `timerfd`
/// re-armed each second). A task started with this executor as its preference (SE-0417) runs
/// here with everything it awaits, and no pool thread is ever made.
///
/// The thread blocks the asynchronous signals, as the pool's threads do, so that they keep
/// landing on the main thread that the entry point parks in `pause()`.
package final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var ready = pthread_cond_t()
    private var jobs: [UnownedJob] = []

    package init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&ready, nil)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(&mutex)
        jobs.append(job)
        pthread_cond_signal(&ready)
        pthread_mutex_unlock(&mutex)
    }

    /// Starts the thread that runs the jobs, for the life of the process.
    package func start() {
        DetachedThread.start { [self] in
            var blocked = sigset_t()
            sigfillset(&blocked)
            for synchronous in [SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV, SIGPIPE, SIGSYS] { sigdelset(&blocked, synchronous) }
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            while true { next().runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    private func next() -> UnownedJob {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while jobs.isEmpty { pthread_cond_wait(&ready, &mutex) }
        return jobs.removeFirst()
    }
}
