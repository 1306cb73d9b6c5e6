/// What a long service counts its work to (the writes of a first sync): FocusCLI's
/// `ProgressMeter` draws it as a progress line on standard error.
package protocol ProgressCounter: AnyObject {
    func setTotal(_ total: Int?)
    func advance(by n: Int)
    /// The work is over: the line, if drawn, is erased.
    func finish()
}
