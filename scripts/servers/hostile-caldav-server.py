#!/usr/bin/env python3
"""A hostile CalDAV server for focus's tests of the origin rule (README, "What focus promises").

Usage: hostile-caldav-server.py DIR

Listens on two free ports of 127.0.0.1: the account's ("home") and another one ("other"), and
writes "HOME OTHER" to DIR/port once both listen. Every request is logged to DIR/log as one line:
`PORT METHOD PATH auth|-` (auth: an Authorization header came with it). What it answers is read
from DIR/mode at each request (one word, default `ok`), with DIR/arg as its argument:

  ok              a small honest account: principal /p/, home /u/, one calendar /u/cal/ (empty)
  port-redirect   every request on the home port: 307 to the same path on the other port
  foreign-home    the home lists a calendar at http://localhost:OTHER/u/cal/ (and /u/cal/)
  foreign-href    sync and multiget answers name /u/cal/good.ics and ARG (an href elsewhere)
  redirect        every request: 302 to ARG (file:///etc/passwd, gopher://…, http://…)
  xmlns           the principal answer declares ARG namespace prefixes on its root, and has as
                  many elements named with the first one

Runs until killed. Only the Python standard library.
"""
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIR = sys.argv[1]
LOCK = threading.Lock()
PORTS = {}

EVENT = ("BEGIN:VCALENDAR&#13;&#10;VERSION:2.0&#13;&#10;PRODID:-//hostile//EN&#13;&#10;BEGIN:VEVENT&#13;&#10;"
         "UID:{uid}&#13;&#10;DTSTAMP:20261101T000000Z&#13;&#10;DTSTART:20261125T100000Z&#13;&#10;"
         "DTEND:20261125T110000Z&#13;&#10;SUMMARY:{uid}&#13;&#10;END:VEVENT&#13;&#10;END:VCALENDAR&#13;&#10;")


def read(name, default=""):
    try:
        with open(os.path.join(DIR, name)) as f:
            return f.read().strip()
    except OSError:
        return default


def multistatus(inner, declarations=""):
    return ('<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" '
            'xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"'
            + declarations + ">" + inner + "</d:multistatus>")


def response(href, props):
    return (f"<d:response><d:href>{href}</d:href><d:propstat><d:prop>{props}</d:prop>"
            "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")


CALENDAR = ("<d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>{name}</d:displayname>"
            '<c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set>'
            "<d:sync-token>t1</d:sync-token><d:supported-report-set><d:supported-report><d:report><d:sync-collection/>"
            "</d:report></d:supported-report></d:supported-report-set>")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def xml(self, text):
        self.answer(207, text.encode(), [("Content-Type", "application/xml; charset=utf-8")])

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        port = self.server.server_address[1]
        with LOCK, open(os.path.join(DIR, "log"), "a") as f:
            f.write(f"{port} {self.command} {self.path} {'auth' if self.headers.get('Authorization') else '-'}\n")
        mode, arg = read("mode", "ok") or "ok", read("arg")
        home, other = PORTS["home"], PORTS["other"]
        if mode == "redirect":
            return self.answer(302, headers=[("Location", arg)])
        if mode == "port-redirect" and port == home:
            return self.answer(307, headers=[("Location", f"http://127.0.0.1:{other}{self.path}")])
        path = self.path.split("?")[0]
        if self.command in ("PUT", "DELETE", "MKCALENDAR"):
            return self.answer(201 if self.command != "DELETE" else 204, headers=[("ETag", '"1"')])
        if self.command == "PROPFIND" and path in ("/", "/p/", "/.well-known/caldav"):
            count = int(arg or 0) if mode == "xmlns" else 0
            declarations = "".join(f' xmlns:p{i}="urn:x:{i}"' for i in range(count))
            # As many elements as declarations, each named with the prefix declared first: a
            # reader that searches its declarations one by one takes count² steps.
            filler = "<d:x/>" * count
            return self.xml(multistatus(response(path, "<d:current-user-principal><d:href>/p/</d:href></d:current-user-principal>"
                                                       "<c:calendar-home-set><d:href>/u/</d:href></c:calendar-home-set>" + filler), declarations))
        if self.command == "PROPFIND" and path == "/u/":
            inner = response("/u/", "<d:resourcetype><d:collection/></d:resourcetype>") + response("/u/cal/", CALENDAR.format(name="Cal"))
            if mode == "foreign-home":
                inner += response(f"http://localhost:{other}/u/cal/", CALENDAR.format(name="Trap"))
            return self.xml(multistatus(inner))
        if self.command == "PROPFIND" and path.startswith("/u/cal"):
            return self.xml(multistatus(response("/u/cal/", CALENDAR.format(name="Cal"))))
        if self.command == "REPORT":
            hrefs = ["/u/cal/good.ics"] + ([arg] if mode == "foreign-href" else [])
            if "sync-collection" in body:
                inner = "".join(response(h, '<d:getetag>"1"</d:getetag>') for h in hrefs)
                return self.xml(multistatus(inner + "<d:sync-token>t2</d:sync-token>"))
            inner = "".join(response(h, f'<d:getetag>"1"</d:getetag><c:calendar-data>{EVENT.format(uid=h.rsplit("/", 1)[-1])}</c:calendar-data>')
                            for h in hrefs if h in body or "calendar-query" in body)
            return self.xml(multistatus(inner))
        return self.answer(404)

    do_GET = do_PROPFIND = do_REPORT = do_PUT = do_DELETE = do_MKCALENDAR = do_OPTIONS = handle_any


def main():
    servers = {}
    for name in ("home", "other"):
        servers[name] = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        PORTS[name] = servers[name].server_address[1]
    for s in servers.values():
        threading.Thread(target=s.serve_forever, daemon=True).start()
    with open(os.path.join(DIR, "port.new"), "w") as f:
        f.write(f"{PORTS['home']} {PORTS['other']}\n")
    os.rename(os.path.join(DIR, "port.new"), os.path.join(DIR, "port"))
    threading.Event().wait()


if __name__ == "__main__":
    main()
