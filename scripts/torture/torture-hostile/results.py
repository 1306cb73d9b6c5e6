"""Wrong results: inputs that used to be accepted and then gave wrong answers.

Every seed makes new cases of each rule:
- titles that look like ids (`#N`, ` #12`, `#0012`, `#+7`) are refused by `task add`,
  `task edit --title` and `import` (with the line, nothing written);
- a title typed composed or decomposed (NFC / NFD) is one task, stored in NFC, found by a
  prefix in either spelling, and an import in the other spelling adds to it;
- a session that ends after now is refused by `log add`, `log edit` and `import` (with its line,
  all or nothing), and accepted with `--allow-future`;
- a hand-edited config is judged whole: working hours in order are accepted whatever the order
  of their lines, out of order refused naming the file;
- a negative value after an option is said to be negative (exit 64), never "Missing value".
"""
import json
import os
import unicodedata

NOW = "2026-11-23T07:30:00+01:00"     # 06:30Z
NOW_EPOCH = 1795415400                 # 2026-11-23T06:30:00Z

# Letters with a canonical decomposition (so NFC and NFD differ), and plain ones.
ACCENTED = "éèêëáàâäåíìîïóòôöúùûüñçÉÀÅÖÜŃǅẞḉṩ가각한글"
PLAIN = "abcdefghijklmnopqrstuvwxyz "


def iso(epoch):
    import datetime
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def idlike(rng):
    n = rng.randint(0, 99999)
    return rng.choice([f"#{n}", f" #{n}", f"#{n} ", f"#{n:05d}", f"#+{n}", f"#00{n}"])


def word(rng):
    letters = [rng.choice(ACCENTED if rng.random() < 0.5 else PLAIN.strip()) for _ in range(rng.randint(2, 8))]
    letters[0] = rng.choice(ACCENTED)
    return "".join(letters)


def run(t):
    rng = t.rng
    cases = 4 if t.quick else 12
    ids(t, rng, cases)
    unicode_titles(t, rng, cases)
    future(t, rng, cases)
    config_order(t, rng, cases)
    negatives(t, rng, cases)


def task_titles(t, db):
    out = t.sql(db, "SELECT title FROM task ORDER BY id")
    return out.split("\n") if out else []


def ids(t, rng, cases):
    row = t.row("hostile/results-ids", "titles like #12, #0012, ' #7' refused by task add, edit and import")
    db = t.new_db("results-ids")
    t.focus(db, "task", "add", "Keep")
    for _ in range(cases):
        row.runs += 1
        title = idlike(rng)
        p = t.focus(db, "task", "add", title, now=NOW)
        row.check(t.one_error_line(p, 64), f"task add {title!r}: exit {p.returncode} {p.stderr.strip()!r}")
        p = t.focus(db, "task", "edit", "Keep", "--title", title, now=NOW)
        row.check(t.one_error_line(p, 64), f"task edit --title {title!r}: exit {p.returncode} {p.stderr.strip()!r}")
        sub = rng.choice([None, "Part"])
        lines = []
        bad = rng.randint(1, 4)
        for i in range(1, 5):
            start = NOW_EPOCH - 86400 * 3 + i * 3600
            task = title if i == bad else f"Other {rng.randint(0, 9)}"
            lines.append(json.dumps({"task": task, "subtask": sub, "start": iso(start), "end": iso(start + 1500),
                                     "status": "completed"}))
        path = os.path.join(t.tmp, "results-ids.jsonl")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        before = t.sql(db, "SELECT count(*) FROM timeLog")
        p = t.focus(db, "import", path, now=NOW)
        row.check(t.one_error_line(p, 65) and f":{bad}:" in p.stderr,
                  f"import with {title!r} on line {bad}: exit {p.returncode} {p.stderr.strip()!r}")
        row.check(t.sql(db, "SELECT count(*) FROM timeLog") == before, "a refused import wrote sessions")
    row.check(task_titles(t, db) == ["Keep"], f"tasks now {task_titles(t, db)!r}")
    t.integrity(db, row, "after id-like titles")


