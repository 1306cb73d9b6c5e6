import FoundationEssentials

/// What one sync did (README, "Two machines"): how many items came and went each way, the
/// conflicts, the backup taken first, and what the person should know. FocusRendering's
/// `SyncRenderer` says it.
package struct SyncSummary: Equatable, Sendable {
    package var received = 0
    package var sent = 0
    package var deletedHere = 0
    package var deletedThere = 0
    package var conflicts = 0
    package var backup: String?
    package var warnings: [String] = []
    /// Items deleted on one machine and kept for work the other recorded ("Thesis/Intro").
    package var kept: [String] = []
    /// Writes the server still refused after the last round: the sync did not converge.
    package var unconverged = false
    /// What the settings from the other machines changed here (README, "Two machines").
    package var settings: [String] = []
    /// Tasks and subtasks deleted in another app, archived here with their sessions.
    package var deletedElsewhere: [String] = []
    /// Tasks and subtasks deleted here that came back with work recorded elsewhere.
    package var cameBack: [String] = []
    /// Series of recurring work ticked done in another app: their current instance done here.
    package var seriesTicked: [String] = []

    package init() {}
}
