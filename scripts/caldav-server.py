#!/usr/bin/env python3
"""A CalDAV server for focus's tests: Radicale (https://radicale.org), on loopback.

Usage: caldav-server.py DIR USER PASSWORD

Keeps its collections in DIR/collections, one login (USER, PASSWORD; htpasswd with plain
passwords), each user owning only their own calendars. Listens on a free port of 127.0.0.1
chosen when it binds (port 0) and writes that port to DIR/port once listening, so two
servers never race for one. Runs until killed.
"""
import os
import sys

from radicale import config, log, server

DIR, USER, PASSWORD = sys.argv[1], sys.argv[2], sys.argv[3]

users = os.path.join(DIR, "users")
with open(users, "w") as f:
    f.write("%s:%s\n" % (USER, PASSWORD))

configuration = config.load()
configuration.update({
    # Radicale refuses port 0 here; `announce` binds port 0 in its place.
    "server": {"hosts": "127.0.0.1:1"},
    "auth": {"type": "htpasswd", "htpasswd_filename": users, "htpasswd_encryption": "plain", "delay": "0"},
    "rights": {"type": "owner_only"},
    "storage": {"filesystem_folder": os.path.join(DIR, "collections")},
    # RADICALE_LOG_LEVEL=info logs each request ("PROPFIND request for ..."): benchmarks count them.
    "logging": {"level": os.environ.get("RADICALE_LOG_LEVEL", "warning")},
}, "caldav-server.py")
if "RADICALE_LOG_LEVEL" in os.environ:
    log.setup()
    log.set_level(os.environ["RADICALE_LOG_LEVEL"], False)

# The port is known once the server socket is bound and listening: written then (a
# connection made before the main loop starts waits in the listen queue).
bind = server.ParallelHTTPServer.__init__


def announce(self, configuration, family, address, handler):
    bind(self, configuration, family, (address[0], 0), handler)
    with open(os.path.join(DIR, "port.tmp"), "w") as f:
        f.write(str(self.server_address[1]))
    os.rename(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))


server.ParallelHTTPServer.__init__ = announce
server.serve(configuration)
