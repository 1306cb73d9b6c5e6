"""Calendar feeds from a hostile server: a failed fetch never loses a calendar.

Every run starts scripts/servers/feed-server.py on a free loopback port with a feed made from t.rng
(random events, summaries with odd characters), subscribes to it, then refreshes it many times
while the server answers in a random way: unchanged (304), a changed feed, HTTP 500, a request
that hangs past the timeout, endless redirects, a closed connection, an HTML login page, random
bytes, a body past the 32 MB cap, a truncated feed, an empty calendar. After each refresh:
- success (0) for 304 and a good feed, the count of events stored being the feed's;
- 69 (network, server) or 65 (a body that is not a calendar) with exactly one `focus: error:`
  line, and the last good copy still stored, its event count and busy times unchanged;
- an empty calendar after one with events: 0 with a warning, the copy kept;
and at the end, with the server gone, a refresh is 69 and the copy is still there.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "..", "servers", "feed-server.py")
ODD = ["Math 101", "Ünïcödé ☕", "semi;colon, comma", "back\\\\slash", "emoji 🎓", "quote \"x\"", "tab\\tthere", "<b>html</b>"]


def feed(rng, events):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//torture//feeds//EN", "X-WR-CALNAME:Torture feed"]
    for i in range(events):
        day = rng.randint(1, 25)
        hour = rng.randint(6, 20)
        length = rng.choice([30, 45, 60, 90, 120])
        lines += ["BEGIN:VEVENT", f"UID:t{i}-{rng.getrandbits(32)}@torture", "DTSTAMP:20261101T000000Z",
                  f"DTSTART:202612{day:02d}T{hour:02d}0000Z", f"DURATION:PT{length}M",
                  "SUMMARY:" + rng.choice(ODD) + f" {i}"]
        if rng.random() < 0.2:
            lines.append(f"RRULE:FREQ=WEEKLY;COUNT={rng.randint(2, 10)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


def run(t):
    row = t.row("hostile/feeds", "refreshes of a feed whose server fails at random keep the last good copy")
    started = time.time()
    d = os.path.join(t.tmp, "feeds")
    os.makedirs(d, exist_ok=True)
    db = t.new_db("feeds-db")
    env = {"no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "1500"}
    rng = t.rng

    def write(name, data):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)

    good = feed(rng, rng.randint(1, 25))
    write("feed.ics", good)
    write("mode", b"ok")
    server = subprocess.Popen([sys.executable, SERVER, d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 20
        while not os.path.exists(os.path.join(d, "port")) and time.time() < deadline:
            time.sleep(0.02)
        port = int(open(os.path.join(d, "port")).read())
        url = f"http://127.0.0.1:{port}/feed.ics"

        def stored():
            p = t.focus(db, "calendar", "list", "--json", env=env)
            cals = json.loads(p.stdout or "[]")
            return (cals[0]["events"], cals[0]["busy_times"]) if cals else None

        p = t.focus(db, "calendar", "subscribe", url, "--name", "Feed", env=env)
        row.runs += 1
        if not row.check(p.returncode == 0, f"subscribe: exit {p.returncode}: {p.stderr.strip()[:300]}"):
            return
        kept = stored()
        rounds = 10 if t.quick else 40
        for i in range(rounds):
            row.runs += 1
            mode = rng.choice(["same", "changed", "500", "hang", "loop", "close", "html", "garbage", "huge", "partial", "empty"])
            if mode == "changed":
                good = feed(rng, rng.randint(1, 25))
                write("feed.ics", good)
            elif mode == "partial":
                write("cut", str(rng.randint(0, len(good) - 1)).encode())
            write("mode", b"ok" if mode in ("same", "changed") else mode.encode())
            p = t.focus(db, "calendar", "refresh", env=env, timeout=60)
            now = stored()
            what = f"round {i} ({mode})"
            if mode in ("same", "changed"):
                if row.check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr.strip()[:300]}"):
                    kept = now
                    events = good.count(b"BEGIN:VEVENT")
                    row.check(now and now[0] == events, f"{what}: {now} stored, the feed has {events} events")
            elif mode == "empty":
                row.check(p.returncode == 0 and "no events" in p.stderr, f"{what}: exit {p.returncode}: {p.stderr.strip()[:300]}")
                row.check(now == kept, f"{what}: the copy changed from {kept} to {now}")
            elif mode == "partial" and p.returncode == 0:
                kept = now  # a truncated feed the lenient reader still reads (as import does)
            else:
                code = 65 if mode in ("html", "garbage", "huge", "partial") else 69
                row.check(t.one_error_line(p, code), f"{what}: wanted exit {code} and one error line, got {p.returncode}: {p.stderr.strip()[:300]!r}")
                row.check(now == kept, f"{what}: the copy changed from {kept} to {now}")
                if mode != "partial" or p.returncode != 0:
                    p2 = t.focus(db, "calendar", "list", "--json", env=env)
                    err = (json.loads(p2.stdout or "[{}]")[0] or {}).get("last_error")
                    row.check(bool(err), f"{what}: calendar list --json shows no last_error")
            if mode in ("same", "changed") and p.returncode == 0:
                # A second refresh of the same feed is one conditional request answered 304.
                before = open(os.path.join(d, "log")).read().count("\n")
                p = t.focus(db, "calendar", "refresh", "Feed", env=env)
                lines = open(os.path.join(d, "log")).read().splitlines()[before:]
                row.check(p.returncode == 0 and len(lines) == 1 and " 304 " in lines[0], f"{what}: unchanged refresh got {lines}")
        # Hostile addresses: refused (64) or unreachable (69) in one line, nothing added.
        for i in range(4 if t.quick else 12):
            row.runs += 1
            scheme = rng.choice(["https", "http", "webcal", "ftp", "file", "HTTPS", "javascript", ""])
            host = rng.choice(["exämple.invalid", "[zz", "a" * rng.randint(250, 400) + ".invalid", "u:p@h.invalid",
                               "h.invalid:" + str(rng.randint(65536, 10**6)), "h.invalid:x", "", "example.com",
                               "10.255.255.1", "%00.invalid", "h.invalid"])
            path = "/" + "".join(rng.choice("abc/?#%é \t\x01") for _ in range(rng.randint(0, 12)))
            url = f"{scheme}://{host}{path}" if rng.random() < 0.9 else host + path
            p = t.focus(db, "calendar", "subscribe", url, "--name", f"Hostile {i}", env=env, timeout=60)
            ok = p.returncode in (64, 65, 69) and t.one_error_line(p, p.returncode)
            row.check(ok, f"subscribe {url[:80]!r}: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
            row.check(stored() == kept and t.sql(db, "SELECT count(*) FROM calendar") == "1", f"subscribe {url[:80]!r} changed the calendars")
        server.kill()
        server.wait()
        row.runs += 1
        p = t.focus(db, "calendar", "refresh", env=env)
        row.check(t.one_error_line(p, 69), f"server gone: exit {p.returncode}: {p.stderr.strip()[:300]!r}")
        row.check(stored() == kept, f"server gone: the copy changed from {kept} to {stored()}")
        t.integrity(db, row, "feeds")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        row.seconds += time.time() - started
