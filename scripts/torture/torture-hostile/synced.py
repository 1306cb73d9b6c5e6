"""What a shared sync calendar can make focus do at scale (issue #39), against Radicale
(scripts/servers/caldav-server.py) with a proxy of its own in front that can answer 503:

- synced settings at scale: another writer puts thousands of days off, feeds or unknown keys
  (their numbers drawn from t.rng) into the settings event; `sync` takes bounded time, keeps
  the documented caps (2,000 days off, 100 feeds: README, "Two machines"), says what it
  skipped, and leaves a config every command reads;
- copied recurring instances: another app copies the instance to-do of a recurring series
  (a new UID and title, the same X-FOCUS-SERIES and X-FOCUS-PERIOD, as to-do apps copy
  unknown properties), a random number of times; `sync` never unifies a copy with focus's
  instance, and deletes nothing on the server;
- an extreme Retry-After (a year far past 9999, negative, a huge delta-seconds, drawn at
  random) on a 503 from the server: `sync`, `calendar publish` and the daemon never crash
  (no signal, documented exit codes), and the daemon keeps running until it is stopped.
"""

import datetime as dt
import hashlib
import http.client
import http.server
import json
import os
import signal
import subprocess
import threading
import time

USER, PASSWORD = "alice", "hostile-password"
LOGIN = ["--user", USER, "--password-command", f"printf '%s\\n' {PASSWORD}"]


