"""Liveness: a pid stored in the running-session row proves nothing.

Strangers' pids (a live `sleep`, pid 1, this very script, a pid already reaped, a zombie held
unreaped) are written into the running-session row — of a session that really runs, or of one
whose process is gone (killed, or a row written by hand) — and random commands follow (status,
status --json, stop, pause, resume, start, task rm). What must hold:

- no stranger is ever signalled: the sleep runs on (not stopped), this script gets no SIGUSR1 or
  SIGCONT, the zombie stays a zombie;
- a row whose process is gone is recovered by the first command (recorded as interrupted, said on
  standard error) and every command after sees no session;
- a session that runs is seen, paused, resumed and stopped through the process holding the
  session lock, and its task cannot be deleted under it;
- exit codes as documented: 0, or 69 with one `focus: error:` line (no session, a session already
  running, already being stopped, a task a running session records).

Plus concurrent `focus stop --reason`s on one running session: exactly one wins (exit 0) and its
reason is kept; the others exit 69 with one error line; the session is recorded once. Sometimes
the session is killed meanwhile: then at most one wins and the session is still recorded once.
"""

import json
import os
import signal
import subprocess
import threading
import time

TASKS = ("Live/One", "Live/Two", "Temp")


def sql(db, query):
    p = subprocess.run(["sqlite3", "-batch", "-noheader", "-cmd", ".timeout 5000", db, query],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"sqlite3 {query!r}: {p.stderr.strip()}")
    return p.stdout.strip()


def proc_state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
        return text[text.rindex(")") + 2]
    except (OSError, ValueError, IndexError):
        return None


def error_lines(p):
    return [l for l in (p.stderr or "").splitlines() if l.startswith("focus: error: ")]


def refusal(p, code=69):
    """Exit `code`, exactly one `focus: error:` line, and it is the last line."""
    lines = [l for l in (p.stderr or "").splitlines() if l.strip()]
    return p.returncode == code and len(error_lines(p)) == 1 and lines and lines[-1].startswith("focus: error: ")


class Stranger:
    """A process that is not focus's session, put into the row; `untouched()` says it got no signal."""

    def __init__(self, t, kind, received):
        self.kind, self.received = kind, received
        self.pid, self.spawned = None, False
        if kind == "sleep":
            self.pid = os.posix_spawn("/bin/sleep", ["sleep", "60"], dict(os.environ))
            self.spawned = True
        elif kind == "pid 1":
            self.pid = 1
        elif kind == "own pid":
            self.pid = os.getpid()
        elif kind == "reaped pid":
            pid = os.posix_spawn("/bin/true", ["true"], dict(os.environ))
            os.waitpid(pid, 0)
            self.pid = pid
        elif kind == "zombie":
            self.pid = os.posix_spawn("/bin/true", ["true"], dict(os.environ))
            self.spawned = True
            deadline = time.monotonic() + 5
            while proc_state(self.pid) != "Z" and time.monotonic() < deadline:
                time.sleep(0.01)

    def untouched(self):
        if self.kind == "sleep":
            return proc_state(self.pid) in ("S", "R", "D")
        if self.kind == "own pid":
            return not self.received
        if self.kind == "zombie":
            return proc_state(self.pid) == "Z"
        if self.kind == "pid 1":
            return proc_state(1) is not None
        return True

    def close(self):
        if self.spawned:
            if self.kind == "sleep":
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass


def start_session(t, db, row, what, duration="10m"):
    """`focus start` in the background; returns it once it says work started (None if it did not)."""
    proc = t.spawn(db, "start", "Live/One", "--duration", duration)
    first = proc.stdout.readline()
    if not row.check("work started" in first, f"{what}: the session did not start: {first!r}"):
        proc.kill()
        proc.communicate()
        return None
    # Keep draining its output so it never blocks on a full pipe.
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    return proc


def finish(proc):
    try:
        return proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return proc.wait()


def ensure_tasks(t, db):
    for path in TASKS:
        t.focus(db, "task", "add", path)


def logs(db):
    return int(sql(db, "SELECT count(*) FROM timeLog"))


