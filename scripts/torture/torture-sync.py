"""The sync family of scripts/torture/torture: three machines, one CalDAV server, a proxy that lies.

Model-based. Three machines (three databases, each driven by its own `focus` processes of the
binary under test) sync through one Radicale server (scripts/servers/caldav-server.py). Between them and
the server sits a fault-injecting HTTP proxy on loopback: while faults are on it drops
connections (before and after the server saw the request), delays answers, answers 5xx, answers
412 to conditional writes, and cuts answers short. Random operations run on random machines:
tasks and subtasks added, edited, renamed, done and deleted; sessions added (`log add`), edited
and deleted; the plan published; syncs at random moments, some killed with SIGKILL; and another
app edits and deletes items on the server directly (not through the proxy), and adds subtasks
to tasks there (then renames and deletes tasks that have them).

The model records every session any machine recorded (its start is unique in the run, so the
start names it everywhere) and, for every deletion, which sessions the deleter had seen then.
After the faults stop and every machine has synced until a pass changes nothing it checks:
  - every machine holds the same tasks, subtasks and sessions, and the server holds one to-do
    per task and subtask and one event per session (converged);
  - no session recorded anywhere is missing unless a deleter had seen it (lost);
  - no session is held twice anywhere, on a machine or on the server (duplicated).
The last line it prints is `sync: N operations, F faults, 3 machines converged, 0 lost, 0
duplicated` (the figures measured; fewer machines converged is a failure).
"""

import base64
import datetime as dt
import http.client
import http.server
import json
import os
import random
import signal
import socket
import subprocess
import threading
import time

USER, PASSWORD = "alice", "torture-password"
EPOCH = dt.datetime(2026, 9, 1, 6, 0, tzinfo=dt.timezone.utc)  # sessions start from here, 30 min apart
NOW = dt.datetime(2026, 11, 24, 19, 0, tzinfo=dt.timezone.utc)  # the operations' clock, a minute each
SYNC_CALENDAR, PLAN_CALENDAR = "Focus", "Plan"


# ---- the proxy ----------------------------------------------------------------------------------

