import FoundationEssentials

/// One line of `focus doctor`'s report: a label, what was found, and whether it is a problem.
/// A problem is marked ✗ and counted (any makes the exit status 1, README, "Exit codes"); a
/// warning, marked !, is something to know that is normal somewhere (a machine with no desktop)
/// and is not counted. FocusRendering's `DoctorRenderer` words and lays them out.
package struct DoctorFinding: Sendable, Equatable {
    package var label: String
    /// The text after the label, with its mark (`✗ `, `! `) when it has one.
    package var value: String
    package var problem: Bool

    package init(label: String, value: String, problem: Bool = false) {
        self.label = label
        self.value = value
        self.problem = problem
    }

    package static func problem(_ label: String, _ value: String) -> DoctorFinding { DoctorFinding(label: label, value: "✗ " + value, problem: true) }
    package static func warning(_ label: String, _ value: String) -> DoctorFinding { DoctorFinding(label: label, value: "! " + value) }
}
