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
    static func main() {
        Task.detached { await FocusMain.mainThenExit() }
        while true { pause() }
    }
}
