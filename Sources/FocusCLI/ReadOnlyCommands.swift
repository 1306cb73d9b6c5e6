/// The commands that only read the database, in one place (`FocusRunnable.readsOnly`): run
/// before focus has recorded anything, they answer from an empty database ("idle", no tasks
/// yet, an empty report) and create neither the file nor its directory.
extension StatusCommand { package var readsOnly: Bool { true } }
extension StatsCommand { package var readsOnly: Bool { true } }
extension TaskListCommand { package var readsOnly: Bool { true } }
extension TaskShowCommand { package var readsOnly: Bool { true } }
extension AgendaCommand { package var readsOnly: Bool { true } }
extension LogListCommand { package var readsOnly: Bool { true } }
extension PlanCommand { package var readsOnly: Bool { dryRun } }
extension CalendarListCommand { package var readsOnly: Bool { true } }
extension CalendarBusyCommand { package var readsOnly: Bool { true } }
extension CalendarExportCommand { package var readsOnly: Bool { true } }
extension ExportCommand { package var readsOnly: Bool { true } }
extension ReportCommand { package var readsOnly: Bool { true } }
extension DoctorCommand { package var readsOnly: Bool { true } }
extension SyncStatusCommand { package var readsOnly: Bool { true } }
