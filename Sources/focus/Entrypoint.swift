import FocusCLI
import Glibc

@main
enum Entrypoint {
    /// Runs focus on a thread of the concurrency pool and parks the main thread for good: the
    /// command ends the process with exit(3). An `async` main would park it with
    /// `dispatch_main()`, whose `pthread_exit` unwinds the main thread's stack through the
    /// binary's unwind tables: about 1.5 MB more resident memory on every run (README,
    /// Development). The parked thread blocks every signal, so that signals go to the threads
    /// that handle them, as they did when the main thread had exited.
    static func main() {
        Task.detached { await FocusMain.mainThenExit() }
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        while true { pause() }
    }
}
