import Foundation

/// Files focus ships beside its binary: in a checkout `data/`, installed `$PREFIX/share/focus/`.
package enum Resources {
    /// The directory holding the shipped data files, if one can be found.
    package static func dataDirectory() -> String? {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bin = (exe as NSString).deletingLastPathComponent
        let candidates = [
            (bin as NSString).appendingPathComponent("../share/focus"),
            // .build/<config>/focus or .build/<triple>/<config>/focus in a checkout.
            (bin as NSString).appendingPathComponent("../../data"),
            (bin as NSString).appendingPathComponent("../../../data"),
        ]
        return candidates.map { ($0 as NSString).standardizingPath }.first {
            FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent("focus.svg"))
        }
    }

    package static func iconPath() -> String? {
        guard let dir = dataDirectory() else { return nil }
        let png = (dir as NSString).appendingPathComponent("focus.png")
        return FileManager.default.fileExists(atPath: png) ? png : (dir as NSString).appendingPathComponent("focus.svg")
    }
}
