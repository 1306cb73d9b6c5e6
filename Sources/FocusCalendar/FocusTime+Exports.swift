// Civil dates and zones come from FocusTime, the package's one time module. (scripts/torture/fuzz
// compiles FocusTime's sources into the same module as these, where there is nothing to import.)
#if canImport(FocusTime)
@_exported import FocusTime
#endif
