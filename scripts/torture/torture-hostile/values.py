"""Hostile stored values: numbers a hand-edited or restored database can hold.

Each case copies a small database made with focus commands, sets one to three random numeric
columns of random rows to random extreme values with the sqlite3 shell (INT64 bounds, 1e300,
infinities, huge or non-numeric text, negative durations, reals, blobs), then runs a random
selection of read commands. It checks what the README promises: never a crash, the documented
exit codes (read commands succeed; `log edit` may refuse with one `focus: error:` line, 64 or 65),
JSON that parses, `focus doctor` exiting 1 and naming each out-of-range value (table, id,
column), and `focus restore` of such a file restoring it with a warning that names it.
"""

import json
import os
import shutil

NOW = "2026-11-23T07:30:00+01:00"
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

# The domains focus reads each kind of column within (Sources/FocusStorage/Records/Row+Lenient.swift).
INSTANTS = (-62_135_596_800, 253_402_300_799)
DOMAINS = {
    "id": (INT64_MIN + 1, INT64_MAX),
    "instant": INSTANTS,
    "seconds": (0, 36_525 * 86_400),
    "positive seconds": (1, 36_525 * 86_400),
    "count": (0, 2**31 - 1),
    "positive": (1, 2**31 - 1),
    "flag": (0, 1),
    "minute": (0, 1439),
    "day": (INSTANTS[0] // 86_400, INSTANTS[1] // 86_400),
}

# Every numeric column of the schema (Sources/FocusStorage/Schema.swift) but the row ids, with
# the column that names its row in `focus doctor`.
COLUMNS = {
    "task": ("id", {"archived": "flag", "loggedSeconds": "seconds", "sessionCount": "count", "createdAt": "instant"}),
    "subtask": ("id", {"taskId": "id", "estimateSeconds": "positive seconds", "due": "instant", "spanSeconds": "positive seconds",
                       "earliestMinutes": "minute", "done": "flag", "atRisk": "flag", "loggedSeconds": "seconds",
                       "lastWorkedAt": "instant", "createdAt": "instant"}),
    "scheduledBlock": ("id", {"subtaskId": "id", "startedAt": "instant", "endedAt": "instant"}),
    "timeLog": ("id", {"taskId": "id", "subtaskId": "id", "startedAt": "instant", "endedAt": "instant",
                       "plannedSeconds": "seconds", "focusedSeconds": "seconds", "blockId": "id", "createdAt": "instant"}),
    "calendar": ("id", {"horizonStart": "instant", "horizonEnd": "instant", "importedAt": "instant",
                        "eventCount": "count", "longestSeconds": "seconds", "occurrenceCount": "count"}),
    "busyEvent": ("id", {"calendarId": "id", "startedAt": "instant", "endedAt": "instant", "allDay": "flag"}),
    "activeSession": ("id", {"pid": "id", "cycle": "positive", "cycles": "positive", "workStartedAt": "instant",
                             "phaseStartedAt": "instant", "plannedSeconds": "seconds", "workPlannedSeconds": "seconds",
                             "focusedSeconds": "seconds", "remainingSeconds": "seconds", "endsAt": "instant",
                             "checkpointAt": "instant"}),
    "planRisk": ("subtaskId", {"neededSeconds": "seconds", "freeSeconds": "seconds"}),
    "sentReminder": ("blockId", {"sentAt": "instant"}),
    "sentSummary": ("day", {"day": "day", "sentAt": "instant"}),
}

ICS = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//focus torture//EN\r
BEGIN:VEVENT\r
UID:class-1\r
DTSTAMP:20261101T000000Z\r
DTSTART:20261123T090000Z\r
DTEND:20261123T103000Z\r
RRULE:FREQ=DAILY;COUNT=10\r
SUMMARY:Math 101\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:trip\r
DTSTAMP:20261101T000000Z\r
DTSTART;VALUE=DATE:20261125\r
DTEND;VALUE=DATE:20261126\r
SUMMARY:Trip\r
END:VEVENT\r
END:VCALENDAR\r
"""


def values(rng, domain):
    """SQL literals of hostile values: some always out of every domain, some at the edges of the
    column's own domain (`domain`), some random 64-bit integers and reals."""
    lo, hi = DOMAINS[domain]
    if rng.random() < 0.3:
        return str(rng.choice([lo - 1, hi + 1, lo, hi, INT64_MIN, INT64_MAX, -hi, -lo if lo > INT64_MIN else 0]))
    pool = [
        str(INT64_MAX), str(INT64_MIN), str(INT64_MAX - 1), str(INT64_MIN + 1), "-1", "0", "1",
        "1e300", "-1e300", "9e999", "-9e999", "9.3e18", "-9.3e18", "1.5", "-0.5", "86400.75",
        "'NaN'", "'inf'", "'-Infinity'", "'99999999999999999999999999'", "'-99999999999999999999'",
        "'12abc'", "''", "' 7 '", "'1e400'", "x'ff00'", "x''",
        str(2**31), str(2**32), str(-86_400 * 365 * 200), str(INSTANTS[1] + 1), str(INSTANTS[0] - 1),
        str(10**18), str(36_525 * 86_400 + 1),
    ]
    v = rng.choice(pool)
    if rng.random() < 0.25:
        v = str(rng.randrange(INT64_MIN, INT64_MAX))
    elif rng.random() < 0.1:
        v = repr(rng.uniform(-1e19, 1e19))
    return v


def make_template(t, db):
    """A small database made with focus: tasks, subtasks, sessions, a calendar, a plan, an at-risk
    subtask, and the reminder and summary rows the daemon keeps."""
    ics = os.path.join(os.path.dirname(db), "classes.ics")
    with open(ics, "w") as f:
        f.write(ICS)
    steps = [
        ["task", "add", "Thesis/Chapter 2", "--estimate", "3h", "--due", "2026-11-27 17:00", "--span", "50m", "--earliest", "09:00"],
        ["task", "add", "Thesis/Chapter 3", "--estimate", "90h", "--due", "2026-11-24", "--force"],
        ["task", "add", "Teaching"],
        ["log", "add", "Thesis/Chapter 2", "--start", "2026-11-22 09:00", "--duration", "25m"],
        ["log", "add", "Thesis/Chapter 2", "--start", "2026-11-21 23:50", "--duration", "25m", "--interrupted"],
        ["log", "add", "Teaching", "--start", "2026-11-20 14:00", "--duration", "50m"],
        ["log", "add", "Thesis/Chapter 3", "--start", "2026-11-10 10:00", "--duration", "25m"],
        ["calendar", "import", ics, "--name", "Classes"],
        ["plan"],
    ]
    for args in steps:
        p = t.focus(db, *args, now=NOW)
        if p.returncode != 0:
            raise RuntimeError(f"focus {' '.join(args)}: exit {p.returncode} {p.stderr.strip()}")
    t.sql(db, "INSERT OR IGNORE INTO sentSummary (day, sentAt) VALUES (20414, 1795000000);"
              "INSERT OR IGNORE INTO sentReminder (blockId, kind, sentAt) SELECT min(id), 'before', 1795400000 FROM scheduledBlock")


def dead_pid():
    for pid in range(4_000_000, 4_100_000, 7919):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            continue
    return 4_194_000


def add_active_session(t, db, alive):
    pid = os.getpid() if alive else dead_pid()
    t.sql(db, f"""INSERT OR REPLACE INTO activeSession (id, pid, taskId, subtaskId, phase, state, cycle, cycles, workStartedAt,
                  phaseStartedAt, plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt)
                  SELECT 1, {pid}, taskId, id, 'work', 'running', 1, 4, 1795415400, 1795415400, 1500, 1500, 300, 1200,
                  1795416900, 1795415700 FROM subtask WHERE title = 'Chapter 2'""")


def edit(t, rng, db):
    """One random hostile value in one random row; returns (table, id, column, typeof, value) as
    stored, or None when SQLite refused the edit or the table is empty."""
    table = rng.choice(sorted(COLUMNS))
    key, columns = COLUMNS[table]
    column = rng.choice(sorted(columns))
    rows = t.sql(db, f"SELECT {key} FROM {table}").split()
    if not rows:
        return None
    row = rng.choice(rows)
    value = values(rng, columns[column])
    try:
        # CHECK constraints are what a hand edit walks past first (`PRAGMA ignore_check_constraints`).
        t.sql(db, f"PRAGMA ignore_check_constraints = ON; UPDATE {table} SET {column} = {value} WHERE {key} = {row}")
    except RuntimeError:
        return None  # NOT NULL, UNIQUE, or an INTEGER PRIMARY KEY that only takes integers
    if column == key:
        row = t.sql(db, f"SELECT {key} FROM {table} WHERE rowid = (SELECT max(rowid) FROM {table} WHERE {key} IS {value})") or row
    stored = t.sql(db, f"SELECT typeof({column}) || '|' || quote({column}) FROM {table} WHERE {key} = {row}")
    if "|" not in stored:
        return None
    kind, quoted = stored.split("|", 1)
    return table, row, column, kind, quoted, columns[column]


def intact(t, db, row, what):
    """SQLite finds no damage. The CHECK constraints a hand edit walked past are not damage:
    they are what this scenario does (a fresh connection's integrity_check reports them)."""
    try:
        answer = t.sql(db, "PRAGMA integrity_check")
    except RuntimeError as e:
        answer = str(e)
    damage = [l for l in answer.splitlines() if l != "ok" and not l.startswith("CHECK constraint failed")]
    if damage:
        t.integrity_failures += 1
        row.fail(f"{what}: integrity_check says {' / '.join(damage)[:200]!r}")


def out_of_range(kind, quoted, domain):
    if kind == "null":
        return False
    if kind != "integer":
        return True
    lo, hi = DOMAINS[domain]
    return not (lo <= int(quoted) <= hi)


READS = [
    ["task", "list"], ["task", "list", "--all", "--json"], ["task", "show", "Thesis/Chapter 2"], ["task", "show", "Thesis"],
    ["log"], ["log", "--json"], ["stats"], ["stats", "--json"], ["stats", "--last", "30", "--csv"],
    ["report", "--html", "REPORT"], ["export"], ["export", "--format", "csv"], ["status"], ["status", "--json"],
    ["agenda"], ["agenda", "--json"], ["agenda", "2026-11-25"], ["plan", "--dry-run"], ["plan", "--dry-run", "--json"],
    ["calendar", "list"], ["calendar", "busy", "--from", "2026-11-20", "--to", "2026-11-30", "--json"],
]
JSON_OUTPUT = ("--json",)
# Commands that write (each re-plans): they succeed, or refuse with one line and a documented code.
WRITES = [
    ["plan"], ["task", "add", "Thesis/Chapter 9", "--estimate", "1h", "--due", "2026-11-30"],
    ["log", "add", "Teaching", "--start", "2026-11-23 06:00", "--duration", "20m"], ["task", "done", "Thesis/Chapter 2"],
    ["backup"], ["task", "edit", "Thesis/Chapter 2", "--notes", "edited"],
]


# The longest session the store keeps (a forgotten timer: README, "Sessions longer than a day").
LONGEST_SESSION = 31 * 86_400


def broken_rules(t, db, table, r):
    """The column a row names when it breaks a rule between its columns that doctor checks
    (a session lasts 0 to LONGEST_SESSION s, a block ends after it starts), its numbers being in range."""
    if table not in ("timeLog", "scheduledBlock"):
        return None
    got = t.sql(db, f"SELECT typeof(startedAt), typeof(endedAt), startedAt, endedAt FROM {table} WHERE id = {r}").split("|")
    if len(got) != 4 or got[0] != "integer" or got[1] != "integer":
        return None
    start, end = int(got[2]), int(got[3])
    lo, hi = INSTANTS
    if not (lo <= start <= hi and lo <= end <= hi):
        return None
    if table == "timeLog" and (end < start or end - start > LONGEST_SESSION):
        return "endedAt"
    if table == "scheduledBlock" and end <= start:
        return "endedAt"
    return None


def run(t):
    row = t.row("hostile/values", "extreme numbers in every numeric column")
    template = t.new_db("values-template")
    make_template(t, template)
    cases = 30 if t.quick else 150
    report = os.path.join(t.tmp, "values-report.html")
    tried, named, restored = set(), 0, 0
    for case in range(cases):
        db = t.copy_db(template, "values-case")
        session = t.rng.random() < 0.35
        alive = session and t.rng.random() < 0.5
        if session:
            add_active_session(t, db, alive)
        edits = [e for e in (edit(t, t.rng, db) for _ in range(t.rng.randint(1, 3))) if e]
        if not edits:
            continue
        row.runs += 1
        what = "; ".join(f"{tb}#{r}.{c}={q}" for tb, r, c, _, q, _ in edits)
        tried.update(f"{tb}.{c}" for tb, _, c, *_ in edits)
        for args in t.rng.sample(READS, 5):
            args = [report if a == "REPORT" else a for a in args]
            p = t.focus(db, *args, now=NOW)
            # A subtask moved to another (or no) task by an edited id is not found by its old path.
            if args[:2] == ["task", "show"] and any(d == "id" for *_, d in edits) and t.one_error_line(p, 64):
                continue
            if not row.check(p.returncode == 0 and "Fatal error" not in p.stderr,
                             f"{what}: focus {' '.join(args)}: exit {p.returncode} {p.stderr.strip()[-300:]!r}"):
                continue
            if any(a in JSON_OUTPUT for a in args):
                try:
                    json.loads(p.stdout)
                except ValueError as e:
                    row.fail(f"{what}: focus {' '.join(args)} wrote JSON that does not parse ({e}): {p.stdout[:200]!r}")
        if t.rng.random() < 0.3:
            args = t.rng.choice(WRITES)
            p = t.focus(db, *args, now=NOW)
            row.check(p.returncode == 0 or t.one_error_line(p, 64) or t.one_error_line(p, 65),
                      f"{what}: focus {' '.join(args)}: exit {p.returncode} {p.stderr.strip()[-300:]!r}")
        # `log edit` writes the session back: it saves it, or refuses it with one line (64 for a
        # value, 65 when the database's own rules refuse the row, e.g. a hand-edited reference to
        # a subtask that is not there).
        ids = t.sql(db, "SELECT id FROM timeLog").split()
        if ids:
            p = t.focus(db, "log", "edit", t.rng.choice(ids), "--note", "edited", now=NOW)
            row.check(p.returncode == 0 or t.one_error_line(p, 64) or t.one_error_line(p, 65),
                      f"{what}: log edit: exit {p.returncode} {p.stderr.strip()[-300:]!r}")
        # Re-read what is stored now: focus itself may have written since (a recovered session,
        # a log edit), and only values still out of range are for doctor to name.
        bad = []
        for table, r, column, _, _, domain in edits:
            key = COLUMNS[table][0]
            stored = t.sql(db, f"SELECT typeof({column}) || '|' || quote({column}) FROM {table} WHERE {key} = {r}")
            if "|" in stored:
                kind, quoted = stored.split("|", 1)
                if out_of_range(kind, quoted, domain):
                    bad.append((table, r, column))
                elif broken_rules(t, db, table, r):
                    bad.append((table, r, broken_rules(t, db, table, r)))
        p = t.focus(db, "doctor", now=NOW)
        if bad:
            if row.check(p.returncode == 1, f"{what}: doctor: exit {p.returncode}, expected 1 {p.stderr.strip()!r}"):
                for table, r, column in bad:
                    named += row.check(f"{table} #{r} {column} = " in p.stdout, f"{what}: doctor does not name {table} #{r} {column}:\n{p.stdout}")
                row.check("✗" in p.stdout, f"{what}: doctor marks no problem line with ✗")
        else:
            row.check(p.returncode in (0, 1), f"{what}: doctor: exit {p.returncode} {p.stderr.strip()!r}")
        # Restoring such a file (no session running) brings it back and names what is out of range.
        if bad and not alive and t.rng.random() < 0.4:
            target = t.new_db("values-restore")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(target + suffix):
                    os.unlink(target + suffix)
            shutil.copyfile(template, target)
            p = t.focus(target, "restore", db, now=NOW)
            if row.check(p.returncode == 0, f"{what}: restore: exit {p.returncode} {p.stderr.strip()!r}"):
                table, r, column = bad[0]
                restored += row.check("out of range" in p.stderr, f"{what}: restore did not warn: {p.stderr!r}")
                after = t.focus(target, "task", "list", now=NOW)
                row.check(after.returncode == 0, f"{what}: task list after restore: exit {after.returncode} {after.stderr.strip()!r}")
            intact(t, target, row, f"{what}: after restore")
        intact(t, db, row, what)
    total = sum(len(c) for _, c in COLUMNS.values())
    row.notes.append(f"{len(tried)} of {total} numeric columns edited; doctor named {named} out-of-range values; "
                     f"{restored} restores warned")
