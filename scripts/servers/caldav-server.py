#!/usr/bin/env python3
"""A CalDAV server for focus's tests: Radicale (https://radicale.org), or Xandikos with
--xandikos, on loopback.

Usage: caldav-server.py DIR USER PASSWORD [--xandikos]

Keeps its collections in DIR/collections, one login (USER, PASSWORD; htpasswd with plain
passwords), each user owning only their own calendars. Listens on a free port of 127.0.0.1
chosen when it binds (port 0) and writes that port to DIR/port once listening, so two
servers never race for one. Runs until killed.
"""
import os
import sys

DIR, USER, PASSWORD = sys.argv[1], sys.argv[2], sys.argv[3]


def announce_port(port):
    with open(os.path.join(DIR, "port.tmp"), "w") as f:
        f.write(str(port))
    os.rename(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))


def xandikos():
    """Xandikos (https://www.xandikos.org), git-backed: the principal /USER/, its calendars
    under /USER/calendars/. It has no login of its own over plain HTTP (a proxy in front of it
    does that), so any user and password are taken."""
    import asyncio
    import logging
    import socket

    from aiohttp import web
    from xandikos.web import SingleUserFilesystemBackend, XandikosApp

    logging.basicConfig(level=os.environ.get("XANDIKOS_LOG_LEVEL", "WARNING"))
    root = os.path.join(DIR, "collections")
    os.makedirs(root, exist_ok=True)
    principal = "/%s/" % USER
    backend = SingleUserFilesystemBackend(root)
    backend._mark_as_principal(principal)
    backend.create_principal(principal, create_defaults=False)
    app = XandikosApp(backend, current_user_principal=principal)

    async def handler(request):
        return await app.aiohttp_handler(request, "/")

    async def serve():
        web_app = web.Application()
        web_app.router.add_route("*", "/{path_info:.*}", handler)
        runner = web.AppRunner(web_app)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        await web.SockSite(runner, sock).start()
        announce_port(sock.getsockname()[1])
        await asyncio.Event().wait()

    asyncio.run(serve())


if len(sys.argv) > 4 and sys.argv[4] == "--xandikos":
    xandikos()
    sys.exit(0)

from radicale import config, log, server  # noqa: E402

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
    announce_port(self.server_address[1])


server.ParallelHTTPServer.__init__ = announce
server.serve(configuration)
