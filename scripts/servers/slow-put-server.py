#!/usr/bin/env python3
"""A loopback HTTP server that answers each PUT after a delay, as a CalDAV server with slow PHP
behind it does (Nextcloud: about 100 ms a PUT), several at once (a thread per connection, HTTP/1.1
keep-alive), or one at a time with --serial. For focus's tests and scripts/bench/bench-sync.

Usage: slow-put-server.py DIR SECONDS [--serial] [--upstream URL [--forward-puts [--hold-deletes]
                            [--lose-answers N]]]

A PUT is answered here: 201 with an ETag (412 for If-None-Match: * on a path written before),
its body kept in DIR/bodies/PATH; a DELETE 204. With --upstream, every other request is passed
on to that server (Radicale, scripts/servers/caldav-server.py, for discovery, listings and MKCALENDAR),
and a PUT to a collection (a path ending in /) is refused with 405, as servers other than
Radicale refuse it, so a sync writes one item per request: the server's cost per PUT is then the
delay alone, as for a server whose own work (PHP) takes it and runs in parallel. With
--forward-puts, a PUT is held, then passed on too (the upstream server then holds everything,
for tests where a second machine reads what the first wrote). With --hold-deletes, a DELETE is
held and passed on the same way (counted apart: "most_deletes_in_flight", "deleted"). With
--lose-answers N, the first N PUTs that arrive while another PUT is held are passed on at once
and their connection is then closed without an answer: the server stored the write, the client
never hears so (a connection cut after the server wrote, a proxy that timed out). Counted in
"lost": {path: count}.
GET /_stats answers JSON: {"most_in_flight": N, "puts": N, "written": {path: count}, ...}.

Listens on a free port of 127.0.0.1 and writes it to DIR/port once listening. Runs until killed.
"""
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIR, HOLD = sys.argv[1], float(sys.argv[2])
SERIAL = "--serial" in sys.argv
UPSTREAM = sys.argv[sys.argv.index("--upstream") + 1] if "--upstream" in sys.argv else None
FORWARD_PUTS = UPSTREAM is not None and "--forward-puts" in sys.argv
HOLD_DELETES = FORWARD_PUTS and "--hold-deletes" in sys.argv
LOSE = int(sys.argv[sys.argv.index("--lose-answers") + 1]) if FORWARD_PUTS and "--lose-answers" in sys.argv else 0

lock = threading.Lock()
one_at_a_time = threading.Lock()
stats = {"in_flight": 0, "most_in_flight": 0, "puts": 0, "written": {},
         "deletes_in_flight": 0, "most_deletes_in_flight": 0, "deleted": {}, "lost": {}}
upstream = threading.local()


def forward(handler, method, body):
    """The request passed on to the upstream server over this thread's own connection."""
    target = urllib.parse.urlsplit(UPSTREAM)
    if getattr(upstream, "connection", None) is None:
        upstream.connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
    headers = {k: v for k, v in handler.headers.items() if k.lower() not in ("host", "connection", "content-length")}
    try:
        upstream.connection.request(method, handler.path, body=body, headers=headers)
        response = upstream.connection.getresponse()
    except (http.client.HTTPException, OSError):
        upstream.connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
        upstream.connection.request(method, handler.path, body=body, headers=headers)
        response = upstream.connection.getresponse()
    return response.status, [(k, v) for k, v in response.getheaders() if k.lower() not in ("connection", "transfer-encoding", "content-length")], response.read()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, headers=(), body=b""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        method = self.command
        if method == "GET" and self.path == "/_stats":
            with lock:
                data = {k: v for k, v in stats.items() if k not in ("in_flight", "deletes_in_flight")}
            return self.answer(200, [("Content-Type", "application/json")], json.dumps(data).encode())
        if method == "PUT" and UPSTREAM and self.path.endswith("/"):
            return self.answer(405, [("Allow", "GET, PUT, DELETE, PROPFIND, REPORT")])
        if method == "DELETE" and HOLD_DELETES:
            return self.held_delete()
        if method != "PUT":
            if UPSTREAM:
                return self.answer(*forward(self, method, body))
            return self.answer(204 if method == "DELETE" else 405)
        with lock:
            lose = LOSE > sum(stats["lost"].values()) and stats["in_flight"] > 0
            if lose:
                stats["lost"][self.path] = stats["lost"].get(self.path, 0) + 1
            else:
                stats["in_flight"] += 1
                stats["puts"] += 1
                stats["most_in_flight"] = max(stats["most_in_flight"], stats["in_flight"])
        if lose:
            return self.lose_answer(body)
        try:
            if SERIAL:
                one_at_a_time.acquire()
            time.sleep(HOLD)
            if FORWARD_PUTS:
                status, headers, data = forward(self, method, body)
                with lock:
                    if 200 <= status < 300:
                        stats["written"][self.path] = stats["written"].get(self.path, 0) + 1
            else:
                with lock:
                    exists = self.path in stats["written"]
                    if exists and self.headers.get("If-None-Match") == "*":
                        status, headers, data = 412, [], b""
                    else:
                        stats["written"][self.path] = stats["written"].get(self.path, 0) + 1
                        status, headers, data = 201, [("ETag", '"%d"' % stats["puts"])], b""
            if status == 201 and not FORWARD_PUTS:
                path = os.path.join(DIR, "bodies", urllib.parse.unquote(self.path).lstrip("/"))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(body or b"")
        finally:
            if SERIAL:
                one_at_a_time.release()
            with lock:
                stats["in_flight"] -= 1
        self.answer(status, headers, data)

    def lose_answer(self, body):
        """A PUT passed on at once, then the connection closed without an answer (--lose-answers)."""
        status, _, _ = forward(self, "PUT", body)
        with lock:
            if 200 <= status < 300:
                stats["written"][self.path] = stats["written"].get(self.path, 0) + 1
        self.close_connection = True

    def held_delete(self):
        """A DELETE held, then passed on (--hold-deletes)."""
        with lock:
            stats["deletes_in_flight"] += 1
            stats["most_deletes_in_flight"] = max(stats["most_deletes_in_flight"], stats["deletes_in_flight"])
        try:
            time.sleep(HOLD)
            status, headers, data = forward(self, "DELETE", None)
            with lock:
                if 200 <= status < 300:
                    stats["deleted"][self.path] = stats["deleted"].get(self.path, 0) + 1
        finally:
            with lock:
                stats["deletes_in_flight"] -= 1
        self.answer(status, headers, data)

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_OPTIONS = handle_any


class Server(ThreadingHTTPServer):
    # socketserver's backlog of 5 drops the SYNs of eight connections made at once (each then
    # retried a second later).
    request_queue_size = 128


server = Server(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(os.path.join(DIR, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))
server.serve_forever()