def stranger_case(t, row, db, i, received):
    kind = t.rng.choice(["sleep", "pid 1", "own pid", "reaped pid", "zombie"])
    running = t.rng.random() < 0.5
    how = "running" if running else t.rng.choice(["killed", "hand-written"])
    what = f"case {i} ({kind} in a {how} session)"
    ensure_tasks(t, db)
    stranger = Stranger(t, kind, received)
    proc = None
    try:
        if running or how == "killed":
            proc = start_session(t, db, row, what)
            if proc is None:
                return
            if how == "killed":
                os.killpg(proc.pid, signal.SIGKILL)
                finish(proc)
                proc = None
        else:
            now = int(time.time())
            focused = t.rng.randint(0, 30)
            state = t.rng.choice(["running", "paused"])
            task = sql(db, "SELECT id FROM task WHERE title = 'Live'")
            sub = sql(db, "SELECT id FROM subtask WHERE title = 'One'")
            sql(db, "INSERT INTO activeSession (id, pid, taskId, subtaskId, phase, state, cycle, cycles, workStartedAt, "
                    "phaseStartedAt, plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt) "
                    f"VALUES (1, {stranger.pid}, {task}, {sub}, 'work', '{state}', 1, 4, {now - 40}, {now - 40}, 1500, 1500, "
                    f"{focused}, {1500 - focused}, {now + 1460}, {now - 40 + focused})")
        sql(db, f"UPDATE activeSession SET pid = {stranger.pid}")
        before = logs(db)
        commands = [t.rng.choice([["status"], ["status", "--json"], ["stop"], ["stop", "--reason", f"r{i}"], ["pause"],
                                  ["resume"], ["start", "Live/Two", "--duration", "1s", "--no-break"],
                                  ["task", "rm", t.rng.choice(["Live", "Live/One"]), "--force"]])
                    for _ in range(t.rng.randint(1, 4))]
        alive = running
        for n, args in enumerate(commands):
            p = t.focus(db, *args)
            row.runs += 1
            said = f"{what}: `focus {' '.join(args)}` (command {n + 1})"
            if alive:
                if args[0] == "status":
                    row.check(p.returncode == 0 and "idle" not in p.stdout, f"{said}: a running session shows idle: {p.stdout.strip()!r}")
                    if args[-1] == "--json":
                        shown = json.loads(p.stdout or "{}").get("pid")
                        row.check(shown == proc.pid, f"{said}: status names pid {shown}, not the session's {proc.pid}")
                elif args[0] in ("pause", "resume"):
                    row.check(p.returncode == 0, f"{said}: {p.returncode} {p.stderr.strip()!r}")
                elif args[0] == "stop":
                    row.check(p.returncode == 0, f"{said}: {p.returncode} {p.stderr.strip()!r}")
                    code = finish(proc)
                    row.check(code == 0, f"{said}: the stopped session exited {code}")
                    row.check(logs(db) == before + 1, f"{said}: the stopped session is not recorded once")
                    proc, alive = None, False
                elif args[0] == "start":
                    row.check(refusal(p), f"{said}: a second session was not refused: {p.returncode} {p.stderr.strip()!r}")
                else:
                    row.check(refusal(p), f"{said}: deleted under a running session: {p.returncode} {p.stderr.strip()!r}")
                    row.check(sql(db, "SELECT count(*) FROM subtask WHERE title = 'One'") == "1", f"{said}: the subtask is gone")
            else:
                # The session's process is gone (or was stopped by an earlier command).
                if args[0] == "status":
                    idle = p.stdout.strip() in ("idle", json.dumps({"state": "idle"}))
                    row.check(p.returncode == 0 and idle, f"{said}: a gone session still shows: {p.returncode} {p.stdout.strip()!r}")
                elif args[0] in ("stop", "pause", "resume"):
                    row.check(refusal(p), f"{said}: expected 69 and one error line: {p.returncode} {p.stderr.strip()!r}")
                else:
                    row.check(p.returncode == 0, f"{said}: expected 0: {p.returncode} {p.stderr.strip()!r}")
                if n == 0 and not running:
                    row.check("ended unexpectedly" in p.stderr, f"{said}: the gone session was not recovered: {p.stderr.strip()!r}")
                    if args[0] != "task":
                        row.check(logs(db) == before + 1 + (1 if args[0] == "start" else 0),
                                  f"{said}: the gone session was not recorded once ({logs(db) - before} new sessions)")
                else:
                    row.check("ended unexpectedly" not in p.stderr, f"{said}: recovered twice: {p.stderr.strip()!r}")
                row.check(sql(db, "SELECT count(*) FROM activeSession") == "0", f"{said}: a running-session row is left")
                if args[0] == "task":
                    ensure_tasks(t, db)
            row.check(stranger.untouched(), f"{said}: the stranger ({kind}, pid {stranger.pid}) was signalled")
        if proc is not None:
            p = t.focus(db, "stop")
            row.check(p.returncode == 0, f"{what}: the final stop: {p.returncode} {p.stderr.strip()!r}")
            code = finish(proc)
            row.check(code == 0, f"{what}: the session exited {code}")
        row.check(stranger.untouched(), f"{what}: the stranger ({kind}, pid {stranger.pid}) was signalled")
        t.integrity(db, row, what)
    finally:
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        stranger.close()