class FaultyProxy:
    """An HTTP/1.1 proxy on 127.0.0.1 in front of the server. While `faulty` is set, each request
    meets a fault with probability `rate`; `faults` counts those injected, by kind."""

    KINDS = ("drop-before", "drop-after", "delay", "5xx", "412", "truncate")

    def __init__(self, upstream_port, rng, rate):
        self.upstream_port, self.rng, self.rate = upstream_port, rng, rate
        self.faulty = False
        self.faults = {}
        self.requests = 0
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one_request(self):
                try:
                    super().handle_one_request()
                except (ConnectionError, socket.timeout, OSError):
                    self.close_connection = True

            def body(self):
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    data = b""
                    while True:
                        size = int(self.rfile.readline().strip().split(b";")[0], 16)
                        if size == 0:
                            self.rfile.readline()
                            return data
                        data += self.rfile.read(size)
                        self.rfile.readline()
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def any_method(self):
                proxy.serve(self)

            do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_MKCOL = any_method
            do_POST = do_HEAD = do_OPTIONS = do_PROPPATCH = do_MOVE = do_COPY = any_method

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def pick(self, method, headers):
        with self.lock:
            self.requests += 1
            if not self.faulty or self.rng.random() >= self.rate:
                return None
            kinds = [k for k in self.KINDS if k != "412" or (method in ("PUT", "DELETE") and "If-Match" in headers)]
            kind = self.rng.choice(kinds)
            self.faults[kind] = self.faults.get(kind, 0) + 1
            return kind, self.rng.uniform(0.2, 1.2)

    def serve(self, h):
        body = h.body()
        fault = self.pick(h.command, h.headers)
        kind = fault[0] if fault else None
        if kind == "drop-before":
            h.close_connection = True
            return
        if kind in ("5xx", "412"):
            code = 412 if kind == "412" else self.rng.choice((500, 502, 503))
            h.send_response(code)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        if kind == "delay":
            time.sleep(fault[1])
        headers = {k: v for k, v in h.headers.items()
                   if k.lower() not in ("host", "connection", "transfer-encoding", "content-length", "proxy-connection")}
        upstream = http.client.HTTPConnection("127.0.0.1", self.upstream_port, timeout=30)
        try:
            upstream.request(h.command, h.path, body=body if body or h.command in ("PUT", "POST") else None, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
        finally:
            upstream.close()
        if kind == "drop-after":
            h.close_connection = True
            return
        h.send_response(answer.status, answer.reason)
        for k, v in answer.getheaders():
            if k.lower() not in ("connection", "transfer-encoding", "content-length", "keep-alive", "date", "server"):
                h.send_header(k, v)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        if kind == "truncate" and data:
            h.wfile.write(data[: len(data) // 2])
            h.wfile.flush()
            h.close_connection = True
            return
        h.wfile.write(data)


# ---- the server's side: what is stored, and another app ---------------------------------------

def unfold(text):
    return text.replace("\r\n ", "").replace("\r\n\t", "").replace("\n ", "").replace("\n\t", "")


def props(text, component):
    """The properties (name without parameters -> value) of the first `component` in `text`."""
    inside, found = False, {}
    for line in unfold(text).splitlines():
        if line == f"BEGIN:{component}":
            inside = True
        elif line == f"END:{component}":
            break
        elif inside and ":" in line:
            name, value = line.split(":", 1)
            found.setdefault(name.split(";")[0].upper(), value)
    return found if inside else None


def ics_seconds(value):
    """A UTC DATE-TIME (20260901T060000Z), or a DATE (20260901: the settings event is all-day), as
    Unix seconds."""
    form = "%Y%m%d" if len(value) == 8 else "%Y%m%dT%H%M%SZ"
    return int(dt.datetime.strptime(value, form).replace(tzinfo=dt.timezone.utc).timestamp())


class ServerView:
    """Radicale's collections on disk, read directly (one file per resource), and another app that
    writes through Radicale's HTTP interface (never through the proxy)."""

    def __init__(self, server_dir, port):
        self.root = os.path.join(server_dir, "collections", "collection-root", USER)
        self.port = port

    def calendar(self, name):
        if not os.path.isdir(self.root):
            return None
        for entry in sorted(os.listdir(self.root)):
            meta = os.path.join(self.root, entry, ".Radicale.props")
            if os.path.exists(meta):
                with open(meta) as f:
                    if json.load(f).get("D:displayname") == name:
                        return entry
        return None

    def items(self, name):
        """href -> text of every resource in the calendar named `name`."""
        folder = self.calendar(name)
        found = {}
        if folder is None:
            return found
        path = os.path.join(self.root, folder)
        for entry in os.listdir(path):
            if entry.endswith(".ics") or not entry.startswith("."):
                full = os.path.join(path, entry)
                if os.path.isfile(full):
                    with open(full, errors="replace") as f:
                        found[f"/{USER}/{folder}/{entry}"] = f.read()
        return found

    def request(self, method, href, body=None):
        auth = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        headers = {"Authorization": f"Basic {auth}"}
        if body is not None:
            headers["Content-Type"] = "text/calendar; charset=utf-8"
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            c.request(method, href, body=body.encode() if body is not None else None, headers=headers)
            answer = c.getresponse()
            answer.read()
            return answer.status
        finally:
            c.close()


# ---- the run ------------------------------------------------------------------------------------

class SyncFamily:
    def __init__(self, t, operations, fault_rate):
        self.t, self.rng = t, t.rng
        self.operations, self.fault_rate = operations, fault_rate
        self.row = t.row("sync-model", "3 machines, Radicale, a faulty proxy, another app")
        self.recorded = {}      # session start (Unix seconds) -> the machine that recorded it
        self.forgiven = set()   # sessions a deleter had seen when it deleted
        self.slot = 0
        self.tick = 0
        self.ops = 0
        self.killed = 0
        self.names = 0

    # running focus on a machine

    def now(self):
        self.tick += 1
        return (NOW + dt.timedelta(minutes=self.tick)).isoformat().replace("+00:00", "Z")

    def focus(self, m, *args, timeout=120):
        p = self.t.focus(self.dbs[m], *args, now=self.now(), env=self.machine_env(m), timeout=timeout)
        self.journal(f"machine {m}: focus {' '.join(args)} -> {p.returncode}\n{p.stdout}{p.stderr}")
        return p

    def machine_env(self, m):
        """Each machine has a config directory of its own (its settings, its trusted settings)."""
        return {**self.net, "XDG_CONFIG_HOME": self.configs[m]}

    def journal(self, text):
        """Every operation and its answer, kept in the run's folder (--keep) for a failure's story."""
        with open(os.path.join(self.t.tmp, "sync-model.log"), "a") as f:
            f.write(text.rstrip("\n") + "\n")

    def q(self, m, query):
        return self.t.sql(self.dbs[m], query, readonly=True)

    def paths(self, m):
        """(task, subtask or None) of every task and subtask on machine m."""
        rows = self.q(m, "SELECT t.title, ifnull(s.title, '') FROM task t LEFT JOIN subtask s ON s.taskId = t.id "
                         "UNION SELECT title, '' FROM task")
        found = []
        for line in rows.splitlines():
            task, _, sub = line.partition("|")
            found.append((task, sub or None))
        return found

    def sessions(self, m, where="1"):
        rows = self.q(m, f"SELECT l.startedAt FROM timeLog l JOIN task t ON t.id = l.taskId "
                         f"LEFT JOIN subtask s ON s.id = l.subtaskId WHERE {where}")
        return [int(x) for x in rows.split()]

    @staticmethod
    def quote(text):
        return "'" + text.replace("'", "''") + "'"

    def fresh_name(self, stem):
        self.names += 1
        return f"{stem} {self.names}"

    # the operations

    def op_add(self, m):
        tasks = sorted({p[0] for p in self.paths(m)})
        if tasks and self.rng.random() < 0.6:
            path = f"{self.rng.choice(tasks)}/{self.fresh_name('Part')}"
        else:
            path = self.fresh_name("Project") + ("" if self.rng.random() < 0.3 else f"/{self.fresh_name('Part')}")
        extra = []
        if "/" in path and self.rng.random() < 0.6:
            extra = ["--estimate", f"{self.rng.randint(1, 4)}h", "--due", "2026-12-18", "--force"]
        self.focus(m, "task", "add", path, *extra)

    def op_edit(self, m):
        paths = self.paths(m)
        if not paths:
            return
        task, sub = self.rng.choice(paths)
        path = f"{task}/{sub}" if sub else task
        kind = self.rng.random()
        if kind < 0.4:
            args = ["--title", self.fresh_name("Renamed")]
        elif kind < 0.7 or not sub:
            args = ["--notes", f"note {self.rng.randint(0, 999)}"]
        else:
            args = self.rng.choice([["--estimate", f"{self.rng.randint(1, 6)}h"], ["--span", f"{self.rng.randint(2, 9)}0m"],
                                    ["--earliest", f"{self.rng.randint(8, 15)}:00"], ["--priority", self.rng.choice(["high", "low"])]])
            args += ["--force"]
        self.focus(m, "task", "edit", path, *args)

    def op_done(self, m):
        subs = [p for p in self.paths(m) if p[1]]
        if subs:
            task, sub = self.rng.choice(subs)
            self.focus(m, "task", "done", f"{task}/{sub}", "--force")

    def op_rm(self, m):
        paths = self.paths(m)
        if not paths:
            return
        task, sub = self.rng.choice(paths)
        where = f"t.title = {self.quote(task)}" + (f" AND s.title = {self.quote(sub)}" if sub else "")
        seen = self.sessions(m, where)
        p = self.focus(m, "task", "rm", f"{task}/{sub}" if sub else task, "--force")
        if p.returncode == 0:
            self.forgiven.update(seen)

    def op_log_add(self, m):
        paths = self.paths(m)
        if not paths:
            return
        task, sub = self.rng.choice(paths)
        start = EPOCH + dt.timedelta(minutes=30 * self.slot)
        self.slot += 1
        local = start.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        p = self.focus(m, "log", "add", f"{task}/{sub}" if sub else task, "--start", local,
                       "--duration", f"{self.rng.randint(5, 25)}m")
        if self.row.check(p.returncode == 0, f"log add on machine {m}: {p.stderr.strip()}"):
            self.recorded[int(start.timestamp())] = m

    def op_log_edit(self, m):
        rows = self.q(m, "SELECT id FROM timeLog").split()
        if rows:
            args = ["--note", f"edited {self.rng.randint(0, 999)}"] if self.rng.random() < 0.5 else \
                   ["--duration", f"{self.rng.randint(5, 25)}m"]
            self.focus(m, "log", "edit", self.rng.choice(rows), *args)

    def op_log_rm(self, m):
        rows = self.q(m, "SELECT id, startedAt FROM timeLog").split()
        if rows:
            ident, start = self.rng.choice(rows).split("|")
            if self.focus(m, "log", "rm", ident).returncode == 0:
                self.forgiven.add(int(start))

    def op_publish(self, m):
        p = self.focus(m, "calendar", "publish", PLAN_CALENDAR)
        # One calendar holds one machine's plan: the others are refused (69), as is a server down.
        self.row.check(p.returncode in (0, 69), f"publish on machine {m}: exit {p.returncode}: {p.stderr.strip()}")

    def op_sync(self, m, kill=False):
        if not kill:
            p = self.focus(m, "sync", timeout=300)
            self.row.check(p.returncode in (0, 69, 74), f"sync on machine {m}: exit {p.returncode}: {p.stderr.strip()}")
            return p
        proc = subprocess.Popen([self.t.bin, "sync", "--db", self.dbs[m]], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, start_new_session=True,
                                env=self.t.env({**self.machine_env(m), "FOCUS_NOW": self.now()}))
        self.t.processes += 1
        time.sleep(self.rng.uniform(0.02, 0.6))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        self.t.note_crash(subprocess.CompletedProcess(proc.args, proc.returncode, out, err), ["sync"], killed=True)
        self.killed += proc.returncode < 0
        self.journal(f"machine {m}: focus sync -> {proc.returncode} (killed)\n{out}{err}")
        self.t.integrity(self.dbs[m], self.row, f"machine {m} after a killed sync")

    def op_config(self, m):
        """A travelling setting changed on one machine (README, "Two machines")."""
        key = self.rng.choice(["day_start", "day_end", "off", "hours.sat"])
        value = {"day_start": lambda: f"0{self.rng.randint(6, 9)}:00", "day_end": lambda: f"{self.rng.randint(18, 22)}:00",
                 "off": lambda: f"2026-12-{self.rng.randint(1, 28):02d}", "hours.sat": lambda: self.rng.choice(["off", "default", "10:00-14:00"])}[key]()
        p = self.focus(m, "config", "set", key, value)
        self.row.check(p.returncode == 0, f"config set {key} {value} on machine {m}: {p.stderr.strip()}")

    def op_other_app(self):
        """Another app (a phone's tasks app, a web calendar) edits the sync calendar directly:
        renames to-dos, deletes sessions and to-dos, and adds subtasks to tasks that are there
        (as such apps write them: a plain VTODO with RELATED-TO and no X-FOCUS-KIND). Tasks
        that have subtasks are picked half the time, so that a machine deleting or renaming a
        task meets a subtask it has never seen (README, "Two machines")."""
        items = self.view.items(SYNC_CALENDAR)
        todos = {h: (x, props(x, "VTODO")) for h, x in items.items() if props(x, "VTODO")}
        events = {h: (x, props(x, "VEVENT")) for h, x in items.items() if props(x, "VEVENT")}
        tasks = sorted(h for h, (_, p) in todos.items() if not p.get("RELATED-TO"))
        parents = {p.get("RELATED-TO") for _, p in todos.values() if p.get("RELATED-TO")}
        with_children = [h for h in tasks if todos[h][1].get("UID") in parents]
        roll = self.rng.random()
        if roll < 0.3 and todos:
            self.app_rename(todos, self.app_pick(todos, with_children))
        elif roll < 0.5 and events:
            href = self.rng.choice(sorted(events))
            code = self.view.request("DELETE", href)
            self.journal(f"another app: deleted session {href} {events[href][1].get('DTSTART')} -> {code}")
            if code in (200, 204):
                start = events[href][1].get("DTSTART")
                if start:
                    self.forgiven.add(ics_seconds(start))
        elif roll < 0.65 and tasks:
            self.app_add_subtask(todos, self.rng.choice(with_children if with_children and self.rng.random() < 0.5 else tasks))
        elif roll < 0.75:
            self.app_add_dated_todo()
        elif todos:
            self.app_delete(todos, events, self.app_pick(todos, with_children))

    def app_add_dated_todo(self):
        """A to-do of its own with a due date, as a phone's tasks app writes one: every machine
        plans it through a stand-in subtask of its title, whose planning travels in the to-do
        (README, "Two machines")."""
        self.names += 1
        uid = f"app-todo-{self.t.seed}-{self.names}@example.org"
        title = f"App errand {self.names}"
        stamp = (NOW + dt.timedelta(minutes=self.tick)).strftime("%Y%m%dT%H%M%SZ")
        text = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Another app//EN", "BEGIN:VTODO",
                             f"UID:{uid}", f"DTSTAMP:{stamp}", f"CREATED:{stamp}", f"LAST-MODIFIED:{stamp}",
                             f"SUMMARY:{title}", f"DUE;VALUE=DATE:202612{self.rng.randint(10, 18)}", "STATUS:NEEDS-ACTION",
                             "END:VTODO", "END:VCALENDAR", ""])
        folder = self.view.calendar(SYNC_CALENDAR)
        if folder is None:
            return
        code = self.view.request("PUT", f"/{USER}/{folder}/{uid.split('@')[0]}.ics", text)
        self.journal(f"another app: added to-do {title!r} ({uid}) due -> {code}")

    def app_pick(self, todos, with_children):
        """A to-do for the app to change: a task that has subtasks half the time."""
        if with_children and self.rng.random() < 0.5:
            return self.rng.choice(with_children)
        return self.rng.choice(sorted(todos))

    def app_rename(self, todos, href):
        text, p = todos[href]
        title = self.fresh_name("App")
        lines = unfold(text).splitlines()
        lines = [f"SUMMARY:{title}" if l.startswith("SUMMARY") else l for l in lines]
        code = self.view.request("PUT", href, "\r\n".join(lines) + "\r\n")
        self.journal(f"another app: {href} {p.get('SUMMARY')!r} renamed {title!r} -> {code}")

    def app_add_subtask(self, todos, href):
        """A new subtask of the task at `href`, written as a tasks app writes it."""
        parent = todos[href][1].get("UID")
        self.names += 1
        uid = f"app-subtask-{self.t.seed}-{self.names}@example.org"
        title = f"App part {self.names}"
        stamp = (NOW + dt.timedelta(minutes=self.tick)).strftime("%Y%m%dT%H%M%SZ")
        text = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Another app//EN", "BEGIN:VTODO",
                             f"UID:{uid}", f"DTSTAMP:{stamp}", f"CREATED:{stamp}", f"LAST-MODIFIED:{stamp}",
                             f"SUMMARY:{title}", "STATUS:NEEDS-ACTION", f"RELATED-TO:{parent}",
                             "END:VTODO", "END:VCALENDAR", ""])
        folder = href.rsplit("/", 1)[0]
        code = self.view.request("PUT", f"{folder}/{uid.split('@')[0]}.ics", text)
        self.journal(f"another app: added subtask {title!r} ({uid}) to {href} {todos[href][1].get('SUMMARY')!r} -> {code}")

    def app_delete(self, todos, events, href):
        """Deletes the to-do at `href`; a task's subtasks go with it half the time (apps differ)."""
        uid = todos[href][1].get("UID")
        children = {h: p.get("UID") for h, (_, p) in todos.items() if p.get("RELATED-TO") == uid}
        gone = [href] + (sorted(children) if children and self.rng.random() < 0.5 else [])
        codes = [self.view.request("DELETE", h) for h in gone]
        self.journal(f"another app: deleted to-do {href} {todos[href][1].get('SUMMARY')!r}"
                     f"{f' and its {len(gone) - 1} subtasks' if len(gone) > 1 else ''} -> {codes}")
        # Another app's deletion of a to-do never deletes sessions (README, "Two machines"): its
        # sessions stay, held by every machine under the task or subtask kept archived, "deleted
        # elsewhere" (made from the session's label where a machine never had it). None is forgiven.

    def operate(self):
        m = self.rng.randrange(3)
        weights = [("add", 14), ("edit", 8), ("done", 3), ("rm", 3), ("log_add", 18), ("log_edit", 5), ("log_rm", 3),
                   ("publish", 3), ("sync", 14), ("kill_sync", 5), ("other_app", 10), ("config", 4)]
        pick = self.rng.uniform(0, sum(w for _, w in weights))
        for name, w in weights:
            pick -= w
            if pick <= 0:
                break
        self.ops += 1
        if name == "other_app":
            self.op_other_app()
        elif name == "kill_sync":
            self.op_sync(m, kill=True)
        else:
            getattr(self, f"op_{name}")(m)

    # the checks

    def snapshot(self, m):
        # What another app deleted is held, archived with its sessions, by every machine, and no
        # longer travels (README, "Two machines"): a machine that never saw the to-do makes it
        # from its sessions' label. Such a row is compared by what it holds and that it is
        # "deleted elsewhere", not by its title: a session's label is written with the session,
        # and a to-do renamed after that keeps the older title where it was never seen.
        def name(title, elsewhere):
            return "(deleted elsewhere)" if elsewhere == "1" else title
        rows = self.q(m, "SELECT t.title, t.deletedElsewhere, ifnull(t.notes,''), t.archived, ifnull(s.title,''), "
                         "ifnull(s.deletedElsewhere,0), ifnull(s.notes,''), ifnull(s.estimateSeconds,0), ifnull(s.due,0), "
                         "ifnull(s.done,0), ifnull(s.spanSeconds,0), ifnull(s.earliestMinutes,-1), ifnull(s.priority,0) FROM task t LEFT JOIN subtask s ON s.taskId = t.id")
        tasks = []
        for line in rows.split("\n"):
            if not line:
                continue
            f = line.split("|")
            tasks.append("|".join([name(f[0], f[1])] + ([f[2], f[3]] if f[1] != "1" else ["", "1"])
                                  + [name(f[4], f[5])] + (f[6:] if f[5] != "1" else ["", "0", "0", "1", "0", "-1", "0"])))
        rows = self.q(m, "SELECT l.startedAt, l.endedAt, l.status, l.focusedSeconds, ifnull(l.note,''), t.title, t.deletedElsewhere, "
                         "ifnull(s.title,''), ifnull(s.deletedElsewhere,0) FROM timeLog l JOIN task t ON t.id = l.taskId "
                         "LEFT JOIN subtask s ON s.id = l.subtaskId")
        sessions = []
        for line in rows.split("\n"):
            if not line:
                continue
            f = line.split("|")
            if int(f[0]) not in self.forgiven:
                sessions.append("|".join(f[:5] + [name(f[5], f[6]), name(f[7], f[8])]))
        return "\n".join(sorted(tasks)), "\n".join(sorted(sessions))

    def settings(self, m):
        """The travelling settings of machine m, as `config get` shows them."""
        return tuple(self.focus(m, "config", "get", key).stdout.strip() for key in ("day_start", "day_end", "off", "hours.sat"))

    def check(self):
        row = self.row
        snaps = [self.snapshot(m) for m in range(3)]
        converged = 1 + sum(1 for m in (1, 2) if snaps[m] == snaps[0] and self.settings(m) == self.settings(0))
        for m in (1, 2):
            if self.settings(m) != self.settings(0):
                row.fail(f"machine {m}'s travelling settings differ from machine 0's: {self.settings(m)} / {self.settings(0)}")
        for m in (1, 2):
            if snaps[m] != snaps[0]:
                row.fail(f"machine {m} differs from machine 0 after the final syncs:\n"
                         f"    0: {snaps[0]!r:.600}\n    {m}: {snaps[m]!r:.600}")
        items = self.view.items(SYNC_CALENDAR)
        stored_events = [props(x, "VEVENT") for x in items.values() if props(x, "VEVENT")]
        stored_sessions = [ics_seconds(p["DTSTART"]) for p in stored_events
                           if p.get("X-FOCUS-SESSION") and not p.get("X-FOCUS-RUNNING") and p.get("DTSTART")]
        stored_todos = sum(1 for x in items.values() if props(x, "VTODO"))
        # A task with a due date holds it on a stand-in subtask (`<task UID>#due`), no to-do of its own.
        # A task or subtask another app deleted while its sessions stayed is kept, archived, on
        # every machine, and no longer travels (README, "Two machines").
        held = self.q(0, "SELECT (SELECT count(*) FROM task WHERE deletedElsewhere = 0) + (SELECT count(*) FROM subtask "
                         "WHERE deletedElsewhere = 0 AND (syncUid IS NULL OR syncUid NOT LIKE '%#due'))")
        if not row.check(str(stored_todos) == held, f"the server holds {stored_todos} to-dos, machine 0 {held} tasks and subtasks"):
            converged = min(converged, 2)
        duplicated = 0
        on_server = set(stored_sessions)
        duplicated += len(stored_sessions) - len(on_server)
        for m in range(3):
            mine = self.sessions(m)
            duplicated += len(mine) - len(set(mine))
            if set(mine) - self.forgiven != on_server - self.forgiven:
                row.fail(f"machine {m} holds sessions {sorted(set(mine) ^ on_server)[:8]} the server does not, or the other way")
                converged = min(converged, 2)
        lost = sorted(s for s in self.recorded if s not in self.forgiven and not all(s in self.sessions(m) for m in range(3)))
        lost += sorted(s for s in self.recorded if s not in self.forgiven and s not in on_server and s not in lost)
        for s in lost[:8]:
            row.fail(f"the session started {dt.datetime.fromtimestamp(s, dt.timezone.utc):%Y-%m-%d %H:%M}Z on machine "
                     f"{self.recorded[s]} is missing, and no deleter had seen it")
        row.check(duplicated == 0, f"{duplicated} sessions held twice")
        self.t.lost += len(lost)
        return converged, len(lost), duplicated

    def run(self):
        t, row = self.t, self.row
        with t.caldav_server("sync-model-caldav", USER, PASSWORD) as (server_dir, port):
            self.view = ServerView(server_dir, port)
            # The proxy draws from a generator of its own: the operations replay from --seed
            # whatever the threads' timing did to the faults.
            proxy = FaultyProxy(port, random.Random(t.seed * 7919 + 1), self.fault_rate)
            try:
                root = f"http://127.0.0.1:{proxy.port}/"
                self.net = {"no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "3000"}
                login = ["--user", USER, "--password-command", f"printf '%s\\n' {PASSWORD}"]
                self.dbs = [t.new_db(f"sync-model-{m}") for m in range(3)]
                self.configs = []
                for m in range(3):
                    folder = os.path.join(t.tmp, f"sync-model-config-{m}")
                    os.makedirs(os.path.join(folder, "focus"))
                    with open(os.path.join(folder, "focus", "config.toml"), "w") as f:
                        f.write("notifications = false\nbell = false\n")
                    self.configs.append(folder)
                for m in range(3):
                    if not row.check(self.focus(m, "calendar", "connect", root, *login).returncode == 0, f"machine {m} connect"):
                        return
                    p = self.focus(m, "sync", "setup", SYNC_CALENDAR)
                    if not row.check(p.returncode == 0, f"machine {m} sync setup: {p.stderr.strip()}"):
                        return
                proxy.faulty = True
                for _ in range(self.operations):
                    self.operate()
                    row.runs += 1
                proxy.faulty = False
                # Syncs until a whole pass changes nothing (a change one machine makes in its last
                # sync reaches the others only in their next), at least two passes, at most five.
                for n in range(5):
                    quiet = True
                    for m in range(3):
                        p = self.op_sync(m)
                        row.check(p.returncode == 0, f"machine {m}'s sync once the faults stopped: exit {p.returncode}")
                        quiet = quiet and "nothing changed" in p.stdout
                    if n >= 1 and quiet:
                        break
                for m in range(3):
                    t.integrity(self.dbs[m], row, f"machine {m} at the end")
                converged, lost, duplicated = self.check()
                faults = sum(proxy.faults.values())
                kinds = ", ".join(f"{k} {n}" for k, n in sorted(proxy.faults.items()))
                row.notes.append(f"{len(self.recorded)} sessions recorded, {len(self.forgiven)} deleted by one who saw them; "
                                 f"{self.killed} syncs killed; {proxy.requests} requests; faults: {kinds or 'none'}")
                t.summary_lines.append(f"sync: {self.ops} operations, {faults} faults, {converged} machines converged, "
                                       f"{lost} lost, {duplicated} duplicated")
            finally:
                proxy.stop()


def run(t, operations, fault_rate=0.2):
    try:
        import radicale  # noqa: F401
    except ImportError:
        t.row("sync-model", "3 machines, Radicale, a faulty proxy, another app").fail(
            "Radicale is not installed (pip install radicale): the sync family needs it")
        return
    SyncFamily(t, operations, fault_rate).run()