def unicode_titles(t, rng, cases):
    row = t.row("hostile/results-nfc", "composed and decomposed spellings are one task, stored in NFC")
    db = t.new_db("results-nfc")
    seen = set()
    for _ in range(cases):
        title = word(rng)
        nfc = unicodedata.normalize("NFC", title).strip()
        if nfc.lower() in seen or nfc.startswith("#"):
            continue
        seen.add(nfc.lower())
        row.runs += 1
        first, second = rng.sample(["NFC", "NFD"], 2)
        p = t.focus(db, "task", "add", unicodedata.normalize(first, title), now=NOW)
        if not row.check(p.returncode == 0, f"task add {title!r} ({first}): {p.stderr.strip()!r}"):
            continue
        p = t.focus(db, "task", "add", unicodedata.normalize(second, title), now=NOW)
        row.check(t.one_error_line(p, 64) and "already exists" in p.stderr,
                  f"task add {title!r} again in {second}: exit {p.returncode} {p.stderr.strip()!r}")
        stored = t.sql(db, f"SELECT title FROM task WHERE id = (SELECT max(id) FROM task)")
        row.check(stored == nfc, f"stored {stored!r} (not NFC of {title!r})")
        prefix = unicodedata.normalize(second, nfc[:rng.randint(1, len(nfc))])
        p = t.focus(db, "task", "show", nfc if len(seen) > 1 and rng.random() < 0.5 else prefix, "--json", now=NOW)
        row.check(p.returncode in (0, 64), f"task show {prefix!r}: exit {p.returncode}")
        p = t.focus(db, "task", "show", unicodedata.normalize(second, nfc), "--json", now=NOW)
        row.check(p.returncode == 0, f"task show in {second}: exit {p.returncode} {p.stderr.strip()!r}")
        path = os.path.join(t.tmp, "results-nfc.jsonl")
        start = NOW_EPOCH - 7200 - rng.randint(0, 86400 * 5)
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"task": unicodedata.normalize(second, title), "start": iso(start), "end": iso(start + 600),
                                "status": "completed"}, ensure_ascii=rng.random() < 0.5) + "\n")
        tasks_before = len(task_titles(t, db))
        p = t.focus(db, "import", path, now=NOW)
        row.check(p.returncode == 0 and "created 0 tasks" in p.stdout,
                  f"import in {second}: exit {p.returncode} {p.stdout.strip()!r} {p.stderr.strip()!r}")
        row.check(len(task_titles(t, db)) == tasks_before, "the import made a second task")
    titles = task_titles(t, db)
    row.check(all(unicodedata.normalize("NFC", x) == x for x in titles), f"titles not in NFC: {titles!r}")
    t.integrity(db, row, "after NFC titles")


def future(t, rng, cases):
    row = t.row("hostile/results-future", "sessions ending after now refused (log add/edit, import) unless --allow-future")
    db = t.new_db("results-future")
    t.focus(db, "task", "add", "Thesis/Chapter")
    p = t.focus(db, "log", "add", "Thesis/Chapter", "--start", "2026-11-23 06:00", "--duration", "20m", now=NOW)
    row.check(p.returncode == 0, f"a past session: {p.stderr.strip()!r}")
    for _ in range(cases):
        row.runs += 1
        ahead = rng.choice([60, 600, 3 * 3600, 86400 * 30, 86400 * 365 * 70])
        length = rng.randint(1, 120) * 60
        end = NOW_EPOCH + ahead
        start = end - length
        count = t.sql(db, "SELECT count(*) FROM timeLog")
        p = t.focus(db, "log", "add", "Thesis/Chapter", "--start", iso(start), "--duration", f"{length // 60}m", now=NOW)
        row.check(t.one_error_line(p, 64) and "--allow-future" in p.stderr,
                  f"log add ending {ahead}s ahead: exit {p.returncode} {p.stderr.strip()!r}")
        p = t.focus(db, "log", "edit", "1", "--end", iso(end), now=NOW)
        row.check(t.one_error_line(p, 64), f"log edit --end {ahead}s ahead: exit {p.returncode} {p.stderr.strip()!r}")
        lines, bad = [], rng.randint(1, 5)
        for i in range(1, 6):
            s = start if i == bad else NOW_EPOCH - 86400 * 2 - i * 3600 - rng.randint(0, 1000)
            lines.append(json.dumps({"task": "Imported", "start": iso(s), "end": iso(s + length), "status": "completed"}))
        path = os.path.join(t.tmp, "results-future.jsonl")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        p = t.focus(db, "import", path, now=NOW)
        row.check(t.one_error_line(p, 65) and f":{bad}:" in p.stderr,
                  f"import with a future line {bad}: exit {p.returncode} {p.stderr.strip()!r}")
        row.check(t.sql(db, "SELECT count(*) FROM timeLog") == count, "a refused future session was written")
        stats = t.focus(db, "stats", "--last", "1", "--json", now=NOW)
        if row.check(stats.returncode == 0, f"stats: {stats.stderr.strip()!r}"):
            total = json.loads(stats.stdout)["totals"]["focused_seconds"]
            logged = int(t.sql(db, f"SELECT coalesce(sum(focusedSeconds), 0) FROM timeLog WHERE endedAt <= {NOW_EPOCH}"))
            row.check(total <= logged, f"today counts {total}s, more than the {logged}s that ended by now")
    p = t.focus(db, "log", "add", "Thesis/Chapter", "--start", iso(NOW_EPOCH + 3600), "--duration", "10m",
                "--allow-future", now=NOW)
    row.check(p.returncode == 0, f"--allow-future: exit {p.returncode} {p.stderr.strip()!r}")
    t.integrity(db, row, "after future sessions")


