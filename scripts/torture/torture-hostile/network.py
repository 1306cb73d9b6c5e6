"""CalDAV servers and databases that attack (issue 28): the origin rule and the stored-settings rule.

Every run starts scripts/servers/hostile-caldav-server.py (two loopback ports: the account's and another)
and draws new cases from t.rng:
- redirects to other origins (another port, `localhost` for 127.0.0.1, https on another port,
  file://, gopher://, plain http to a random documentation address): the refresh is 69 with one
  `focus: error:` line saying the redirect is not followed, and the login never reaches the
  other port;
- foreign hrefs in sync answers (another port or host, `..` and `%2e%2e` segments, a sibling
  collection, random tails): the refresh succeeds with a warning, only the calendar's own event
  is stored, and nothing is sent to the other port;
- namespace floods (a random number of prefixes, up to 200,000): connect reads the account;
- stored commands in restored files: a database made under another user's config, whose
  password command (random words) leaves a mark, restored here: `restore` names it, and
  `calendar refresh`, `plan` and `sync` never run it (refresh exits 69).
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "..", "servers", "hostile-caldav-server.py")


def run(t):
    rng = t.rng
    d = os.path.join(t.tmp, "hostile-network")
    os.makedirs(d, exist_ok=True)
    server = subprocess.Popen([sys.executable, SERVER, d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {"no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000"}
    try:
        deadline = time.time() + 20
        while not os.path.exists(os.path.join(d, "port")) and time.time() < deadline:
            time.sleep(0.02)
        home, other = (int(x) for x in open(os.path.join(d, "port")).read().split())
        url = f"http://127.0.0.1:{home}/"

        def mode(m, arg=""):
            with open(os.path.join(d, "arg"), "w") as f:
                f.write(arg)
            with open(os.path.join(d, "mode"), "w") as f:
                f.write(m)

        def log():
            try:
                return open(os.path.join(d, "log")).read().splitlines()
            except OSError:
                return []

        def leaked(since):
            return [line for line in log()[since:] if line.startswith(f"{other} ") and (line.endswith(" auth") or " PUT " in line or " DELETE " in line)]

        def connected(db, row):
            mode("ok")
            p = t.focus(db, "calendar", "connect", url, "--user", "alice", "--password-command", "echo s3cret", env=env)
            return row.check(p.returncode == 0, f"connect: exit {p.returncode}: {p.stderr.strip()[:300]}")

        redirects(t, rng, env, mode, log, leaked, connected, home, other)
        hrefs(t, rng, env, mode, log, leaked, connected, other)
        floods(t, rng, env, mode, url)
        restored(t, rng, env, mode, url)
    finally:
        server.kill()
        server.wait()


def redirects(t, rng, env, mode, log, leaked, connected, home, other):
    row = t.row("hostile/network-redirects", "a redirect to another origin or scheme: 69, not followed with the login")
    started = time.time()
    db = t.new_db("net-redirects")
    if connected(db, row):
        for i in range(3 if t.quick else 10):
            row.runs += 1
            path = "/" + "".join(rng.choice("abcxyz/") for _ in range(rng.randint(0, 12)))
            location = rng.choice([
                f"http://127.0.0.1:{other}{path}", f"http://localhost:{home}{path}", f"https://127.0.0.1:{other}{path}",
                f"file:///etc/passwd", f"gopher://127.0.0.1:{other}/1{path}", f"http://192.0.2.{rng.randint(1, 254)}{path}",
                f"HTTP://[::1]:{other}{path}", f"data:text/calendar,{path}",
            ])
            mode("redirect", location)
            before = len(log())
            p = t.focus(db, "calendar", "refresh", env=env, timeout=60)
            what = f"redirect to {location!r}"
            if location.startswith("https://"):
                # https elsewhere is followed for a read, without the login (no TLS here: 69 all the same).
                row.check(p.returncode == 69 and t.one_error_line(p, 69), f"{what}: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
            else:
                row.check(t.one_error_line(p, 69) and "redirected to an address focus does not follow" in p.stderr,
                          f"{what}: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
            row.check(not leaked(before), f"{what}: the login or a write reached the other port: {leaked(before)}")
            listing = json.loads(t.focus(db, "calendar", "list", "--json", env=env).stdout or "[]")
            row.check(all(str(other) not in (c.get("source") or "") for c in listing), f"{what}: the redirect was stored as the address")
    t.integrity(db, row, "network redirects")
    row.seconds += time.time() - started


def hrefs(t, rng, env, mode, log, leaked, connected, other):
    row = t.row("hostile/network-hrefs", "hrefs outside the collection are ignored: nothing fetched, stored or written there")
    started = time.time()
    db = t.new_db("net-hrefs")
    if connected(db, row):
        for i in range(3 if t.quick else 10):
            row.runs += 1
            tail = "".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, 10))) + ".ics"
            href = rng.choice([
                f"http://127.0.0.1:{other}/u/cal/{tail}", f"http://localhost:{other}/u/cal/{tail}", f"/u/cal/../other/{tail}",
                f"/u/cal/%2e%2e/other/{tail}", f"/u/cal/./../../{tail}", f"/u/calendar-next-door/{tail}",
                f"https://127.0.0.1:{other}/u/cal/{tail}", f"//127.0.0.2:{other}/u/cal/{tail}",
            ])
            mode("foreign-href", href)
            before = len(log())
            p = t.focus(db, "calendar", "refresh", env=env, timeout=60)
            what = f"href {href!r}"
            row.check(p.returncode == 0 and "ignored" in p.stderr, f"{what}: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
            row.check(not leaked(before), f"{what}: the login or a write reached the other port: {leaked(before)}")
            row.check(not any(line.startswith(f"{other} ") for line in log()[before:]), f"{what}: a request went to the other port")
            listing = json.loads(t.focus(db, "calendar", "list", "--json", env=env).stdout or "[]")
            events = [c.get("events") for c in listing]
            row.check(events == [1], f"{what}: stored {events} events, the calendar has 1")
    t.integrity(db, row, "network hrefs")
    row.seconds += time.time() - started


def floods(t, rng, env, mode, url):
    row = t.row("hostile/network-xmlns", "a namespace flood in a CalDAV answer is read whole and right")
    started = time.time()
    for i in range(1 if t.quick else 3):
        row.runs += 1
        n = rng.randint(20_000, 60_000 if t.quick else 200_000)
        mode("xmlns", str(n))
        db = t.new_db(f"net-xmlns-{i}")
        p = t.focus(db, "calendar", "connect", url, "--user", "alice", "--password-command", "echo s3cret", env=env, timeout=120)
        row.check(p.returncode == 0 and "1 calendar" in p.stdout, f"{n} prefixes: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
    mode("ok")
    row.seconds += time.time() - started


def restored(t, rng, env, mode, url):
    row = t.row("hostile/network-stored-commands", "a restored database's password command never runs without consent")
    started = time.time()
    mode("ok")
    for i in range(2 if t.quick else 5):
        row.runs += 1
        mark = os.path.join(t.tmp, f"PWNED-{i}-{rng.getrandbits(32):08x}")
        # Each prints a password (so the other user's connect succeeds) and leaves the mark.
        words = rng.choice([f"sh -c 'touch {mark}; echo pw'", f"sh -c 'echo pw{rng.randint(0, 99)}; touch {mark}'",
                            f"env X={rng.randint(0, 99)} sh -c 'touch {mark} && echo pw'"])
        mallory = t.new_db(f"net-mallory-{i}")
        foreign_config = os.path.join(t.tmp, f"mallory-config-{i}")
        p = t.focus(mallory, "calendar", "connect", url, "--user", f"m{rng.randint(0, 999)}", "--password-command", words,
                    env={**env, "XDG_CONFIG_HOME": foreign_config})
        if not row.check(p.returncode == 0, f"case {i}: the other user's connect failed: {p.stderr.strip()[:200]!r}"):
            continue
        if os.path.exists(mark):
            os.remove(mark)
        gift = os.path.join(t.tmp, f"gift-{i}.sqlite")
        t.focus(mallory, "backup", gift, "--force", env={**env, "XDG_CONFIG_HOME": foreign_config})
        if not row.check(os.path.exists(gift), f"case {i}: no gift database ({p.stderr.strip()[:200]!r})"):
            continue
        victim = t.new_db(f"net-victim-{i}")
        p = t.focus(victim, "restore", gift, env=env)
        row.check(p.returncode == 0 and "not set up by you on this machine" in p.stdout, f"case {i}: restore said {p.stdout.strip()[:300]!r}")
        for args in (["calendar", "refresh"], ["plan"], ["sync"]):
            p = t.focus(victim, *args, env=env, timeout=60)
            if args[1:] == ["refresh"]:
                row.check(t.one_error_line(p, 69) and "not set up by you" in p.stderr, f"case {i}: refresh: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
            row.check(not os.path.exists(mark), f"case {i}: {' '.join(args)} ran the restored password command {words!r}")
        p = t.focus(gift, "calendar", "refresh", env=env, timeout=60)
        row.check(t.one_error_line(p, 69) and not os.path.exists(mark), f"case {i}: --db gift: exit {p.returncode}, mark {os.path.exists(mark)}")
    row.seconds += time.time() - started
