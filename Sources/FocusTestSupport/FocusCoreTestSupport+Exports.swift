// The fakes every test target shares (clock, console, notifier, hooks, seeded random numbers);
// this module adds the in-memory test world that needs the CLI and the store.
@_exported import FocusCoreTestSupport
