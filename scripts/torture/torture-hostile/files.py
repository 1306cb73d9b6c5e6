"""Files that are not what they seem, and standard output that cannot be written.

Every run makes new cases from t.rng:
- input files (import, restore, calendar import) that are missing, a directory, a FIFO, a socket,
  a device, a dangling link, a link to a FIFO or directory, or unreadable (as `nobody`): 66, or
  74 when unreadable; one `focus: error:` line naming the path; nothing blocks;
- output files (backup --force, export --output, report --html, calendar export) that are a
  directory, FIFO, socket, device or a link to one: 74 and the thing left as it was; a new name
  or a dangling link: a new regular file, nothing created where the link pointed;
- standard output on /dev/full, closed, or a pipe whose reader has gone: 74 (one line, none for
  the broken pipe) from commands printing through every path (results, help, HTML, calendar);
- --db / FOCUS_DB names SQLite would read as URIs (file:..., :memory:, ?mode=memory): a file
  of exactly that name in the current directory, where the data stays; a --db that is not a
  regular file: 66; `daemon --install` with a control character in the path: 64, no unit;
  with $, %, quotes, backslashes or ; : a unit whose ExecStart reads back as that path;
and after all of it the database holds what it held.
"""

import os
import shutil
import socket
import stat
import subprocess
import tempfile

TIMEOUT = 20  # seconds; a FIFO that blocks a command is a failure, not a hang of the suite

ODD_NAMES = ["plain", "with space", "new\nline", "file:x", "x?mode=memory", "tab\there", "percent%n", "dollar$HOME"]


def shown(path):
    """A path as an error line shows it: line breaks and tabs become a space (README)."""
    return path.replace("\n", " ").replace("\t", " ").replace("\r", " ")


