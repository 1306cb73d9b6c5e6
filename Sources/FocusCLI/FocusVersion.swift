/// The version `focus --version` prints.
package enum FocusVersion {
    package static let text = "focus 0.1.0"
}
