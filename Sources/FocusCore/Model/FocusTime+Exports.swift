// Local days, times of day and zones come from FocusTime, the package's one time module; every
// module that imports FocusCore sees them too. (scripts/torture/fuzz compiles FocusTime's sources into
// the same module as FocusCore's, where there is nothing to import.)
#if canImport(FocusTime)
@_exported import FocusTime
#endif
