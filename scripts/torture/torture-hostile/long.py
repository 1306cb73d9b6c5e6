"""Sessions longer than a day (README, "Sessions longer than a day"): forgotten timers.

Every seed makes new random histories mixing ordinary sessions with ones of a day and a second
up to 31 days, some paused, in a random zone (DST changes included), and checks:
- `import` (JSON Lines or CSV) exits 0, with one `focus: warning: FILE:LINE:` per long session
  naming its line, and nothing else on stderr; importing again adds nothing;
- `stats --json` over a random window gives each day the share of every session's focus by wall
  time between local midnights (a full day on a middle day, 23 or 25 hours across DST), counts
  each session once on the day it started, and its totals add up; the task totals are the sums;
- `log add` of a long session is refused (64, one error line naming --allow-long) without
  `--allow-long` and recorded with it; stats follow;
- `export` then `import` into a fresh database gives the same stats;
- a session of more than 31 days refuses the whole file (65, one error line with its line
  number), and nothing is written;
- no crash, and the database passes integrity_check.
"""
import datetime as dt
import json
import os
import zoneinfo

NOW = "2026-11-23T07:30:00Z"
NOW_EPOCH = 1795419000
DAY = 86400
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC", "America/St_Johns"]


def iso(epoch, zone=None):
    t = dt.datetime.fromtimestamp(epoch, dt.timezone.utc)
    if zone:
        t = t.astimezone(zoneinfo.ZoneInfo(zone))
    return t.isoformat()


def midnight(date, zone):
    """The instant a local day starts (the first instant of it, as focus counts days)."""
    z = zoneinfo.ZoneInfo(zone)
    local = dt.datetime(date.year, date.month, date.day, tzinfo=z)
    epoch = int(local.timestamp())
    # A day that starts in a gap (a DST change at midnight) starts at the gap's end.
    back = dt.datetime.fromtimestamp(epoch, z)
    if back.date() != date:
        while dt.datetime.fromtimestamp(epoch, z).date() != date:
            epoch += 900
    return epoch


def random_history(rng, count):
    sessions = []
    for k in range(count):
        long = rng.random() < 0.3
        length = rng.randint(DAY + 1, 31 * DAY) if long else rng.choice([0, rng.randint(60, 4 * 3600)])
        end = NOW_EPOCH - rng.randint(60, 80 * DAY)
        start = end - length
        focused = length if rng.random() < 0.6 else rng.randint(0, length)
        sessions.append({
            "task": f"Task {rng.randint(1, 3)}", "subtask": rng.choice([None, "Part A", "Part B"]),
            "start": start, "end": end, "status": rng.choice(["completed", "interrupted"]),
            "focused_seconds": focused,
        })
    # Distinct identities (task, subtask, start): import keeps the first of equals.
    seen, unique = set(), []
    for s in sessions:
        key = (s["task"], s["subtask"], s["start"])
        if key not in seen:
            seen.add(key)
            unique.append(s)
    return unique


def write_file(t, rng, name, sessions, zone):
    """The sessions as JSON Lines or CSV, blank lines here and there; returns (path, line of each)."""
    fmt = rng.choice(["jsonl", "csv"])
    path = os.path.join(t.tmp, f"{name}.{fmt}")
    lines, where = [], []
    if fmt == "csv":
        lines.append("task,subtask,start,end,status,focused_seconds")
    for s in sessions:
        if fmt == "jsonl" and rng.random() < 0.1:
            lines.append("")
        start, end = iso(s["start"], zone), iso(s["end"], zone)
        if fmt == "jsonl":
            lines.append(json.dumps({"task": s["task"], "subtask": s["subtask"], "start": start, "end": end,
                                     "status": s["status"], "focused_seconds": s["focused_seconds"]}))
        else:
            lines.append(f'{s["task"]},{s["subtask"] or ""},{start},{end},{s["status"]},{s["focused_seconds"]}')
        where.append(len(lines))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path, where