def config_order(t, rng, cases):
    row = t.row("hostile/results-config", "config judged whole: working hours in any line order")
    home = os.path.join(t.tmp, "results-config-home")
    os.makedirs(os.path.join(home, "focus"), exist_ok=True)
    path = os.path.join(home, "focus", "config.toml")
    db = t.new_db("results-config")
    for _ in range(cases):
        row.runs += 1
        a, b = sorted(rng.sample(range(0, 24 * 60, 15), 2))
        start, end = f"{a // 60:02d}:{a % 60:02d}", f"{b // 60:02d}:{b % 60:02d}"
        others = ["notifications = false", "bell = false", f"work = {rng.randint(5, 90)}m", "# a comment", ""]
        lines = [f'day_start = "{start}"', f"day_end = {end}"] + rng.sample(others, rng.randint(0, len(others)))
        rng.shuffle(lines)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        p = t.focus(db, "config", "get", "day_start", env={"XDG_CONFIG_HOME": home})
        row.check(p.returncode == 0 and p.stdout.strip() == start,
                  f"{lines!r}: exit {p.returncode} {p.stdout.strip()!r} {p.stderr.strip()!r}")
        swapped = [l.replace(start, "@").replace(end, start).replace("@", end) if l.startswith("day_") else l for l in lines]
        with open(path, "w") as f:
            f.write("\n".join(swapped) + "\n")
        p = t.focus(db, "config", "get", "day_end", env={"XDG_CONFIG_HOME": home})
        row.check(t.one_error_line(p, 65) and "config.toml:" in p.stderr,
                  f"{swapped!r}: exit {p.returncode} {p.stderr.strip()!r}")
        # `config set` from an empty file: one key at a time, in the order that makes room.
        os.unlink(path)
        # The order that makes room against the defaults (09:00-17:00): a start at or after 17:00
        # needs its end first, an end at or before 09:00 its start first.
        first, second = (("day_end", end), ("day_start", start)) if a >= 17 * 60 else (("day_start", start), ("day_end", end))
        for key, value in (first, second):
            p = t.focus(db, "config", "set", key, value, env={"XDG_CONFIG_HOME": home})
            row.check(p.returncode == 0, f"config set {key} {value}: exit {p.returncode} {p.stderr.strip()!r}")
        p = t.focus(db, "config", "get", "day_end", env={"XDG_CONFIG_HOME": home})
        row.check(p.returncode == 0 and p.stdout.strip() == end, f"after config set: {p.stdout.strip()!r} {p.stderr.strip()!r}")


def negatives(t, rng, cases):
    row = t.row("hostile/results-negative", "a negative option value is said to be negative (64)")
    db = t.new_db("results-negative")
    commands = [["task", "add", "T/s", "--estimate"], ["log", "--last"], ["stats", "--last"],
                ["start", "T", "--duration"], ["log", "add", "T", "--start", "07:00", "--duration"]]
    for _ in range(cases):
        row.runs += 1
        cmd = rng.choice(commands)
        value = "-" + rng.choice([str(rng.randint(1, 999)), f"{rng.randint(1, 99)}m", f"{rng.randint(1, 9)}.5h", ".5"])
        p = t.focus(db, *cmd, value, now=NOW)
        row.check(t.one_error_line(p, 64) and "negative" in p.stderr and "Missing value" not in p.stderr,
                  f"{' '.join(cmd)} {value}: exit {p.returncode} {p.stderr.strip()!r}")
