import FoundationEssentials
import FocusCore
import FocusSQLite

/// The versioned schema. Migrations are never edited once they have landed: people's databases
/// outlive the code. Add a new one at the end and bump `AppDatabase.schemaVersion`.
extension AppDatabase {
    /// `PRAGMA user_version` after every migration has run. Opening a database whose version is
    /// current skips the migrator entirely (it costs milliseconds at every start-up).
    package static let schemaVersion = 23

    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-domain") { db in
            // One id sequence shared by tasks and subtasks, so `#ID` names exactly one of them.
            try db.execute(sql: """
                CREATE TABLE pathId (id INTEGER PRIMARY KEY AUTOINCREMENT);

                CREATE TABLE task (
                  id INTEGER PRIMARY KEY,
                  title TEXT NOT NULL CHECK (length(trim(title)) > 0 AND instr(title, '/') = 0),
                  titleKey TEXT NOT NULL UNIQUE,
                  notes TEXT,
                  archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
                  -- Focus logged against the task and its subtasks, kept by the triggers below.
                  loggedSeconds INTEGER NOT NULL DEFAULT 0,
                  sessionCount INTEGER NOT NULL DEFAULT 0,
                  createdAt INTEGER NOT NULL
                );

                CREATE TABLE subtask (
                  id INTEGER PRIMARY KEY,
                  taskId INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                  title TEXT NOT NULL CHECK (length(trim(title)) > 0),
                  titleKey TEXT NOT NULL,
                  notes TEXT,
                  estimateSeconds INTEGER CHECK (estimateSeconds > 0),
                  startDate TEXT CHECK (startDate IS NULL OR startDate GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                  due INTEGER,
                  spanSeconds INTEGER CHECK (spanSeconds > 0),
                  earliestMinutes INTEGER CHECK (earliestMinutes BETWEEN 0 AND 1439),
                  done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
                  atRisk INTEGER NOT NULL DEFAULT 0 CHECK (atRisk IN (0, 1)),
                  loggedSeconds INTEGER NOT NULL DEFAULT 0,
                  lastWorkedAt INTEGER,
                  createdAt INTEGER NOT NULL,
                  UNIQUE (taskId, titleKey)
                );
                CREATE INDEX subtask_due ON subtask(due);

                CREATE TABLE scheduledBlock (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  subtaskId INTEGER NOT NULL REFERENCES subtask(id) ON DELETE CASCADE,
                  startedAt INTEGER NOT NULL,
                  endedAt INTEGER NOT NULL CHECK (endedAt > startedAt),
                  status TEXT NOT NULL DEFAULT 'planned' CHECK (status IN ('planned', 'done', 'partial', 'missed'))
                );
                CREATE INDEX scheduledBlock_startedAt ON scheduledBlock(startedAt);
                CREATE INDEX scheduledBlock_subtaskId ON scheduledBlock(subtaskId);

                -- A work session. A session lasts at most a day, so a window query reads an
                -- index range on startedAt: [from - 1 day, to).
                CREATE TABLE timeLog (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  taskId INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                  subtaskId INTEGER REFERENCES subtask(id) ON DELETE CASCADE,
                  startedAt INTEGER NOT NULL,
                  endedAt INTEGER NOT NULL,
                  plannedSeconds INTEGER NOT NULL CHECK (plannedSeconds >= 0),
                  focusedSeconds INTEGER NOT NULL CHECK (focusedSeconds >= 0),
                  status TEXT NOT NULL CHECK (status IN ('completed', 'interrupted')),
                  blockId INTEGER REFERENCES scheduledBlock(id) ON DELETE SET NULL,
                  note TEXT,
                  createdAt INTEGER NOT NULL,
                  CHECK (endedAt >= startedAt),
                  CHECK (endedAt - startedAt <= 86400),
                  CHECK (focusedSeconds <= endedAt - startedAt)
                );
                -- The identity of a session: re-importing the same history adds nothing twice.
                CREATE UNIQUE INDEX timeLog_identity ON timeLog(taskId, ifnull(subtaskId, 0), startedAt);
                CREATE INDEX timeLog_startedAt ON timeLog(startedAt);
                CREATE INDEX timeLog_subtaskId ON timeLog(subtaskId);
                CREATE INDEX timeLog_blockId ON timeLog(blockId);

                -- Totals per task and subtask stay exact without scanning the history.
                CREATE TRIGGER timeLog_insert AFTER INSERT ON timeLog BEGIN
                  UPDATE task SET loggedSeconds = loggedSeconds + NEW.focusedSeconds,
                                  sessionCount = sessionCount + 1 WHERE id = NEW.taskId;
                  UPDATE subtask SET loggedSeconds = loggedSeconds + NEW.focusedSeconds,
                                     lastWorkedAt = max(ifnull(lastWorkedAt, NEW.endedAt), NEW.endedAt)
                                 WHERE id = NEW.subtaskId;
                END;
                CREATE TRIGGER timeLog_delete AFTER DELETE ON timeLog BEGIN
                  UPDATE task SET loggedSeconds = loggedSeconds - OLD.focusedSeconds,
                                  sessionCount = sessionCount - 1 WHERE id = OLD.taskId;
                  UPDATE subtask SET loggedSeconds = loggedSeconds - OLD.focusedSeconds WHERE id = OLD.subtaskId;
                END;
                CREATE TRIGGER timeLog_update AFTER UPDATE OF focusedSeconds, taskId, subtaskId, endedAt ON timeLog BEGIN
                  UPDATE task SET loggedSeconds = loggedSeconds - OLD.focusedSeconds,
                                  sessionCount = sessionCount - 1 WHERE id = OLD.taskId;
                  UPDATE subtask SET loggedSeconds = loggedSeconds - OLD.focusedSeconds WHERE id = OLD.subtaskId;
                  UPDATE task SET loggedSeconds = loggedSeconds + NEW.focusedSeconds,
                                  sessionCount = sessionCount + 1 WHERE id = NEW.taskId;
                  UPDATE subtask SET loggedSeconds = loggedSeconds + NEW.focusedSeconds,
                                     lastWorkedAt = max(ifnull(lastWorkedAt, NEW.endedAt), NEW.endedAt)
                                 WHERE id = NEW.subtaskId;
                END;

                CREATE TABLE calendar (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                  nameKey TEXT NOT NULL UNIQUE,
                  source TEXT NOT NULL,
                  content TEXT NOT NULL,
                  timeZone TEXT NOT NULL,
                  horizonStart INTEGER NOT NULL,
                  horizonEnd INTEGER NOT NULL CHECK (horizonEnd >= horizonStart),
                  importedAt INTEGER NOT NULL
                );

                CREATE TABLE busyEvent (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  calendarId INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                  startedAt INTEGER NOT NULL,
                  endedAt INTEGER NOT NULL CHECK (endedAt >= startedAt),
                  summary TEXT NOT NULL,
                  allDay INTEGER NOT NULL DEFAULT 0 CHECK (allDay IN (0, 1)),
                  uid TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX busyEvent_startedAt ON busyEvent(startedAt);
                CREATE INDEX busyEvent_calendarId ON busyEvent(calendarId);

                -- The one running session, checkpointed while it runs; a row whose process is gone
                -- is recovered as an interrupted session by the next command.
                CREATE TABLE activeSession (
                  id INTEGER PRIMARY KEY CHECK (id = 1),
                  pid INTEGER NOT NULL,
                  taskId INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                  subtaskId INTEGER REFERENCES subtask(id) ON DELETE CASCADE,
                  blockId INTEGER REFERENCES scheduledBlock(id) ON DELETE SET NULL,
                  phase TEXT NOT NULL CHECK (phase IN ('work', 'short_break', 'long_break')),
                  state TEXT NOT NULL CHECK (state IN ('running', 'paused')),
                  cycle INTEGER NOT NULL CHECK (cycle >= 1),
                  cycles INTEGER NOT NULL CHECK (cycles >= 1),
                  workStartedAt INTEGER,
                  phaseStartedAt INTEGER NOT NULL,
                  plannedSeconds INTEGER NOT NULL CHECK (plannedSeconds >= 0),
                  workPlannedSeconds INTEGER NOT NULL CHECK (workPlannedSeconds >= 0),
                  focusedSeconds INTEGER NOT NULL CHECK (focusedSeconds >= 0),
                  remainingSeconds INTEGER NOT NULL CHECK (remainingSeconds >= 0),
                  endsAt INTEGER,
                  checkpointAt INTEGER NOT NULL,
                  request TEXT CHECK (request IS NULL OR request IN ('stop', 'pause', 'resume', 'skip')),
                  reason TEXT
                );
                """)
        }
        migrator.registerMigration("v2-stats-window-index") { db in
            // Stats read a window of sessions by start time: with every column they use in the
            // index itself, SQLite never visits the table for them (over a decade of history,
            // a month's report reads ~8,000 index entries and nothing else). The new index
            // serves every query the old start-time index did.
            try db.execute(sql: """
                CREATE INDEX timeLog_window ON timeLog(startedAt, endedAt, focusedSeconds, plannedSeconds, status, taskId, subtaskId);
                DROP INDEX timeLog_startedAt;
                """)
        }
        migrator.registerMigration("v3-planning") { db in
            try db.execute(sql: """
                -- VEVENTs in the imported file (the rows below are its occurrences in the horizon),
                -- and the longest stored occurrence: a window query then reads an index range on
                -- startedAt, [from - longest, to), instead of every earlier event.
                ALTER TABLE calendar ADD COLUMN eventCount INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE calendar ADD COLUMN longestSeconds INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE calendar ADD COLUMN occurrenceCount INTEGER NOT NULL DEFAULT 0;
                UPDATE calendar SET
                  longestSeconds = ifnull((SELECT max(endedAt - startedAt) FROM busyEvent WHERE busyEvent.calendarId = calendar.id), 0),
                  occurrenceCount = (SELECT count(*) FROM busyEvent WHERE busyEvent.calendarId = calendar.id);

                -- The raw .ics text moves out of the calendar row: columns after a multi-megabyte
                -- value cost a walk through its overflow pages on every read of the row.
                -- calendar.content stays (migrations are not edited) and is written empty.
                CREATE TABLE calendarFile (
                  calendarId INTEGER PRIMARY KEY REFERENCES calendar(id) ON DELETE CASCADE,
                  content TEXT NOT NULL
                );
                INSERT INTO calendarFile (calendarId, content) SELECT id, content FROM calendar;
                UPDATE calendar SET content = '';
                -- Every window query names its calendar: one index serves them and the cascade.
                DROP INDEX busyEvent_calendarId;
                DROP INDEX busyEvent_startedAt;
                CREATE INDEX busyEvent_calendarId_startedAt ON busyEvent(calendarId, startedAt);

                -- What the last saved plan said about each subtask it could not fit, so the agenda
                -- can list them without planning again. Replaced whole by every saved plan.
                CREATE TABLE planRisk (
                  subtaskId INTEGER PRIMARY KEY REFERENCES subtask(id) ON DELETE CASCADE,
                  neededSeconds INTEGER NOT NULL CHECK (neededSeconds >= 0),
                  freeSeconds INTEGER NOT NULL CHECK (freeSeconds >= 0),
                  -- Competing subtasks' labels, one per line.
                  competitors TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX scheduledBlock_status_startedAt ON scheduledBlock(status, startedAt);
                """)
        }
        migrator.registerMigration("v4-reminders") { db in
            // Block reminders `focus daemon` has sent: each at most once, across restarts.
            // A block the re-plan moves gets a new id, and so its own reminders.
            try db.execute(sql: """
                CREATE TABLE sentReminder (
                  blockId INTEGER NOT NULL REFERENCES scheduledBlock(id) ON DELETE CASCADE,
                  kind TEXT NOT NULL CHECK (kind IN ('before', 'start')),
                  sentAt INTEGER NOT NULL,
                  PRIMARY KEY (blockId, kind)
                ) WITHOUT ROWID;
                -- End-of-day summary notices sent, by local day (days since 1970-01-01).
                CREATE TABLE sentSummary (
                  day INTEGER PRIMARY KEY,
                  sentAt INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("v5-focus-quarters") { db in
            // Focus by quarter hour of session start, kept by triggers like the per-task totals:
            // every zone's local midnight falls on a quarter hour today, so the focus of any run
            // of whole local days is a sum over a few thousand rows here plus the shares of the
            // sessions that cross its ends, instead of a read of every session in it (the
            // previous period of `stats --last 30` over a decade of history: ~8,000 sessions).
            // lastEnd, the latest end of the quarter's sessions, finds those crossing a given
            // instant without reading the day of sessions before it: only quarters whose lastEnd
            // is past the instant can hold one. It is never below the truth (a removal recomputes
            // it from the quarter's sessions). quarter = floor(startedAt / 900).
            // The two halves of each trigger: a session leaving its quarter, and one arriving.
            let quarterOf = { (row: String) in "\(row).startedAt / 900 - (\(row).startedAt % 900 < 0)" }
            let leave = """
                  UPDATE focusQuarter SET focusedSeconds = focusedSeconds - OLD.focusedSeconds,
                                          sessionCount = sessionCount - 1,
                                          lastEnd = ifnull((SELECT max(endedAt) FROM timeLog
                                                            WHERE startedAt >= quarter * 900 AND startedAt < quarter * 900 + 900), 0)
                    WHERE quarter = \(quarterOf("OLD"));
                  DELETE FROM focusQuarter WHERE quarter = \(quarterOf("OLD")) AND sessionCount <= 0;
                """
            let arrive = """
                  INSERT INTO focusQuarter (quarter, focusedSeconds, sessionCount, lastEnd)
                    VALUES (\(quarterOf("NEW")), NEW.focusedSeconds, 1, NEW.endedAt)
                    ON CONFLICT (quarter) DO UPDATE SET focusedSeconds = focusedSeconds + excluded.focusedSeconds,
                                                        sessionCount = sessionCount + 1,
                                                        lastEnd = max(lastEnd, excluded.lastEnd);
                """
            try db.execute(sql: """
                CREATE TABLE focusQuarter (
                  quarter INTEGER PRIMARY KEY,
                  focusedSeconds INTEGER NOT NULL,
                  sessionCount INTEGER NOT NULL,
                  lastEnd INTEGER NOT NULL
                );
                INSERT INTO focusQuarter (quarter, focusedSeconds, sessionCount, lastEnd)
                  SELECT \(quarterOf("timeLog")), sum(focusedSeconds), count(*), max(endedAt)
                  FROM timeLog GROUP BY 1;

                CREATE TRIGGER timeLog_quarter_insert AFTER INSERT ON timeLog BEGIN
                \(arrive)
                END;
                CREATE TRIGGER timeLog_quarter_delete AFTER DELETE ON timeLog BEGIN
                \(leave)
                END;
                CREATE TRIGGER timeLog_quarter_update AFTER UPDATE OF startedAt, endedAt, focusedSeconds ON timeLog BEGIN
                \(leave)
                \(arrive)
                END;
                """)
        }
        migrator.registerMigration("v6-plan-state") { db in
            // Whether the stored plan still follows from the data. Any change to what the planner
            // reads (subtasks, sessions, calendars; a task's archiving) marks it stale, whichever
            // command or program made it; a re-plan marks it current. After every command that
            // wrote, focus re-plans when it is stale (README: the plan stays true).
            let stale = "UPDATE planState SET stale = 1 WHERE id = 1 AND stale = 0;"
            var sql = """
                CREATE TABLE planState (
                  id INTEGER PRIMARY KEY CHECK (id = 1),
                  stale INTEGER NOT NULL CHECK (stale IN (0, 1))
                );
                INSERT INTO planState (id, stale) VALUES (1, 1);

                """
            let watched: [(table: String, columns: String)] = [
                ("subtask", "taskId, estimateSeconds, startDate, due, spanSeconds, earliestMinutes, done"),
                ("timeLog", "taskId, subtaskId, startedAt, endedAt, focusedSeconds, blockId"),
                ("busyEvent", "calendarId, startedAt, endedAt"),
                ("task", "archived"),
            ]
            for (table, columns) in watched {
                for (event, name) in [("INSERT", "insert"), ("DELETE", "delete"), ("UPDATE OF \(columns)", "update")] {
                    if table == "task" && event != "UPDATE OF \(columns)" { continue }  // a task's subtasks carry its work
                    sql += "CREATE TRIGGER \(table)_plan_\(name) AFTER \(event) ON \(table) BEGIN \(stale) END;\n"
                }
            }
            try db.execute(sql: sql)
        }
        migrator.registerMigration("v7-nfc-titles") { db in
            // Titles are stored in Unicode NFC and keyed by NFC (Titles.normalized, TaskCatalog.key)
            // from now on; titles written before in another form are brought over here, so an
            // existing "e + U+0301" task is found by a composed "é". Where two rows are one name
            // (the duplicate this prevents), the row that would take a name another already holds
            // is left as it was by UPDATE OR IGNORE: it stays reachable by #ID. Only non-ASCII
            // titles can change.
            for table in ["task", "subtask"] {
                let update = try db.makeStatement(sql: "UPDATE OR IGNORE \(table) SET title = ?, titleKey = ? WHERE id = ?")
                let rows = try Row.fetchAll(db, sql: "SELECT id, title, titleKey FROM \(table) ORDER BY id")
                for row in rows {
                    let title: String = row["title"] ?? ""
                    guard title.utf8.contains(where: { $0 >= 0x80 }) else { continue }
                    let nfc = Titles.normalized(title)
                    let key = TaskCatalog.key(nfc)
                    // Byte for byte: Swift's == would call the two spellings equal.
                    let storedKey: String = row["titleKey"] ?? ""
                    if nfc.utf8.elementsEqual(title.utf8), key.utf8.elementsEqual(storedKey.utf8) { continue }
                    try update.execute(arguments: [nfc, key, row["id"] as Int64?])
                }
            }
            // Calendar names are looked up by the same key (`calendar rm NAME`).
            let rekey = try db.makeStatement(sql: "UPDATE OR IGNORE calendar SET nameKey = ? WHERE id = ?")
            for row in try Row.fetchAll(db, sql: "SELECT id, name, nameKey FROM calendar") {
                let name: String = row["name"] ?? ""
                guard name.utf8.contains(where: { $0 >= 0x80 }) else { continue }
                let key = TaskCatalog.key(name)
                let storedKey: String = row["nameKey"] ?? ""
                if !key.utf8.elementsEqual(storedKey.utf8) { try rekey.execute(arguments: [key, row["id"] as Int64?]) }
            }
        }
        migrator.registerMigration("v8-long-sessions", foreignKeyChecks: .deferred) { db in
            // A session may last longer than a day (a forgotten timer, README "Sessions longer than
            // a day"). SQLite cannot drop v1's `CHECK (endedAt - startedAt <= 86400)`, so timeLog is
            // rebuilt without it the way SQLite's own documentation of ALTER TABLE describes for
            // changes it cannot make in place: a new table with the same columns and other
            // constraints, the rows copied with their ids, the old table dropped, the new one
            // renamed, then every index and trigger on it re-created from the very SQL it had
            // (v1's totals, v2's window index, v5's quarters, v6's plan state). Foreign keys are
            // off meanwhile (`DatabaseMigrator`'s deferred checks run them once at the end); nothing references
            // timeLog. The AUTOINCREMENT counter is carried over, so no id is ever handed out twice.
            let dependents = try String.fetchAll(db, sql: """
                SELECT sql FROM sqlite_master
                WHERE tbl_name = 'timeLog' AND type IN ('index', 'trigger') AND sql IS NOT NULL
                ORDER BY type = 'trigger', rowid
                """)
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'timeLog'")
            let columns = "id, taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, blockId, note, createdAt"
            try db.execute(sql: """
                CREATE TABLE timeLog_new (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  taskId INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                  subtaskId INTEGER REFERENCES subtask(id) ON DELETE CASCADE,
                  startedAt INTEGER NOT NULL,
                  endedAt INTEGER NOT NULL,
                  plannedSeconds INTEGER NOT NULL CHECK (plannedSeconds >= 0),
                  focusedSeconds INTEGER NOT NULL CHECK (focusedSeconds >= 0),
                  status TEXT NOT NULL CHECK (status IN ('completed', 'interrupted')),
                  blockId INTEGER REFERENCES scheduledBlock(id) ON DELETE SET NULL,
                  note TEXT,
                  createdAt INTEGER NOT NULL,
                  CHECK (endedAt >= startedAt),
                  CHECK (focusedSeconds <= endedAt - startedAt)
                );
                INSERT INTO timeLog_new (\(columns)) SELECT \(columns) FROM timeLog ORDER BY id;
                DROP TABLE timeLog;
                ALTER TABLE timeLog_new RENAME TO timeLog;
                """)
            for sql in dependents { try db.execute(sql: sql) }
            if let sequence {
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'timeLog'", arguments: [sequence])
                if db.changesCount == 0 {
                    try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('timeLog', ?)", arguments: [sequence])
                }
            }
            // Window reads take the sessions begun up to a day before the window from the start-time
            // index, as before; the few longer ones come from this index, which holds only them
            // (empty, it costs one probe). Queries name it with INDEXED BY and repeat its WHERE term
            // word for word (`AppDatabase.longSessionTerm`), so SQLite always uses it.
            try db.execute(sql: """
                CREATE INDEX timeLog_long ON timeLog(startedAt, endedAt) WHERE endedAt - startedAt > 86400;
                """)
        }
        migrator.registerMigration("v9-live-calendars") { db in
            // CalDAV accounts (README, "Your real calendar"). A connected collection is a calendar
            // like an imported file (its busy times in busyEvent), with the account it came from,
            // its address and its sync token (RFC 6578); its calendar object resources are kept one
            // row each, so a refresh applies only what changed. A subscribed feed's state (ETag,
            // last fetch, last error) moves out of v1's `content` column, which v3 left unused,
            // into `fetchState`. Passwords are never stored: an account keeps the command that
            // prints one. Published events are those focus wrote to a calendar, with the ETag and
            // a digest of what it wrote, so a re-plan rewrites only what changed and focus never
            // touches an event it did not create.
            try db.execute(sql: """
                CREATE TABLE calendarAccount (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  url TEXT NOT NULL,
                  principalUrl TEXT NOT NULL,
                  homeUrls TEXT NOT NULL,
                  user TEXT NOT NULL DEFAULT '',
                  passwordCommand TEXT,
                  caFile TEXT,
                  insecure INTEGER NOT NULL DEFAULT 0 CHECK (insecure IN (0, 1)),
                  connectedAt INTEGER NOT NULL,
                  UNIQUE (url, user)
                );
                ALTER TABLE calendar ADD COLUMN accountId INTEGER REFERENCES calendarAccount(id) ON DELETE CASCADE;
                ALTER TABLE calendar ADD COLUMN remoteUrl TEXT;
                ALTER TABLE calendar ADD COLUMN syncToken TEXT;
                ALTER TABLE calendar ADD COLUMN fetchState TEXT NOT NULL DEFAULT '';
                UPDATE calendar SET fetchState = content, content = '' WHERE content <> '';
                CREATE INDEX calendar_accountId ON calendar(accountId);
                CREATE TABLE calendarResource (
                  calendarId INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                  url TEXT NOT NULL,
                  etag TEXT,
                  data BLOB NOT NULL,
                  PRIMARY KEY (calendarId, url)
                ) WITHOUT ROWID;
                CREATE TABLE publishTarget (
                  id INTEGER PRIMARY KEY AUTOINCREMENT,
                  accountId INTEGER NOT NULL REFERENCES calendarAccount(id) ON DELETE CASCADE,
                  url TEXT NOT NULL,
                  name TEXT NOT NULL,
                  sessions INTEGER NOT NULL DEFAULT 0 CHECK (sessions IN (0, 1)),
                  publishedAt INTEGER,
                  lastError TEXT,
                  UNIQUE (accountId, url)
                );
                CREATE TABLE publishedEvent (
                  targetId INTEGER NOT NULL REFERENCES publishTarget(id) ON DELETE CASCADE,
                  uid TEXT NOT NULL,
                  kind TEXT NOT NULL CHECK (kind IN ('block', 'session')),
                  url TEXT NOT NULL,
                  etag TEXT,
                  fingerprint TEXT NOT NULL,
                  endedAt INTEGER NOT NULL,
                  PRIMARY KEY (targetId, uid)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v11-sync") { db in
            // Two machines, one history (README, "Two machines"). Every task, subtask and session
            // gets a name that is the same on every machine (`syncUid`, given at its first sync)
            // and the wall-clock time of its last local edit in milliseconds (`modifiedAt`, 0 until
            // it is edited: its creation time stands for it), kept by the triggers below whatever
            // program edits the row. syncItem is the version of each item both sides last agreed
            // on (the text written to or read from the server, with its address and ETag): what
            // changed since on either side is a difference from it, and a row that has gone
            // locally while its syncItem stays is a deletion to send. syncConflict keeps both
            // values of a field changed on both machines, and which one was kept. A session running
            // on one machine is published as a checkpoint; syncElsewhere holds the other machines'.
            let now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
            var sql = ""
            let watched: [(table: String, columns: String)] = [
                ("task", "title, notes, archived"),
                ("subtask", "taskId, title, notes, estimateSeconds, startDate, due, spanSeconds, earliestMinutes, done"),
                ("timeLog", "taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, note"),
            ]
            for (table, columns) in watched {
                sql += """
                    ALTER TABLE \(table) ADD COLUMN syncUid TEXT;
                    ALTER TABLE \(table) ADD COLUMN modifiedAt INTEGER NOT NULL DEFAULT 0;
                    CREATE UNIQUE INDEX \(table)_syncUid ON \(table)(syncUid) WHERE syncUid IS NOT NULL;
                    CREATE TRIGGER \(table)_sync_modified AFTER UPDATE OF \(columns) ON \(table) BEGIN
                      UPDATE \(table) SET modifiedAt = \(now) WHERE id = NEW.id;
                    END;

                    """
            }
            sql += """
                CREATE TABLE syncTarget (
                  id INTEGER PRIMARY KEY CHECK (id = 1),
                  accountId INTEGER NOT NULL REFERENCES calendarAccount(id) ON DELETE CASCADE,
                  url TEXT NOT NULL,
                  name TEXT NOT NULL,
                  syncToken TEXT,
                  setupAt INTEGER NOT NULL,
                  syncedAt INTEGER,
                  lastError TEXT,
                  lastErrorAt INTEGER,
                  -- This machine's name in the calendar (random, made at setup) and the digest of the
                  -- running-session checkpoint it last wrote there (NULL: none there).
                  machineId TEXT NOT NULL,
                  checkpoint TEXT
                );
                -- Sessions running on the other machines, as their last checkpoints said.
                CREATE TABLE syncElsewhere (
                  url TEXT PRIMARY KEY,
                  machine TEXT NOT NULL,
                  label TEXT NOT NULL,
                  phase TEXT NOT NULL,
                  paused INTEGER NOT NULL,
                  remainingSeconds INTEGER NOT NULL,
                  endsAt INTEGER,
                  checkpointAt INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE syncItem (
                  uid TEXT PRIMARY KEY,
                  kind TEXT NOT NULL CHECK (kind IN ('task', 'subtask', 'session')),
                  url TEXT NOT NULL,
                  etag TEXT,
                  base BLOB NOT NULL,
                  -- SyncItem.digest of the item `base` holds: what a sync compares first.
                  digest TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX syncItem_url ON syncItem(url);
                CREATE TABLE syncConflict (
                  uid TEXT NOT NULL,
                  field TEXT NOT NULL,
                  label TEXT NOT NULL,
                  localValue TEXT NOT NULL,
                  remoteValue TEXT NOT NULL,
                  chosen TEXT NOT NULL CHECK (chosen IN ('local', 'remote')),
                  at INTEGER NOT NULL,
                  PRIMARY KEY (uid, field)
                ) WITHOUT ROWID;
                """
            try db.execute(sql: sql)
        }
        migrator.registerMigration("v12-sync-fingerprint") { db in
            // A digest of the local tables as they were when the last sync ended (README, "Two
            // machines"): a sync whose server reports nothing new and whose tables still give
            // this digest has nothing to merge or send, and skips reading every item.
            try db.execute(sql: "ALTER TABLE syncTarget ADD COLUMN localFingerprint TEXT")
        }
        migrator.registerMigration("v13-plan-triggers-when-current") { db in
            // v6's triggers ran their UPDATE for every row written, though only the first write
            // after a re-plan changes anything: importing a calendar's 400,000 busy times (or a
            // long history) paid for 400,000 updates of one row. The same triggers now fire only
            // while the plan is current. Each is rewritten from its own definition, so the list
            // of watched tables and columns stays v6's.
            let body = " BEGIN UPDATE planState SET stale = 1 WHERE id = 1 AND stale = 0; END"
            let rows = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name <> 'planState'")
            for row in rows {
                let name = row.text("name"), sql = row.text("sql")
                guard name.contains("_plan_"), sql.hasSuffix(body) else { continue }
                try db.execute(sql: "DROP TRIGGER \"\(name)\"")
                try db.execute(sql: String(sql.dropLast(body.count))
                    + " WHEN (SELECT stale FROM planState WHERE id = 1) = 0 BEGIN UPDATE planState SET stale = 1 WHERE id = 1; END")
            }
        }
        migrator.registerMigration("v14-account-calendars") { db in
            // A refresh of a connected account lists its calendars again and reads those added
            // since (README, "A CalDAV account"), by the rule of `connect`: `calendarNames` holds
            // the names given with --calendar, one a line ('' for every calendar that holds
            // events; NULL for an account connected before this, whose choice was not kept: only
            // the calendars it has count, none is added). `excludedUrls` are those the person
            // removed with `calendar rm` (one a line), never read again until `connect`;
            // `lastChange` the calendars the last refresh added (`+ Name`) and removed (`- Name`).
            try db.execute(sql: """
                ALTER TABLE calendarAccount ADD COLUMN calendarNames TEXT;
                ALTER TABLE calendarAccount ADD COLUMN excludedUrls TEXT NOT NULL DEFAULT '';
                ALTER TABLE calendarAccount ADD COLUMN lastChange TEXT NOT NULL DEFAULT '';
                ALTER TABLE calendarAccount ADD COLUMN lastChangeAt INTEGER;
                """)
        }
        migrator.registerMigration("v15-publish-across-machines") { db in
            // One calendar, one copy of each block (README, "Your real calendar"). `publisher`
            // names this database's focus in the events it publishes (X-FOCUS-PUBLISHER), so it
            // never writes over, or deletes, another machine's events; publishTarget.syncToken is
            // where the last publication's look at the calendar ended (RFC 6578), so a deleted or
            // moved event is seen; publishedEvent.startedAt is the start focus wrote, so a move is
            // told from another change; scheduledBlock.pinnedUid marks a block the person moved in
            // a calendar app (the UID of its event), which re-plans keep where it is.
            try db.execute(sql: """
                CREATE TABLE publisher (
                  id INTEGER PRIMARY KEY CHECK (id = 1),
                  name TEXT NOT NULL
                );
                INSERT INTO publisher (id, name) VALUES (1, lower(hex(randomblob(8))));
                ALTER TABLE publishTarget ADD COLUMN syncToken TEXT;
                ALTER TABLE publishedEvent ADD COLUMN startedAt INTEGER;
                ALTER TABLE scheduledBlock ADD COLUMN pinnedUid TEXT;
                """)
        }
        migrator.registerMigration("v16-declined-meetings") { db in
            // Meetings the person declined are free time (README, "A CalDAV account").
            // calendarAccount.addresses: the principal's calendar-user-address-set (RFC 6638), one
            // a line, the person's own. `declinedEvent`: those meetings, never read as busy time,
            // which the agenda still shows, marked.
            try db.execute(sql: """
                ALTER TABLE calendarAccount ADD COLUMN addresses TEXT NOT NULL DEFAULT '';
                CREATE TABLE declinedEvent (
                  calendarId INTEGER NOT NULL REFERENCES calendar(id) ON DELETE CASCADE,
                  startedAt INTEGER NOT NULL,
                  endedAt INTEGER NOT NULL,
                  summary TEXT NOT NULL
                );
                CREATE INDEX declinedEvent_calendarId_startedAt ON declinedEvent(calendarId, startedAt);
                """)
        }
        migrator.registerMigration("v17-open-sessions", foreignKeyChecks: .deferred) { db in
            // `focus start PATH --open` (README, "Open sessions"): a session that counted up with
            // no planned length is recorded with status 'open' (and plannedSeconds 0). SQLite
            // cannot change a CHECK in place, so timeLog is rebuilt as v8 rebuilt it (SQLite's
            // ALTER TABLE documentation): a new table from the very SQL the current one has, with
            // only the status CHECK widened, the rows copied with their ids, the old table
            // dropped, the new one renamed, every index and trigger re-created from its own SQL,
            // and the AUTOINCREMENT counter carried over.
            let narrow = "CHECK (status IN ('completed', 'interrupted'))"
            let table = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'timeLog'") ?? ""
            guard table.contains(narrow), let open = table.firstIndex(of: "(") else {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "timeLog does not have the status check focus wrote")
            }
            let definition = "CREATE TABLE timeLog_new " + String(table[open...])
                .replacing(narrow, with: "CHECK (status IN ('completed', 'interrupted', 'open'))")
            let dependents = try String.fetchAll(db, sql: """
                SELECT sql FROM sqlite_master
                WHERE tbl_name = 'timeLog' AND type IN ('index', 'trigger') AND sql IS NOT NULL
                ORDER BY type = 'trigger', rowid
                """)
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'timeLog'")
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(timeLog)").compactMap { $0["name"] as String? }
                .map { "\"" + $0 + "\"" }.joined(separator: ", ")
            try db.execute(sql: definition)
            try db.execute(sql: """
                INSERT INTO timeLog_new (\(columns)) SELECT \(columns) FROM timeLog ORDER BY id;
                DROP TABLE timeLog;
                ALTER TABLE timeLog_new RENAME TO timeLog;
                """)
            for sql in dependents { try db.execute(sql: sql) }
            if let sequence {
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'timeLog'", arguments: [sequence])
                if db.changesCount == 0 {
                    try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('timeLog', ?)", arguments: [sequence])
                }
            }
        }
        migrator.registerMigration("v18-session-tags") { db in
            // Tags on sessions (README, "Tags"). A tag is a name unique ignoring case (`nameKey`,
            // `SessionTags.key`), spelled as first written; `timeLogTag` files a session under
            // each of its tags, once. The running session keeps its tags in `activeSession.tags`
            // (one a line) until its work is recorded. A synced session whose tags change is an
            // edit to send (the triggers stamp `modifiedAt` as v11's do for its other fields).
            let now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
            try db.execute(sql: """
                CREATE TABLE tag (
                  id INTEGER PRIMARY KEY,
                  name TEXT NOT NULL CHECK (length(trim(name)) > 0 AND length(name) <= 200 AND instr(name, ';') = 0),
                  nameKey TEXT NOT NULL UNIQUE
                );
                CREATE TABLE timeLogTag (
                  timeLogId INTEGER NOT NULL REFERENCES timeLog(id) ON DELETE CASCADE,
                  tagId INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                  PRIMARY KEY (timeLogId, tagId)
                ) WITHOUT ROWID;
                CREATE INDEX timeLogTag_tagId ON timeLogTag(tagId, timeLogId);
                ALTER TABLE activeSession ADD COLUMN tags TEXT NOT NULL DEFAULT '';
                CREATE TRIGGER timeLogTag_sync_insert AFTER INSERT ON timeLogTag BEGIN
                  UPDATE timeLog SET modifiedAt = \(now) WHERE id = NEW.timeLogId AND syncUid IS NOT NULL;
                END;
                CREATE TRIGGER timeLogTag_sync_delete AFTER DELETE ON timeLogTag BEGIN
                  UPDATE timeLog SET modifiedAt = \(now) WHERE id = OLD.timeLogId AND syncUid IS NOT NULL;
                END;
                """)
        }
        migrator.registerMigration("v19-planning-priority-cap") { db in
            // README, "Planning": subtask.priority orders work due the same day (-1 low,
            // 0 normal, 1 high); subtask.maxPerDaySeconds is its daily cap (NULL: the config's).
            try db.execute(sql: """
                ALTER TABLE subtask ADD COLUMN priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN -1 AND 1);
                ALTER TABLE subtask ADD COLUMN maxPerDaySeconds INTEGER CHECK (maxPerDaySeconds > 0);
                """)
        }
        migrator.registerMigration("v20-settings-travel") { db in
            // Settings that travel with sync (README, "Two machines"): syncTarget.settings is the
            // version of the travelling settings both sides last agreed on (`SyncSettings`, JSON,
            // with the ETag of the settings event); NULL before the first sync.
            try db.execute(sql: "ALTER TABLE syncTarget ADD COLUMN settings TEXT")
        }
        migrator.registerMigration("v21-recurring-work") { db in
            // Recurring work (README, "Planning"). A series is a subtask row with a rule: `every`
            // (day, weekdays, week, month) and `onDay` (a weekday 0 = Sunday … 6 for a week, a day
            // of the month 1…31 for a month; NULL: the period's last day). It is never planned
            // itself. Each period's instance is an ordinary subtask pointing to its series
            // (`seriesId`, removed with it), with the first day of its period (`periodStart`,
            // YYYY-MM-DD): one instance per period and series. A change of the rule is an edit to
            // send to the other machines (v11's triggers stamp the other fields).
            let now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
            try db.execute(sql: """
                ALTER TABLE subtask ADD COLUMN every TEXT CHECK (every IN ('day', 'weekdays', 'week', 'month'));
                ALTER TABLE subtask ADD COLUMN onDay INTEGER CHECK (onDay BETWEEN 0 AND 31);
                ALTER TABLE subtask ADD COLUMN seriesId INTEGER REFERENCES subtask(id) ON DELETE CASCADE;
                ALTER TABLE subtask ADD COLUMN periodStart TEXT
                  CHECK (periodStart IS NULL OR periodStart GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]');
                CREATE UNIQUE INDEX subtask_series_period ON subtask(seriesId, periodStart) WHERE seriesId IS NOT NULL;
                CREATE INDEX subtask_every ON subtask(every) WHERE every IS NOT NULL;
                CREATE TRIGGER subtask_sync_modified_rule AFTER UPDATE OF every, onDay ON subtask BEGIN
                  UPDATE subtask SET modifiedAt = \(now) WHERE id = NEW.id;
                END;
                """)
        }
        migrator.registerMigration("v22-drop-focus-quarter") { db in
            // No command reads v5's focus-by-quarter totals any more: the stats read the sessions
            // of their window one by one (docs/PERFORMANCE.md, "Fast paths"). Kept, they cost every start the
            // parsing of a table and three triggers (SQLite parses the whole schema on first use)
            // and every write to the log three more statements. The per-task and per-subtask
            // totals v1's triggers keep stay: `task`, `agenda` and `stats` read them.
            try db.execute(sql: """
                DROP TRIGGER IF EXISTS timeLog_quarter_insert;
                DROP TRIGGER IF EXISTS timeLog_quarter_delete;
                DROP TRIGGER IF EXISTS timeLog_quarter_update;
                DROP TABLE IF EXISTS focusQuarter;
                """)
        }
        migrator.registerMigration("v23-sync-deleted-elsewhere") { db in
            // Another app's deletion of a to-do never deletes sessions (README, "Two machines"):
            // a task or subtask deleted there while its sessions are still there is kept here,
            // archived (a subtask done), with `deletedElsewhere` set; it no longer travels. The
            // tasks and subtasks this machine deleted there (`focus task rm`) are remembered for
            // 30 days in syncDeleted, so that one coming back (another machine recorded work in
            // it meanwhile) is said here too.
            try db.execute(sql: """
                ALTER TABLE task ADD COLUMN deletedElsewhere INTEGER NOT NULL DEFAULT 0 CHECK (deletedElsewhere IN (0, 1));
                ALTER TABLE subtask ADD COLUMN deletedElsewhere INTEGER NOT NULL DEFAULT 0 CHECK (deletedElsewhere IN (0, 1));
                CREATE TABLE syncDeleted (
                  uid TEXT PRIMARY KEY,
                  at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
            // A future block deleted in the calendar app means "not in this slot" (README,
            // "Publishing"): its slot is busy time for planning until `until` (the end of its day).
            try db.execute(sql: """
                CREATE TABLE declinedSlot (
                  subtaskId INTEGER NOT NULL REFERENCES subtask(id) ON DELETE CASCADE,
                  startedAt INTEGER NOT NULL,
                  endedAt INTEGER NOT NULL CHECK (endedAt >= startedAt),
                  until INTEGER NOT NULL
                );
                CREATE INDEX declinedSlot_until ON declinedSlot(until);
                """)
            // The calendar app is a writer too (README, "Publishing"): publishedEvent.content is a
            // digest of the text a person reads in a block focus wrote (summary, description,
            // location), so that an edit of it there is seen and left as it is (NULL: written
            // before focus kept it).
            try db.execute(sql: "ALTER TABLE publishedEvent ADD COLUMN content TEXT")
            // The principal's scheduling inbox and outbox (RFC 6638 section 2.2: its
            // schedule-inbox-URL and schedule-outbox-URL), one a line: DAViCal marks them as
            // calendars, and every refresh must know them to leave them out.
            try db.execute(sql: "ALTER TABLE calendarAccount ADD COLUMN schedulingUrls TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v24-sync-retry") { db in
            // An item a sync read but could not apply yet (a session whose task has not arrived
            // here): its address, read again by every sync until it applies or is gone there,
            // as the server reports it changed only once (README, "Two machines").
            try db.execute(sql: """
                CREATE TABLE syncRetry (
                  uid TEXT PRIMARY KEY,
                  url TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }
}
