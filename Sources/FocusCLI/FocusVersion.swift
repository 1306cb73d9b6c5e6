/// The version `focus --version` prints: the release and the commit it was built from,
/// `focus 0.1.0 (abc1234)`.
package enum FocusVersion {
    package static let number = "0.1.0"
    package static let text = "focus \(number) (\(FocusBuild.commit))"
}

/// The commit a build came from. `make` writes `Generated/FocusBuild+Commit.swift` (ignored by
/// git) with a `commit` of the type's own, which wins over this default; a plain `swift build`
/// without it, or of a tarball without `.git`, says "unknown".
protocol BuildStamp {
    static var commit: String { get }
}

extension BuildStamp {
    static var commit: String { "unknown" }
}

enum FocusBuild: BuildStamp {}