def expected(sessions, first, last, zone):
    """Per day of [first, last]: (exact focused seconds, completed, interrupted)."""
    days = []
    d = first
    while d <= last:
        days.append(d)
        d += dt.timedelta(days=1)
    bounds = [midnight(d, zone) for d in days] + [midnight(last + dt.timedelta(days=1), zone)]
    out = []
    for i, d in enumerate(days):
        lo, hi = bounds[i], bounds[i + 1]
        focus, done, stopped = 0.0, 0, 0
        for s in sessions:
            wall = s["end"] - s["start"]
            if lo <= s["start"] < hi:
                if s["status"] == "completed":
                    done += 1
                else:
                    stopped += 1
            if wall <= 0 or s["focused_seconds"] <= 0:
                continue
            overlap = min(s["end"], hi) - max(s["start"], lo)
            if overlap > 0:
                focus += s["focused_seconds"] if overlap >= wall else s["focused_seconds"] * overlap / wall
        out.append((d.isoformat(), focus, done, stopped))
    return out


def check_stats(t, row, db, sessions, zone, first, last, what):
    p = t.focus(db, "stats", "--json", "--from", first.isoformat(), "--to", last.isoformat(), "--tz", zone, now=NOW)
    if not row.check(p.returncode == 0, f"{what}: stats exit {p.returncode} {p.stderr.strip()[:200]!r}"):
        return None
    report = json.loads(p.stdout)
    want = expected(sessions, first, last, zone)
    got = [(d["date"], d["focused_seconds"], d["completed"], d["interrupted"]) for d in report["days"]]
    ok = len(got) == len(want)
    for g, w in zip(got, want):
        if g[0] != w[0] or abs(g[1] - w[1]) > 1 or g[2] != w[2] or g[3] != w[3]:
            ok = False
            row.fail(f"{what} ({zone}): day {w[0]} is {g[1:]} , expected ({w[1]:.1f}, {w[2]}, {w[3]})")
            break
    totals = report["totals"]
    row.check(ok and totals["completed"] == sum(d[2] for d in got) and totals["interrupted"] == sum(d[3] for d in got)
              and abs(totals["focused_seconds"] - sum(w[1] for w in want)) <= 1,
              f"{what}: totals {totals} do not add up")
    return report


def window(rng):
    today = dt.date(2026, 11, 23)
    last = today - dt.timedelta(days=rng.randint(0, 40))
    first = last - dt.timedelta(days=rng.randint(0, 45))
    return first, last


