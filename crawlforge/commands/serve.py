"""``scrapy serve [--host 127.0.0.1] [--port 9080] [--mcp]``: the HTTP JSON API for agents and
services (README "Serving agents"), and MCP over streamable HTTP at ``/mcp`` with ``--mcp``.

The first line on stdout is the base URL (``--port 0`` takes a free port). Off loopback the
server starts only with ``CRAWLFORGE_API_TOKEN`` set: it fetches URLs for whoever reaches it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
from typing import Any, ClassVar

import uvicorn
from scrapy.exceptions import UsageError

from crawlforge.serve.command import ServiceCommand
from crawlforge.serve.http import create_app

logger = logging.getLogger(__name__)
BAD_ARGUMENTS = 2


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, bound now so that the printed URL has the real port."""
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class Server(uvicorn.Server):
    """uvicorn on the reactor's loop, leaving the signals to Scrapy: a SIGTERM stops the crawls
    and the reactor, and the server with it."""

    @contextlib.contextmanager
    def capture_signals(self):
        yield


class Command(ServiceCommand):
    default_settings: ClassVar[dict[str, Any]] = {}

    def syntax(self) -> str:
        return "[--host HOST] [--port PORT] [--mcp]"

    def short_desc(self) -> str:
        return "Serve the crawl pipeline as an HTTP JSON API (and MCP with --mcp)"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
        parser.add_argument("--port", type=int, default=9080, help="port to listen on; 0 takes a free one")
        parser.add_argument("--mcp", action="store_true", help="also serve MCP (streamable HTTP) at /mcp")

    def run(self, args, opts):
        if args:
            raise UsageError("scrapy serve takes options only")
        token = self.settings.get("CRAWLFORGE_API_TOKEN") or ""
        if not is_loopback(opts.host) and not token:
            logger.error("serve: listening on %s needs CRAWLFORGE_API_TOKEN (-s CRAWLFORGE_API_TOKEN=...): "
                         "without one anyone who reaches it can make this machine fetch URLs", opts.host)
            self.exitcode = BAD_ARGUMENTS
            return
        try:
            sock = bind(opts.host, opts.port)
        except OSError as error:
            logger.error("serve: cannot listen on %s:%s (%s)", opts.host, opts.port, error)
            self.exitcode = BAD_ARGUMENTS
            return
        print(base_url(sock), flush=True)
        max_body = self.settings.getint("CRAWLFORGE_API_MAX_BODY_BYTES")

        async def main(service):
            mcp_server = None
            if opts.mcp:
                from crawlforge.serve.tools import build_mcp

                mcp_server = build_mcp(service, log_level="WARNING")
            app = create_app(service, max_body, token=token, mcp_server=mcp_server, host=opts.host)
            config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="auto")
            await Server(config).serve(sockets=[sock])

        self.run_service(main)
