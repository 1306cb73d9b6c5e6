// swift-tools-version: 6.0
import PackageDescription

let releaseLinkFlags = [
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/focus/link-order.txt",
    "-Xlinker", "--no-warn-symbol-ordering",
    // swiftc exports every symbol of an executable; nothing looks ours up, and the loader
    // would search 11,000 of them for each library symbol it binds.
    "-Xlinker", "--no-export-dynamic",
    // libstdc++ from GCC's static archive (see the linker script there): about 0.8 MB less
    // resident memory per run than loading the shared library.
    "-L\(Context.packageDirectory)/Sources/focus/static-libstdc++",
]

// `make test-unit` (FOCUS_UNIT_TESTS=1): the unit test targets alone, for the edit-test loop.
// The command line (FocusCLI, ArgumentParser, the executable), its test world and the
// command-line and end-to-end tests, most of a full test build's compile time, are left out:
// no unit test target depends on them.
let unitTestsOnly = Context.environment["FOCUS_UNIT_TESTS"] == "1"
let wholeProgramTargets: Set<String> = ["focus", "FocusCLI", "FocusTestSupport", "FocusCLITests", "EndToEndTests"]

let package = Package(
    name: "focus",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "focus", targets: ["focus"]),
    ],
    dependencies: [
        // Pinned to its minor version: RootCommand sets an underscored configuration property.
        .package(url: "https://github.com/apple/swift-argument-parser", .upToNextMinor(from: "1.8.2")),
    ],
    targets: [
        // The executable is one call into FocusCLI. Release builds link with lld: relative
        // relocations packed (RELR: the loader reads kilobytes instead of 2 MB of them) and the
        // functions common commands run laid side by side (link-order.txt, from
        // scripts/bench/link-order), so each run faults in about 5 MB less of the binary.
        .executableTarget(
            name: "focus", dependencies: ["FocusCLI"], exclude: ["link-order.txt", "static-libstdc++"],
            linkerSettings: [.unsafeFlags(releaseLinkFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // The composition root (it builds the live clients), the commands (each parses, calls
        // and renders), the terminal, the full-screen view's runner; the only module that
        // imports ArgumentParser.
        .target(
            name: "FocusCLI",
            dependencies: [
                "FocusCore", "FocusRendering", "FocusStorage", "FocusSQLite", "FocusNotifications", "FocusCalendar", "FocusNetwork",
                "FocusServices", "FocusSystem", "FocusText", "FocusTUI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The full-screen view's pure parts (`focus ui`): frames, layouts, the key table, the reducer.
        .target(name: "FocusTUI", dependencies: ["FocusCore", "FocusRendering", "FocusStorage", "FocusTime", "FocusText"]),
        // What commands run that is not a command: the sync engine, the reminder daemon,
        // publishing, the re-plan (`Planning`), reading, fetching and refreshing calendars, CalDAV
        // accounts (files are written through FocusSystem's AtomicFileWriter). Services take a `ServiceContext` or the ports they use
        // (a `Prompter`, a `CredentialSource`: FocusCLI's terminal), never the command line.
        .target(
            name: "FocusServices",
            dependencies: ["FocusCore", "FocusStorage", "FocusCalendar", "FocusRendering", "FocusSystem", "FocusText"]
        ),
        // The terminal, HTML, JSON and CSV views of the domain: renderers are pure builders over
        // Core's values (the plan's view values included, which storage's queries return), the
        // terminal views giving DisplayText; the one styled-text type (StyledLine) and the one
        // JSON writer (JSONBytes).
        .target(name: "FocusRendering", dependencies: ["FocusCore", "FocusTime", "FocusText"]),
        // The SQLite store: migrations, records, queries. FocusSystem makes the database's
        // private directory and names the backup files.
        .target(name: "FocusStorage", dependencies: ["FocusCore", "FocusText", "FocusSQLite", "FocusSystem"]),
        // SQLite's C API (Debian's libsqlite3-dev).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // A small Swift layer over it: connections, statements, rows, transactions, migrations,
        // online backup. FoundationEssentials only, so the binary carries no ICU.
        .target(name: "FocusSQLite", dependencies: ["CSQLite"]),
        // RFC 5545 reading, recurrence expansion and writing. Knows nothing else but time.
        .target(name: "FocusCalendar", dependencies: ["FocusTime", "FocusText"]),
        // The domain: model, engine, scheduling, stats, sync, ports, errors: decisions over values.
        // It imports no Glibc: what touches the system is FocusSystem's, behind Core's ports.
        // Sync's calendar objects are read and written with FocusCalendar's content lines and
        // writer (one implementation of RFC 5545 unfolding, folding and escaping); FocusCalendar
        // knows nothing of Core.
        .target(name: "FocusCore", dependencies: ["FocusTime", "FocusText", "FocusCalendar"]),
        // What FoundationEssentials leaves out of Foundation's text handling (trimming), text
        // measured in terminal columns, and text made safe for a terminal (DisplayText).
        .target(name: "FocusText"),
        // The operating system (Glibc), in one small module: files named on the command line
        // (`InputFile`, `OutputFile`), the private and user directories, sleeping, detached
        // threads, the child process, errno's words; and the ports' default adapters that
        // need them. Over FocusCore's ports and errors and FocusText's paths.
        .target(name: "FocusSystem", dependencies: ["FocusCore", "FocusText"]),
        // The one time module: civil dates, the zone database (TZif files, POSIX TZ rules), the
        // rule for local times in a DST gap or overlap. No dependencies.
        .target(name: "FocusTime"),
        // libnotify (Debian's libnotify4, from libnotify-dev), loaded with dlopen on the first
        // desktop notification: linking it made every command load GLib, GIO and gdk-pixbuf.
        .systemLibrary(name: "CLibNotify"),
        // GIO's D-Bus client (Debian's libglib2.0-0, which libnotify pulls in), loaded with dlopen
        // when a countdown starts watching the screen saver and the session lock.
        .systemLibrary(name: "CGio"),
        // Desktop notifications (libnotify), the terminal fallback, and the screen-saver watcher.
        .target(name: "FocusNotifications", dependencies: ["FocusCore", "FocusSystem", "FocusText", "CLibNotify", "CGio"]),
        // libcurl (Debian's libcurl4, from libcurl4-openssl-dev), loaded with dlopen on the first
        // calendar feed fetch, so that no other command loads it or its TLS library.
        .systemLibrary(name: "CLibCurl"),
        // The HTTP client behind FocusCore's HTTPClient port, over libcurl.
        .target(name: "FocusNetwork", dependencies: ["FocusCore", "FocusSystem", "FocusText", "CLibCurl"]),
        // Fakes for tests of the domain: TestClock, recording console/notifier/hooks, seeded random
        // numbers, a scripted HTTP client, test instants (TestDates), and RadicaleServer (a real
        // CalDAV server on loopback).
        // Core's tests compile neither the CLI nor the SQLite layer.
        .target(name: "FocusCoreTestSupport", dependencies: ["FocusCore", "FocusSystem", "FocusTime"]),
        // The in-memory test world (database, environment, commands run in-process) for the
        // command tests; the unit tests use FocusCoreTestSupport alone.
        .target(name: "FocusTestSupport", dependencies: [
            "FocusCoreTestSupport", "FocusCore", "FocusStorage", "FocusServices", "FocusCLI",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "FocusTimeTests", dependencies: ["FocusTime"]),
        .testTarget(name: "FocusCoreTests", dependencies: ["FocusCore", "FocusCalendar", "FocusCoreTestSupport"]),
        .testTarget(name: "FocusTextTests", dependencies: ["FocusText"]),
        .testTarget(name: "FocusRenderingTests", dependencies: ["FocusRendering", "FocusCore", "FocusCoreTestSupport"]),
        .testTarget(name: "FocusTUITests", dependencies: ["FocusTUI", "FocusCore", "FocusRendering", "FocusStorage", "FocusText", "FocusCoreTestSupport"]),
        .testTarget(name: "FocusSQLiteTests", dependencies: ["FocusSQLite"]),
        .testTarget(name: "FocusSystemTests", dependencies: ["FocusSystem", "FocusCore"]),
        .testTarget(name: "FocusStorageTests", dependencies: ["FocusStorage", "FocusRendering", "FocusSQLite", "FocusCoreTestSupport"]),
        .testTarget(name: "FocusCLITests", dependencies: [
            "FocusCLI", "FocusServices", "FocusStorage", "FocusSQLite", "FocusSystem", "FocusTestSupport", "FocusTUI",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The services over fake ports (a scripted person, fixed password sources) and the
        // in-memory CalDAV server: no command line, no terminal.
        .testTarget(name: "FocusServicesTests", dependencies: ["FocusServices", "FocusStorage", "FocusCore", "FocusText", "FocusCoreTestSupport"]),
        .testTarget(name: "FocusCalendarTests", dependencies: ["FocusCalendar"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FocusNotificationsTests", dependencies: ["FocusNotifications", "FocusCoreTestSupport"]),
        // The CalDAV client and the XML reader, on recorded requests and against Radicale.
        .testTarget(name: "FocusNetworkTests", dependencies: ["FocusNetwork", "FocusCore", "FocusCoreTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["FocusCore", "FocusRendering", "FocusCoreTestSupport"]),
    ]
)

// Each file imports the modules whose members it uses (SE-0444), the rule Swift is moving to:
// no member is reached through an import another file of the module made.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}

if unitTestsOnly {
    package.products.removeAll()
    package.targets.removeAll { wholeProgramTargets.contains($0.name) }
}