class Proxy:
    """HTTP/1.1 in front of the server; while `retry_after` is set, every request is answered
    503 with that Retry-After."""

    def __init__(self, upstream):
        self.upstream, self.retry_after, self.answered = upstream, None, 0
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one_request(self):
                try:
                    super().handle_one_request()
                except (ConnectionError, OSError):
                    self.close_connection = True

            def any_method(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                if proxy.retry_after is not None:
                    proxy.answered += 1
                    self.send_response(503)
                    self.send_header("Retry-After", proxy.retry_after)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                c = http.client.HTTPConnection("127.0.0.1", proxy.upstream, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                c.request(self.command, self.path, body=body, headers=headers)
                answer = c.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for k, v in answer.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                c.close()

            do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_OPTIONS = do_POST = do_HEAD = do_MOVE = do_PROPPATCH = any_method

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


class Calendars:
    """The server's stored calendars, read and written past focus."""

    def __init__(self, folder, port):
        self.root = os.path.join(folder, "collections", "collection-root", USER)
        self.port = port

    def folder(self, name):
        for entry in sorted(os.listdir(self.root)) if os.path.isdir(self.root) else []:
            meta = os.path.join(self.root, entry, ".Radicale.props")
            if os.path.exists(meta) and json.load(open(meta)).get("D:displayname") == name:
                return entry
        return None

    def items(self, name):
        """href -> text of every item of the calendar `name`."""
        folder = self.folder(name)
        found = {}
        if folder is None:
            return found
        path = os.path.join(self.root, folder)
        for entry in os.listdir(path):
            full = os.path.join(path, entry)
            if not entry.startswith(".") and os.path.isfile(full):
                found[f"/{USER}/{folder}/{entry}"] = open(full, errors="replace").read()
        return found

    def put(self, href, text):
        import base64
        auth = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            c.request("PUT", href, body=text.encode(), headers={"Authorization": f"Basic {auth}", "Content-Type": "text/calendar; charset=utf-8"})
            answer = c.getresponse()
            answer.read()
            return answer.status
        finally:
            c.close()


def unfold(text):
    return text.replace("\r\n ", "").replace("\r\n\t", "").replace("\n ", "")


def run(t):
    with t.caldav_server("hostile-synced", USER, PASSWORD) as (d, port):
        proxy = Proxy(port)
        try:
            calendars = Calendars(d, port)
            scale(t, calendars, proxy)
            copies(t, calendars, proxy)
            retry_after(t, calendars, proxy)
        finally:
            proxy.stop()


def machine(t, proxy, name, calendar, row):
    """A database and config of its own, connected through the proxy and syncing with `calendar`."""
    db = t.new_db(f"synced-{name}")
    config = os.path.join(t.tmp, f"synced-config-{name}")
    os.makedirs(os.path.join(config, "focus"), exist_ok=True)
    with open(os.path.join(config, "focus", "config.toml"), "w") as f:
        f.write("notifications = false\nbell = false\n")
    env = {"XDG_CONFIG_HOME": config, "no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "10000"}
    p = t.focus(db, "calendar", "connect", f"http://127.0.0.1:{proxy.port}/", *LOGIN, env=env)
    if not row.check(p.returncode == 0, f"{name}: connect: exit {p.returncode}: {p.stderr.strip()[:300]}"):
        return None
    p = t.focus(db, "sync", "setup", calendar, env=env)
    if not row.check(p.returncode == 0, f"{name}: sync setup: exit {p.returncode}: {p.stderr.strip()[:300]}"):
        return None
    return db, env, os.path.join(config, "focus", "config.toml")


def scale(t, calendars, proxy):
    row = t.row("hostile/synced-scale", "thousands of synced days off, feeds and keys: bounded time, the documented caps")
    started = time.time()
    m = machine(t, proxy, "scale", "Scale", row)
    if m is None:
        return
    db, env, config = m
    # A setting that travels, so the first sync writes the settings event.
    t.focus(db, "config", "set", "buffer", "5m", env=env)
    t.focus(db, "sync", env=env)
    rng = t.rng
    stamp = int(time.time() * 1000)
    for kind in rng.sample(["off", "feeds", "keys"], 3):
        row.runs += 1
        settings = {h: x for h, x in calendars.items("Scale").items() if "X-FOCUS-SETTINGS:1" in unfold(x)}
        if not row.check(len(settings) == 1, f"the settings event: {len(settings)} found"):
            return
        href, text = next(iter(settings.items()))
        stamp += 1000
        lines = []
        if kind == "off":
            n = rng.randint(3_000, 6_000 if t.quick else 25_000)
            first = dt.date(2030, 1, 1) + dt.timedelta(days=rng.randint(0, 3000))
            lines = [f"X-FOCUS-SETTING;KEY=off.{first + dt.timedelta(days=i)};MODIFIED={stamp}:yes" for i in range(n)]
        elif kind == "feeds":
            n = rng.randint(500, 1_000 if t.quick else 4_000)
            for i in range(n):
                address = f"https://feeds{i}.example.org/{rng.getrandbits(32):08x}.ics"
                key = "feed." + hashlib.sha256(address.encode()).hexdigest()[:16]
                lines.append(f"X-FOCUS-SETTING;KEY={key};MODIFIED={stamp}:{address}\\nFeed {i}")
        else:
            n = rng.randint(1_000, 3_000 if t.quick else 20_000)
            lines = [f"X-FOCUS-SETTING;KEY=x-other-{i}-{rng.getrandbits(16):04x};MODIFIED={stamp}:v{i}" for i in range(n)]
        body = unfold(text).replace("END:VEVENT", "\r\n".join(lines) + "\r\nEND:VEVENT")
        status = calendars.put(href, body)
        if not row.check(status in (200, 201, 204), f"{n} {kind}: the server took the event with {status}"):
            continue
        began = time.time()
        p = t.focus(db, "sync", env=env, timeout=600)
        seconds = time.time() - began
        what = f"{n} synced {kind}"
        row.notes.append(f"{what}: sync {seconds:.1f} s")
        row.check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
        row.check(seconds < 60, f"{what}: the sync took {seconds:.1f} s (bounded work per key)")
        row.check(os.path.getsize(config) < 1_000_000, f"{what}: a config of {os.path.getsize(config)} bytes")
        g = t.focus(db, "config", "get", "off", env=env)
        row.check(g.returncode == 0, f"{what}: `config get off` fails after the sync: {g.stderr.strip()[:200]!r}")
        days = [x for x in g.stdout.strip().split(",") if x and x != "none"]
        row.check(len(days) <= 2000, f"{what}: {len(days)} days off kept, the cap is 2,000")
        listing = json.loads(t.focus(db, "calendar", "list", "--json", env=env).stdout or "[]")
        row.check(len(listing) <= 100 + 1, f"{what}: {len(listing)} calendars, the cap is 100 feeds")
        if kind in ("off", "feeds"):
            row.check("skipped" in p.stdout + p.stderr, f"{what}: the sync did not say what it skipped: {(p.stdout + p.stderr)[:300]!r}")
        p = t.focus(db, "sync", env=env, timeout=600)
        row.check(p.returncode == 0 and time.time() - began < 120, f"{what}: the next sync: exit {p.returncode}")
    t.integrity(db, row, "synced settings at scale")
    row.seconds += time.time() - started


def copies(t, calendars, proxy):
    row = t.row("hostile/synced-copied-instance", "another app's copies of a recurring instance: never unified, nothing deleted")
    started = time.time()
    m = machine(t, proxy, "copies", "Copies", row)
    if m is None:
        return
    db, env, _ = m
    rng = t.rng
    p = t.focus(db, "task", "add", "Health/Gym", "--every", rng.choice(["day", "week", "weekdays"]), "--estimate", "30m", env=env)
    if not row.check(p.returncode == 0, f"task add --every: {p.stderr.strip()[:300]!r}"):
        return
    p = t.focus(db, "sync", env=env)
    row.check(p.returncode == 0, f"first sync: {p.stderr.strip()[:300]!r}")
    instances = {h: x for h, x in calendars.items("Copies").items() if "X-FOCUS-PERIOD" in x}
    if not row.check(instances, "no instance to-do on the server"):
        return
    href, original = next(iter(instances.items()))
    n = rng.randint(3, 8 if t.quick else 50)
    copied = []
    folder = href.rsplit("/", 1)[0]
    for i in range(n):
        row.runs += 1
        uid = f"copy-{i}-{rng.getrandbits(48):012x}@other.app"
        title = rng.choice(["Gym", "Gym (copy)", f"Copy {i} of Gym", "Gym ✓", "Health"])
        body = []
        for line in unfold(original).splitlines():
            if line.startswith("UID:"):
                line = "UID:" + uid
            elif line.startswith("SUMMARY"):
                line = "SUMMARY:" + title
            body.append(line)
        copy_href = f"{folder}/{uid.replace('@', '-')}.ics"
        if row.check(calendars.put(copy_href, "\r\n".join(body) + "\r\n") in (200, 201, 204), f"copy {i}: the server refused it"):
            copied.append(copy_href)
    before = set(calendars.items("Copies"))
    p = t.focus(db, "sync", env=env)
    row.check(p.returncode == 0, f"{n} copies: sync: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
    p = t.focus(db, "sync", env=env)
    after = set(calendars.items("Copies"))
    gone = sorted(before - after)
    row.check(not gone, f"{n} copies: the sync deleted {len(gone)} items on the server: {gone[:3]}")
    row.check(href in after, f"{n} copies: focus's own instance {href} was deleted")
    shown = t.focus(db, "task", "show", "Health/Gym", env=env)
    row.check(shown.returncode == 0, f"{n} copies: focus's Health/Gym is gone: {shown.stderr.strip()[:200]!r}")
    p = t.focus(db, "sync", "status", env=env)
    row.check(p.returncode == 0, f"{n} copies: sync status: exit {p.returncode}")
    t.integrity(db, row, "copied recurring instances")
    row.seconds += time.time() - started


def retry_after(t, calendars, proxy):
    row = t.row("hostile/synced-retry-after", "an extreme Retry-After: sync, publish and the daemon never crash")
    started = time.time()
    m = machine(t, proxy, "retry", "Retry", row)
    if m is None:
        return
    db, env, _ = m
    rng = t.rng
    t.focus(db, "task", "add", "Thesis", "--estimate", "2h", env=env)
    t.focus(db, "calendar", "publish", "Plan", env=env)
    values = [f"Sun, 06 Nov {rng.choice([10000, 99999, 999999999999, 10 ** 30])} 08:49:37 GMT", str(-rng.randint(1, 10 ** 12)),
              str(rng.randint(10 ** 12, 10 ** 40)), "Mon, 31 Feb 2026 25:61:61 GMT", str(2 ** 63), "-0", "1e309"]
    for value in rng.sample(values, 4 if t.quick else len(values)):
        row.runs += 1
        proxy.retry_after = value
        for args in (["sync"], ["calendar", "publish", "Plan"]):
            p = t.focus(db, *args, env=env, timeout=120)
            row.check(0 <= p.returncode < 128 and p.returncode not in (70,), f"Retry-After {value!r}: {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
        daemon = subprocess.Popen([t.bin, "daemon", "--db", db], env=t.env(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        t.processes += 1
        answered = proxy.answered
        deadline = time.time() + 30
        while proxy.answered == answered and time.time() < deadline and daemon.poll() is None:
            time.sleep(0.05)
        time.sleep(0.5)
        alive = daemon.poll() is None
        daemon.send_signal(signal.SIGTERM)
        try:
            _, err = daemon.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            _, err = daemon.communicate()
        row.check(alive and daemon.returncode == 0, f"Retry-After {value!r}: the daemon {'ran' if alive else 'died'}, exit {daemon.returncode}: {err.strip()[-300:]!r}")
    proxy.retry_after = None
    t.integrity(db, row, "an extreme Retry-After")
    row.seconds += time.time() - started