def fingerprint(path):
    """What is at `path`, without following it: type, device, and a link's target."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    target = os.readlink(path) if stat.S_ISLNK(st.st_mode) else None
    return (stat.S_IFMT(st.st_mode), st.st_rdev, st.st_ino, target)


DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7)}


def own_devices(base):
    """Copies of /dev/null, /dev/zero and /dev/full made in `base` (mknod, as root), for the cases
    where focus is asked to WRITE a device: a focus that got it wrong must replace these, never
    the system's own (as root it could rename over /dev/full). Not root: the real ones, which
    focus then has no permission to replace. None when neither is safe."""
    made = {}
    for name, (major, minor) in DEVICES.items():
        path = os.path.join(base, f"dev-{name}")
        if os.geteuid() != 0:
            made[name] = f"/dev/{name}"
            continue
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
            made[name] = path
        except OSError:
            return None
    return made


def make(kind, path, keep):
    """Makes `kind` at `path` (sockets are kept open in `keep`); returns the path."""
    if kind == "missing":
        pass
    elif kind == "directory":
        os.mkdir(path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        keep.append(s)
    elif kind.startswith("/"):
        return kind  # a device given by its path
    elif kind == "dangling":
        os.symlink(path + ".nowhere", path)
    elif kind == "link-to-fifo":
        os.mkfifo(path + ".fifo")
        os.symlink(path + ".fifo", path)
    elif kind == "link-to-directory":
        os.mkdir(path + ".d")
        os.symlink(path + ".d", path)
    else:
        raise ValueError(kind)
    return path


def run_focus(t, args, db=None, stdout=None, preexec=None, cwd=None, env=None, user=None):
    """Runs focus with the given standard output (a file object, DEVNULL, or a descriptor);
    returns (exit code, stderr) or (None, "blocked") when it did not finish."""
    cmd = [t.bin, *args] + (["--db", db] if db and args[0] != "generate-man" else [])
    if user:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]  # numeric ids
    t.processes += 1
    try:
        p = subprocess.run(cmd, stdout=stdout if stdout is not None else subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, env=t.env(env), timeout=TIMEOUT, cwd=cwd, text=True,
                           preexec_fn=preexec)
    except subprocess.TimeoutExpired:
        return None, "blocked", ""
    t.note_crash(p, args)
    return p.returncode, p.stderr or "", p.stdout or ""


def one_error(code, err, want):
    lines = [l for l in err.splitlines() if l.strip()]
    return code == want and len(lines) == 1 and lines[0].startswith("focus: error: ")


def run(t):
    rng = t.rng
    quick = t.quick
    row = t.row("hostile/files", "odd files in and out, stdout full/closed, URI --db")
    base = os.path.join(t.tmp, "hostile-files")
    os.makedirs(base, exist_ok=True)
    keep = []
    db = t.new_db("hostile-files-db")
    history = os.path.join(base, "seed.jsonl")
    t.make_history(history, 2500)  # an export of several chunks: the failure comes mid-way
    code, err, _ = run_focus(t, ["import", history], db=db)
    row.check(code == 0, f"seed import: {err.strip()}")
    backup = os.path.join(base, "good-backup.sqlite")
    code, err, _ = run_focus(t, ["backup", backup], db=db)
    row.check(code == 0, f"seed backup: {err.strip()}")
    before = run_focus(t, ["export"], db=db)[2]
    devices = own_devices(base)
    written_devices = list(devices.values()) if devices else []
    if not devices:
        row.notes.append("devices not tried as outputs: mknod refused")
    n = 0

    def fresh(name):
        nonlocal n
        n += 1
        d = os.path.join(base, f"case-{n}")
        os.makedirs(d)
        return os.path.join(d, name)

    # ---- input files: 66 (or 74 unreadable), one line naming the path, never blocking --------
    readers = [(["import"], ".jsonl"), (["import"], ".csv"), (["import", "--format", "timewarrior"], ".json"),
               (["restore"], ".sqlite"), (["calendar", "import"], ".ics")]
    in_kinds = ["missing", "directory", "fifo", "socket", "/dev/null", "/dev/zero", "/dev/full", "dangling",
                "link-to-fifo", "link-to-directory"]
    for _ in range(10 if quick else 30):
        command, ext = rng.choice(readers)
        kind = rng.choice(in_kinds)
        path = make(kind, fresh(rng.choice(ODD_NAMES) + ext), keep)
        was = fingerprint(path)
        row.runs += 1
        code, err, out = run_focus(t, command + [path], db=db)
        what = f"{' '.join(command)} {kind} {path!r}"
        if not row.check(code is not None, f"{what}: blocked for {TIMEOUT} s"):
            continue
        row.check(one_error(code, err, 66), f"{what}: expected exit 66 and one error line, got {code} {err.strip()!r}")
        row.check(shown(path) in err, f"{what}: the error does not name the path: {err.strip()!r}")
        row.check(out == "", f"{what}: printed {out!r}")
        row.check(fingerprint(path) == was, f"{what}: the {kind} was changed")

    # Unreadable (as nobody): 74. Needs root for setpriv and a directory nobody can reach.
    if os.geteuid() == 0 and shutil.which("setpriv"):
        open_dir = tempfile.mkdtemp(prefix="focus-torture-open-")
        os.chmod(open_dir, 0o777)
        try:
            cfg = os.path.join(open_dir, "config")
            os.makedirs(os.path.join(cfg, "focus"))
            for path_ in (cfg, os.path.join(cfg, "focus")):
                os.chmod(path_, 0o755)
            for _ in range(2 if quick else 6):
                command, ext = rng.choice(readers)
                secret = os.path.join(open_dir, f"secret-{rng.randrange(1 << 30)}{ext}")
                with open(secret, "w") as f:
                    f.write("{}\n")
                os.chmod(secret, 0o600)
                row.runs += 1
                code, err, _ = run_focus(t, command + [secret], db=os.path.join(open_dir, "nobody.sqlite"), user="65534",
                                         env={"XDG_CONFIG_HOME": cfg, "HOME": open_dir})
                row.check(one_error(code, err, 74) and "permission denied" in err,
                          f"{' '.join(command)} unreadable: expected 74 'permission denied', got {code} {err.strip()!r}")
        finally:
            shutil.rmtree(open_dir, ignore_errors=True)
    else:
        row.notes.append("unreadable input not tried: needs root and setpriv")

    # ---- output files: only regular files replaced, never written through ---------------------
    writers = [lambda p: ["backup", p, "--force"], lambda p: ["export", "--output", p],
               lambda p: ["report", "--html", p, "--last", "7"], lambda p: ["calendar", "export", p]]
    refused = ["directory", "fifo", "socket", "link-to-fifo", "link-to-directory"] + written_devices
    for _ in range(10 if quick else 30):
        make_args = rng.choice(writers)
        kind = rng.choice(refused + ["missing", "dangling"])
        ext = rng.choice([".sqlite", ".jsonl", ".csv", ".html", ".ics", ""])
        path = make(kind, fresh(rng.choice(ODD_NAMES) + ext), keep)
        was = fingerprint(path)
        args = make_args(path)
        what = f"{args[0]} into {kind} {path!r}"
        row.runs += 1
        # Standard output is a pipe here, never the device named.
        code, err, out = run_focus(t, args, db=db)
        if not row.check(code is not None, f"{what}: blocked for {TIMEOUT} s"):
            continue
        if kind in refused:
            row.check(one_error(code, err, 74), f"{what}: expected exit 74 and one error line, got {code} {err.strip()!r}")
            row.check(shown(path) in err, f"{what}: the error does not name the path: {err.strip()!r}")
            row.check(fingerprint(path) == was, f"{what}: the {kind} was replaced or changed")
        else:
            row.check(code == 0, f"{what}: expected success, got {code} {err.strip()!r}")
            st = os.lstat(path) if os.path.lexists(path) else None
            row.check(st is not None and stat.S_ISREG(st.st_mode), f"{what}: no regular file at the path")
            if kind == "dangling":
                row.check(not os.path.lexists(path + ".nowhere"), f"{what}: written through the dangling link")
        leftovers = [f for f in os.listdir(os.path.dirname(path)) if "focus-tmp" in f]
        row.check(not leftovers, f"{what}: temporary files left: {leftovers}")

    # ---- standard output that cannot be written -------------------------------------------------
    printers = [["export"], ["export", "--format", "csv"], ["export", "--output", "-"], ["log"], ["log", "--json"],
                ["stats", "--last", "30"], ["stats", "--last", "7", "--json"], ["task", "list"], ["task", "list", "--json"],
                ["--help"], ["task", "--help"], ["--version"], ["report", "--html", "-", "--last", "7"],
                ["calendar", "export", "-"], ["agenda"], ["config"], ["generate-man"], ["task", "add", "Printed"]]
    for _ in range(8 if quick else 24):
        args = rng.choice(printers)
        if args[-1] == "Printed":
            args = args[:-1] + [f"Printed {rng.randrange(1 << 30)}"]
        how = rng.choice(["full", "closed", "broken-pipe"])
        what = f"{' '.join(args)} with standard output {how}"
        row.runs += 1
        if how == "full":
            with open("/dev/full", "w") as full:
                code, err, _ = run_focus(t, args, db=db, stdout=full)
            want = "cannot write to standard output: No space left on device"
        elif how == "closed":
            code, err, _ = run_focus(t, args, db=db, stdout=subprocess.DEVNULL, preexec=lambda: os.close(1))
            want = "cannot write to standard output: it is closed"
        else:
            r, w = os.pipe()
            os.close(r)
            try:
                code, err, _ = run_focus(t, args, db=db, stdout=w)
            finally:
                os.close(w)
            want = None
        if not row.check(code is not None, f"{what}: blocked for {TIMEOUT} s"):
            continue
        if want:
            row.check(one_error(code, err, 74) and want in err, f"{what}: expected 74 and {want!r}, got {code} {err.strip()!r}")
        else:
            row.check(code == 74 and err.strip() == "", f"{what}: expected a quiet 74, got {code} {err.strip()!r}")

    # ---- --db and FOCUS_DB are plain file paths -----------------------------------------------
    uri_names = ["file:x?mode=memory", ":memory:", "file:rel.sqlite", "file:sub/db.sqlite?mode=ro", "x?mode=memory",
                 "with space.sqlite", "file:new\nline"]
    for _ in range(3 if quick else 8):
        name = rng.choice(uri_names)
        cwd = os.path.dirname(fresh("cwd"))
        title = f"Kept {rng.randrange(1 << 20)}"
        via_env = rng.random() < 0.5
        row.runs += 1
        if via_env:
            code, err, _ = run_focus(t, ["task", "add", title], cwd=cwd, env={"FOCUS_DB": name})
        else:
            code, err, _ = run_focus(t, ["task", "add", title], db=name, cwd=cwd)
        what = f"{'FOCUS_DB' if via_env else '--db'} {name!r}"
        row.check(code == 0, f"{what}: task add: {code} {err.strip()!r}")
        code, err, out = run_focus(t, ["task", "list"], db=name, cwd=cwd)
        row.check(code == 0 and title in out, f"{what}: the task is gone: {code} {out!r} {err.strip()!r}")
        target = os.path.join(cwd, name)
        row.check(os.path.isfile(target), f"{what}: no file named exactly that in the current directory")
    for _ in range(2 if quick else 6):
        kind = rng.choice(["directory", "fifo", "socket", "link-to-fifo"] + written_devices)
        path = make(kind, fresh("db.sqlite"), keep)
        was = fingerprint(path)
        args = rng.choice([["task", "add", "X"], ["status"], ["restore", backup], ["stats"], ["daemon"]])
        row.runs += 1
        code, err, _ = run_focus(t, args, db=path)
        what = f"--db {kind} for {' '.join(args)}"
        if not row.check(code is not None, f"{what}: blocked for {TIMEOUT} s"):
            continue
        row.check(one_error(code, err, 66), f"{what}: expected 66 and one error line, got {code} {err.strip()!r}")
        row.check(fingerprint(path) == was, f"{what}: the {kind} was changed")

    # ---- daemon --install: values escaped for systemd, control characters refused -------------
    for _ in range(2 if quick else 6):
        config_home = os.path.dirname(fresh("xdg"))
        unit = os.path.join(config_home, "systemd", "user", "focus.service")
        hostile = rng.random() < 0.5
        if hostile:
            name = "/tmp/x" + rng.choice(["\n", "\r", "\t", "\x1b", "\x7f"]) + "ExecStart=/bin/touch " + os.path.join(base, "PWNED")
        else:
            name = "/tmp/" + "".join(rng.choice(["a", " ", "$", "%", '"', "\\", ";", "'", "$HOME", "%h", "é"]) for _ in range(8)) + ".sqlite"
        row.runs += 1
        code, err, _ = run_focus(t, ["daemon", "--install"], db=name, env={"XDG_CONFIG_HOME": config_home})
        what = f"daemon --install --db {name!r}"
        if hostile:
            row.check(one_error(code, err, 64), f"{what}: expected 64, got {code} {err.strip()!r}")
            row.check(not os.path.exists(unit), f"{what}: a unit was written")
        else:
            row.check(code == 0, f"{what}: {code} {err.strip()!r}")
            if os.path.exists(unit):
                lines = [l for l in open(unit, encoding="utf-8").read().splitlines() if l.startswith("ExecStart=")]
                words = systemd_words(lines[0][len("ExecStart="):]) if len(lines) == 1 else []
                row.check(words[1:] == ["daemon", "--db", name], f"{what}: ExecStart reads back as {words[1:]!r}")
    row.check(not os.path.exists(os.path.join(base, "PWNED")), "a unit ran a command")

    # ---- the database holds what it held -------------------------------------------------------
    after = run_focus(t, ["export"], db=db)[2]
    row.check(after == before, "the database's history changed")
    t.integrity(db, row, "after the odd files")
    for s in keep:
        s.close()


def systemd_words(line):
    """Splits an ExecStart value as systemd does (systemd.syntax(7)): double-quoted words with
    C escapes, `%%` for `%` and `$$` for `$` (specifiers and variables are otherwise errors here)."""
    words, word, i, quoted, started = [], "", 0, False, False
    while i < len(line):
        c = line[i]
        if c == "%" and line[i:i + 2] == "%%":
            word, i, started = word + "%", i + 2, True
            continue
        if c == "$" and line[i:i + 2] == "$$":
            word, i, started = word + "$", i + 2, True
            continue
        if quoted:
            if c == "\\" and i + 1 < len(line):
                word, i = word + line[i + 1], i + 2
                continue
            if c == '"':
                quoted, i = False, i + 1
                continue
            word, i = word + c, i + 1
            continue
        if c == '"':
            quoted, i, started = True, i + 1, True
            continue
        if c == " ":
            if started:
                words.append(word)
            word, i, started = "", i + 1, False
            continue
        word, i, started = word + c, i + 1, True
    if started:
        words.append(word)
    return words
