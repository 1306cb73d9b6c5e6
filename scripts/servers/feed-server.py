#!/usr/bin/env python3
"""A calendar feed server for focus's tests, on loopback.

Usage: feed-server.py DIR [--cert CERT --key KEY]

Listens on a free port of 127.0.0.1 and writes it to DIR/port once listening. Every request
reads DIR/mode (default "ok") and DIR/feed.ics, and appends one line to DIR/log:
"<path> <status> <if-none-match or ->". Modes:
  ok        the feed, with a strong ETag (hash of the body) and Last-Modified; 304 when
            If-None-Match matches
  500       HTTP 500          html     a 200 HTML login page      garbage  200 random bytes
  empty     a VCALENDAR with no events   hang  never answers (until the client gives up)
  huge      a 200 body without end (the client's size cap stops it)
  redirect-http  a 302 to http:// (a downgrade when served over TLS)
  loop      a 302 to itself, for ever
  close     the connection closed without an answer
  partial   the first DIR/cut bytes of the feed (a truncated body)
"""
import hashlib
import os
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIR = sys.argv[1]
EMPTY = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n"
HTML = b"<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>Password</form></body></html>"


def read(name, default=b""):
    try:
        with open(os.path.join(DIR, name), "rb") as f:
            return f.read()
    except OSError:
        return default


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status):
        with open(os.path.join(DIR, "log"), "a") as f:
            f.write("%s %d %s\n" % (self.path, status, self.headers.get("If-None-Match") or "-"))

    def send(self, status, body=b"", ctype="text/calendar; charset=utf-8", extra=()):
        self.record(status)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        mode = read("mode", b"ok").decode().strip() or "ok"
        if mode == "ok":
            body = read("feed.ics")
            etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
            if self.headers.get("If-None-Match") == etag:
                self.record(304)
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send(200, body, extra=[("ETag", etag), ("Last-Modified", "Mon, 23 Nov 2026 08:00:00 GMT")])
        elif mode == "500":
            self.send(500, b"Internal Server Error", "text/plain")
        elif mode == "html":
            self.send(200, HTML, "text/html; charset=utf-8")
        elif mode == "garbage":
            self.send(200, os.urandom(2000), "application/octet-stream")
        elif mode == "empty":
            self.send(200, EMPTY)
        elif mode == "hang":
            self.record(0)
            time.sleep(30)
        elif mode == "huge":
            self.record(200)
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.end_headers()
            chunk = b"BEGIN:VCALENDAR\r\n" + b"X-PAD:" + b"x" * 65000 + b"\r\n"
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                pass
        elif mode == "redirect-http":
            self.send(302, b"", "text/plain", [("Location", "http://127.0.0.1:%d/feed.ics" % self.server.server_port)])
        elif mode == "close":
            self.record(0)
            self.close_connection = True
            self.connection.shutdown(2)
        elif mode == "partial":
            body = read("feed.ics")
            self.send(200, body[: int(read("cut", b"0") or 0)])
        elif mode == "loop":
            self.send(302, b"", "text/plain", [("Location", self.path)])
        else:
            self.send(418, b"unknown mode", "text/plain")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if "--cert" in sys.argv:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[sys.argv.index("--cert") + 1], sys.argv[sys.argv.index("--key") + 1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    tmp = os.path.join(DIR, "port.tmp")
    with open(tmp, "w") as f:
        f.write(str(server.server_port))
    os.rename(tmp, os.path.join(DIR, "port"))
    server.serve_forever()


if __name__ == "__main__":
    main()
