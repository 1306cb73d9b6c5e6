// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "focus",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "focus", targets: ["focus"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The executable is one call into FocusCLI.
        .executableTarget(name: "focus", dependencies: ["FocusCLI"]),
        // Composition root, commands, rendering, terminal.
        .target(
            name: "FocusCLI",
            dependencies: [
                "FocusCore", "FocusStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // SQLite store through GRDB: migrations, records, queries.
        .target(
            name: "FocusStorage",
            dependencies: [
                "FocusCore", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the one loop that reads tens of thousands of stats rows.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The domain: model, engine, scheduling, stats, ports, errors. Foundation only.
        .target(name: "FocusCore"),
        // Fakes and fixtures for tests.
        .target(name: "FocusTestSupport", dependencies: ["FocusCore", "FocusStorage", "FocusCLI"]),

        .testTarget(name: "FocusCoreTests", dependencies: ["FocusCore", "FocusTestSupport"]),
        .testTarget(name: "FocusStorageTests", dependencies: ["FocusStorage", "FocusTestSupport"]),
        .testTarget(name: "FocusCLITests", dependencies: ["FocusCLI", "FocusTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["FocusCore"]),
    ]
)
