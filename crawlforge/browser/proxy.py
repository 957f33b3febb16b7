"""The browser's only way out: a local HTTP proxy that vets every request before it leaves.

Playwright routes the first request of a redirect chain only, and Chromium follows a 301/302/307
by itself, so a route cannot stop a hop to a private address before it is sent. Chromium is
therefore launched with this proxy (Playwright sends loopback through it too): each request,
redirect hops included, names its host here (``GET http://host/...`` or ``CONNECT host:443``),
the host is resolved and vetted by the SSRF guard's ``PagePolicy``, and the proxy connects to the
vetted address itself, so a rebinding DNS server cannot win a second lookup. A refused request
gets a 403 with ``REFUSED_HEADER`` and never leaves the machine.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from contextlib import suppress
from urllib.parse import urlsplit

from crawlforge.browser.policy import PagePolicy
from crawlforge.extract.netguard import parse_host

logger = logging.getLogger(__name__)
REFUSED_HEADER = "X-Crawlforge-Refused"  # on the proxy's 403: why the request was not sent
MAX_HEAD = 64 * 1024  # request or response head; a longer one is no browser's
HOP_HEADERS = ("connection", "proxy-connection", "keep-alive")
CHUNK = 64 * 1024


def split_target(method: str, target: str) -> tuple[str, str, int] | None:
    """(URL, host, port) of a proxy request line's target, or None when it is not one."""
    if method == "CONNECT":
        parts = urlsplit(f"//{target}")
        return (f"https://{target}/", parts.hostname, parts.port or 443) if parts.hostname else None
    parts = urlsplit(target)
    if parts.scheme != "http" or not parts.hostname:
        return None
    return target, parts.hostname, parts.port or 80


def rewrite_head(lines: list[str], first: str) -> bytes:
    """A message head without hop-by-hop headers, one exchange per connection (``Connection:
    close``) unless it upgrades (a WebSocket keeps its connection)."""
    upgrade = any(line.lower().startswith("upgrade:") for line in lines)
    kept = [line for line in lines if line.split(":", 1)[0].strip().lower() not in HOP_HEADERS]
    kept.append("Connection: upgrade" if upgrade else "Connection: close")
    return ("\r\n".join([first, *kept]) + "\r\n\r\n").encode("latin-1")


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with suppress(ConnectionError, asyncio.IncompleteReadError):
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()


class VettingProxy:
    """``await proxy.start()`` listens on 127.0.0.1 and returns its URL; counts
    ``browser/proxy/refused`` and ``browser/proxy/requests``."""

    def __init__(self, policy: PagePolicy, stats):
        self.policy = policy
        self.stats = stats
        self.server: asyncio.base_events.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0, limit=MAX_HEAD)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None

    async def vetted_address(self, host: str) -> tuple[str | None, str | None]:
        """(address to connect to, None), or (None, why the guard refuses the host); an
        OSError when the name does not resolve. An address needs no lookup: the lookups of
        Chromium's own background requests can hold every resolver thread."""
        if (address := parse_host(host)) is not None:
            addresses = [str(address)]
        else:
            infos = await asyncio.get_running_loop().getaddrinfo(host.strip("[]"), None, type=socket.SOCK_STREAM)
            addresses = list(dict.fromkeys(info[4][0] for info in infos))
        if reason := self.policy.refused(host, addresses):
            return None, reason
        return addresses[0], None

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = None
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            first, *lines = head.rstrip("\r\n").split("\r\n")
            method, target, version = first.split(" ", 2)
            if (split := split_target(method, target)) is None:
                return self.answer(writer, 400, "Bad Request", "not a proxy request")
            url, host, port = split
            self.stats.inc_value("browser/proxy/requests")
            address, refused = await self.vetted_address(host)
            if refused:
                self.stats.inc_value("browser/proxy/refused")
                logger.warning("Browser request to %s refused before it left: %s", url, refused)
                return self.answer(writer, 403, "Forbidden", refused, {REFUSED_HEADER: refused})
            up_reader, upstream = await asyncio.open_connection(address, port, limit=MAX_HEAD)
            if method == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
                return await self.relay(reader, writer, up_reader, upstream)
            parts = urlsplit(target)
            origin_form = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            upstream.write(rewrite_head(lines, f"{method} {origin_form} {version}"))
            response_head = (await up_reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            status_line, *response_lines = response_head.rstrip("\r\n").split("\r\n")
            writer.write(rewrite_head(response_lines, status_line))
            await self.relay(reader, writer, up_reader, upstream)
        except OSError as exc:  # the name does not resolve, or the server is not there
            self.answer(writer, 502, "Bad Gateway", str(exc))
        except (ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            logger.debug("Browser proxy: %s", exc)
        finally:
            for stream in (upstream, writer):
                if stream is not None:
                    stream.close()

    @staticmethod
    async def relay(reader, writer, up_reader, upstream) -> None:
        """Both directions until the server is done (or either side hangs up)."""
        outgoing = asyncio.ensure_future(pipe(reader, upstream))
        try:
            await pipe(up_reader, writer)
        finally:
            outgoing.cancel()

    @staticmethod
    def answer(writer: asyncio.StreamWriter, status: int, phrase: str, detail: str, headers=None) -> None:
        body = f"crawlforge: {detail}\n".encode()
        head = {**(headers or {}), "Content-Type": "text/plain", "Content-Length": len(body), "Connection": "close"}
        lines = "".join(f"{name}: {value}\r\n" for name, value in head.items())
        writer.write(f"HTTP/1.1 {status} {phrase}\r\n{lines}\r\n".encode("latin-1", "replace") + body)