def concurrent_stops(t, row, db, i):
    ensure_tasks(t, db)
    n = t.rng.randint(2, 6)
    kill_too = t.rng.random() < 0.25
    what = f"round {i} ({n} stoppers{', the session killed meanwhile' if kill_too else ''})"
    proc = start_session(t, db, row, what)
    if proc is None:
        return
    before = logs(db)
    results = [None] * n
    go = threading.Event()

    def stopper(k):
        go.wait()
        results[k] = t.focus(db, "stop", "--reason", f"reason {i}.{k}")

    threads = [threading.Thread(target=stopper, args=(k,)) for k in range(n)]
    for th in threads:
        th.start()
    go.set()
    if kill_too:
        time.sleep(t.rng.uniform(0, 0.15))
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for th in threads:
        th.join()
    finish(proc)
    row.runs += n
    won = [k for k, p in enumerate(results) if p.returncode == 0]
    for k, p in enumerate(results):
        if p.returncode != 0:
            row.check(refusal(p), f"{what}: stopper {k}: expected 69 and one error line: {p.returncode} {p.stderr.strip()!r}")
    if kill_too:
        row.check(len(won) <= 1, f"{what}: {len(won)} stoppers say they stopped it")
    else:
        row.check(len(won) == 1, f"{what}: {len(won)} stoppers say they stopped it: "
                                 f"{[(p.returncode, p.stdout.strip(), p.stderr.strip()) for p in results]}")
    t.focus(db, "status")  # recovers a killed one
    row.check(logs(db) == before + 1, f"{what}: the session is recorded {logs(db) - before} times")
    if won and not kill_too:
        note = sql(db, "SELECT ifnull(note, '') FROM timeLog ORDER BY id DESC LIMIT 1")
        row.check(note == f"reason {i}.{won[0]}", f"{what}: the winner's reason was not kept: {note!r}")
        row.check(f"(#{sql(db, 'SELECT max(id) FROM timeLog')})" in results[won[0]].stdout,
                  f"{what}: the winner did not report the session: {results[won[0]].stdout.strip()!r}")
    t.integrity(db, row, what)


def run(t):
    row = t.row("hostile/liveness", "strangers' pids in the session row; racing stops")
    db = t.new_db("liveness")
    received = []

    def note(signo, frame):
        received.append(signo)

    old = {s: signal.signal(s, note) for s in (signal.SIGUSR1, signal.SIGCONT)}
    try:
        for i in range(8 if t.quick else 40):
            stranger_case(t, row, db, i, received)
        for i in range(4 if t.quick else 15):
            concurrent_stops(t, row, db, i)
        row.check(not received, f"focus signalled this script: {received}")
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    row.notes.append(f"{row.runs} commands against strangers' pids and racing stops")