def run(t):
    rng = t.rng
    cases = 2 if t.quick else 6
    row = t.row("hostile/long", "forgotten timers: import warns per line, stats spread by wall time, log add --allow-long, over 31 days refused")
    for case in range(cases):
        row.runs += 1
        zone = rng.choice(ZONES)
        sessions = random_history(rng, rng.randint(8, 30))
        db = t.new_db(f"long-{case}")
        path, lines = write_file(t, rng, f"long-{case}", sessions, zone)
        p = t.focus(db, "import", path, now=NOW)
        long_lines = [line for s, line in zip(sessions, lines) if s["end"] - s["start"] > DAY]
        want_err = [f"focus: warning: {path}:{line}: a session of " for line in long_lines[:20]]
        err = [l for l in p.stderr.splitlines() if l.strip()]
        row.check(p.returncode == 0, f"import: exit {p.returncode} {p.stderr.strip()[:300]!r}")
        row.check(len(err) == len(want_err) + (1 if len(long_lines) > 20 else 0)
                  and all(e.startswith(w) and e.endswith("(a forgotten timer?): imported as one session") for e, w in zip(err, want_err)),
                  f"import warnings {err[:3]!r}, expected one per long line {long_lines[:5]}")
        count = int(t.sql(db, "SELECT count(*) FROM timeLog"))
        row.check(count == len(sessions), f"import kept {count} of {len(sessions)} sessions")
        again = t.focus(db, "import", path, now=NOW)
        row.check(again.returncode == 0 and f"Imported 0 sessions ({len(sessions)} already present)" in again.stdout
                  and int(t.sql(db, "SELECT count(*) FROM timeLog")) == count,
                  f"import again: {again.stdout.strip()!r} {again.stderr.strip()[:200]!r}")
        for _ in range(2):
            check_stats(t, row, db, sessions, rng.choice([zone, rng.choice(ZONES)]), *window(rng), "after import")
        logged = t.sql(db, "SELECT ifnull(sum(loggedSeconds), 0) FROM task")
        row.check(int(logged) == sum(s["focused_seconds"] for s in sessions), f"task totals {logged} != the sessions' focus")

        # log add: refused without --allow-long, recorded with it. (The task exists whatever the
        # random history held; an "already exists" answer is fine.)
        t.focus(db, "task", "add", "Task 1", now=NOW)
        length = rng.randint(DAY + 60, 31 * DAY) // 60 * 60
        end = NOW_EPOCH - rng.randint(1, 40) * 3600
        start = end - length
        args = ["log", "add", "Task 1", "--start", iso(start, zone), "--duration", f"{length // 60}m"]
        p = t.focus(db, *args, now=NOW)
        row.check(t.one_error_line(p, 64) and "--allow-long" in p.stderr, f"log add without --allow-long: exit {p.returncode} {p.stderr.strip()[:200]!r}")
        p = t.focus(db, *args, "--allow-long", now=NOW)
        if row.check(p.returncode == 0 and "error" not in p.stderr, f"log add --allow-long: exit {p.returncode} {p.stderr.strip()[:200]!r}"):
            sessions.append({"task": "Task 1", "subtask": None, "start": start, "end": end, "status": "completed", "focused_seconds": length})
        first, last = window(rng)
        report = check_stats(t, row, db, sessions, zone, first, last, "after log add")

        # export, then import into a fresh database: the same report.
        out = os.path.join(t.tmp, f"long-{case}-export.jsonl")
        p = t.focus(db, "export", now=NOW)
        if row.check(p.returncode == 0, f"export: exit {p.returncode} {p.stderr.strip()[:200]!r}"):
            with open(out, "w") as f:
                f.write(p.stdout)
            fresh = t.new_db(f"long-{case}-copy")
            q = t.focus(fresh, "import", out, now=NOW)
            row.check(q.returncode == 0, f"import of the export: exit {q.returncode} {q.stderr.strip()[:200]!r}")
            if report is not None:
                a = t.focus(db, "stats", "--json", "--from", first.isoformat(), "--to", last.isoformat(), "--tz", zone, now=NOW)
                b = t.focus(fresh, "stats", "--json", "--from", first.isoformat(), "--to", last.isoformat(), "--tz", zone, now=NOW)
                row.check(a.stdout == b.stdout, "stats of the export imported elsewhere differ")
            t.integrity(fresh, row, "exported copy")

        # More than 31 days: the whole file refused with its line, nothing written.
        bad = random_history(rng, rng.randint(2, 6))
        victim = rng.randrange(len(bad))
        bad[victim]["start"] = bad[victim]["end"] - rng.randint(31 * DAY + 1, 400 * DAY)
        bad[victim]["focused_seconds"] = 0
        path, lines = write_file(t, rng, f"long-{case}-bad", bad, zone)
        before = t.sql(db, "SELECT count(*), ifnull(sum(loggedSeconds), 0) FROM task")
        before_log = t.sql(db, "SELECT count(*) FROM timeLog")
        p = t.focus(db, "import", path, now=NOW)
        row.check(t.one_error_line(p, 65) and f"{path}:{lines[victim]}:" in p.stderr and "more than 31 days" in p.stderr,
                  f"over 31 days at line {lines[victim]}: exit {p.returncode} {p.stderr.strip()[:200]!r}")
        row.check(t.sql(db, "SELECT count(*) FROM timeLog") == before_log
                  and t.sql(db, "SELECT count(*), ifnull(sum(loggedSeconds), 0) FROM task") == before,
                  "a refused file wrote something")
        t.integrity(db, row, "after long sessions")
