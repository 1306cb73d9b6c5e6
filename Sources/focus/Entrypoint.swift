import FocusCLI
import Glibc

@main
enum Entrypoint {
    /// Runs focus on a thread of the concurrency pool and parks the main thread for good: the
    /// command ends the process with exit(3). An `async` main would park it in
    /// `dispatch_main()`, whose `pthread_exit` unwinds the main thread's stack through the
    /// binary's unwind tables: about 1.5 MB more resident memory on every run (README,
    /// Development). The main thread stays the one thread that takes signals (the pool's threads
    /// block them): each one runs its handler there and `pause()` returns to wait again.
    /// `focus ui` and `status --follow` run on a thread of their own instead (see
    /// `OwnThreadExecutor`): the pool's first thread starts a timer that wakes the process every
    /// second, and they sleep for hours.
    static func main() {
        if FocusMain.sleepsBetweenChanges(Array(CommandLine.arguments.dropFirst())) {
            let executor = OwnThreadExecutor()
            executor.start()
            Task.detached(executorPreference: executor) { await FocusMain.mainThenExit() }
        } else {
            Task.detached { await FocusMain.mainThenExit() }
        }
        while true { pause() }
    }
}
