"""A local HTTP server for tests, the demo and benchmarks: serves a folder on 127.0.0.1, with
fault modes chosen by path prefix so a crawl can meet every failure a real site has.

Run by hand: ``python -m crawlforge.testing.server --root fixtures/demo --port 8000``.

Fault modes (``<rest>`` is a path under the root, served after the fault is applied):

- ``/_status/<code>/<rest>``: serve with that status (an empty body when ``<rest>`` is empty)
- ``/_slow/<seconds>/<rest>``: wait, then serve
- ``/_redirect/<n>/<rest>``: a chain of ``n`` 302 redirects ending at ``/<rest>``
- ``/_redirect_to?url=<target>[&status=<code>]``: one redirect (302 unless told) to any URL
- ``/_loop/<name>``: redirects forever
- ``/_headers/<Name=Value;Name=Value>/<rest>``: serve with these headers set (e.g. Content-Type)
- ``/_charset/<label>/<rest>``: serve as ``text/html; charset=<label>`` (whatever the bytes are)
- ``/_reset/<rest>``: close the connection without an answer
- ``/_big/<bytes>``: an HTML page of that many bytes, with Content-Length;
  ``/_big_chunked/<bytes>``: the same streamed without Content-Length
- ``/_paged/<file.json>/<anything>?limit=N&page=P``: page ``P`` of the ``products`` list in a
  captured JSON file, ``N`` a page (default 30), as a Shopify storefront pages its collections
- ``/_gen/<total>/<i>``: page ``i`` of a generated site of ``total`` pages, each linking to a
  few others (for benchmarks)
- ``/_sitemap/<total>/<per>/index.xml``: a sitemap index of the ``/_gen/<total>`` site, one
  child sitemap per ``per`` pages; ``/_sitemap/<total>/<per>/<k>.xml`` (or ``.xml.gz``,
  gzipped) is child ``k``, a urlset with ``lastmod`` (day ``i % 28 + 1`` of January 2026)
- ``/_etag/<rest>``: serve with ``ETag`` and ``Last-Modified`` from the file, ``Cache-Control:
  max-age=0, must-revalidate``, and answer ``304`` to a matching ``If-None-Match`` / ``If-Modified-Since``
- ``/_throttle/<code>/<n>/<seconds>/<rest>``: the first ``n`` requests for this path get
  ``<code>`` (429 or 503) with ``Retry-After: <seconds>``, later ones the file
- ``/_junk/<bytes>``: that many pseudo-random bytes (the same every time) served as ``text/html``
- ``/_sitemap_chain/<depth>/<k>.xml``: a chain of sitemap indexes, each naming the next, ending
  after ``depth`` levels in a urlset of one ``/_gen/1/0`` page
- ``/_log``: the access log as JSON (method, path, time, headers); ``/_log/clear`` empties it

``server.failing[path] = (status, n)``: the next ``n`` requests for ``path`` (say ``/robots.txt``,
which no path prefix can reach) get ``status`` with an empty body. ``server.hanging[path] =
seconds``: every request for ``path`` waits that long, then the connection closes without an
answer (a server that accepts and never answers). ``server.gate = Gate(test, agents)``: requests
whose path passes ``test`` wait until ``agents`` different User-Agents have sent one, so a test
can know that that many clients were at work at once, however a busy machine schedules them.
"""

from __future__ import annotations

import argparse
import email.utils
import gzip
import hashlib
import json
import mimetypes
import random
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

GENERATED_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Generated page {i}</title>
<meta name="description" content="Page {i} of a generated site of {total} pages">
<script type="application/ld+json">{{"@context": "https://schema.org", "@type": "Article",
"headline": "Generated page {i}", "author": {{"@type": "Person", "name": "Bench"}}}}</script>
</head><body><header><nav>{nav}</nav></header>
<main><article><h1>Generated page {i}</h1>{paragraphs}</article></main>
<footer><p>Footer of page {i}</p></footer></body></html>"""

PARAGRAPH = ("<p>Paragraph {n} of page {i}. Crawlers turn pages like this one into markdown "
             "with their structured data as frontmatter, so that search indexes and language "
             "models read the content without the navigation around it.</p>")


def generated_page(total: int, i: int) -> bytes:
    links = sorted({(i * 7 + k * 13) % total for k in range(1, 6)} | {(i + 1) % total})
    nav = " ".join(f'<a href="/_gen/{total}/{j}">Page {j}</a>' for j in links)
    paragraphs = "".join(PARAGRAPH.format(n=n, i=i) for n in range(8))
    return GENERATED_PAGE.format(i=i, total=total, nav=nav, paragraphs=paragraphs).encode()


SITEMAP_INDEX = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}</sitemapindex>\n')
URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}</urlset>\n')


def generated_sitemap(base_url: str, total: int, per: int, name: str) -> bytes | None:
    """The index (``index.xml``) or child ``<k>.xml`` of a sitemap of the ``/_gen`` site."""
    if name == "index.xml":
        children = range(-(-total // per))
        entries = "".join(f"<sitemap><loc>{base_url}/_sitemap/{total}/{per}/{k}.xml.gz</loc></sitemap>\n"
                          for k in children)
        return SITEMAP_INDEX.format(entries).encode()
    k = int(name.split(".")[0])
    pages = range(k * per, min(total, (k + 1) * per))
    entries = "".join(f"<url><loc>{base_url}/_gen/{total}/{i}</loc><lastmod>2026-01-{i % 28 + 1:02d}"
                      f"</lastmod></url>\n" for i in pages)
    return URLSET.format(entries).encode() if pages else None


class Gate:
    """Holds the requests whose path passes ``test`` until ``agents`` different User-Agents have
    sent one; after ``seconds`` a request goes on anyway, so a client that never comes fails the
    test's own assertion instead of hanging it."""

    def __init__(self, test: Callable[[str], bool], agents: int, seconds: float = 60):
        self.test, self.agents, self.seconds = test, agents, seconds
        self.seen: set[str] = set()
        self.opened = threading.Condition()

    def wait(self, path: str, agent: str) -> None:
        if not self.test(path):
            return
        with self.opened:
            self.seen.add(agent)
            self.opened.notify_all()
            self.opened.wait_for(lambda: len(self.seen) >= self.agents, self.seconds)


class FixtureHandler(BaseHTTPRequestHandler):
    server: FixtureServer
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: with Nagle's algorithm the body waits for the
    # client's delayed ACK of the headers, ~40 ms per keep-alive response.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # the access log is kept in memory instead
        pass

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        self.server.record(self)
        path = urlsplit(self.path).path
        if self.server.gate:
            self.server.gate.wait(path, self.headers.get("User-Agent", ""))
        if status := self.server.failure_for(path):
            return self.send_body(status, b"", "text/html")
        if path in self.server.hanging:
            time.sleep(self.server.hanging[path])
            return self.mode_reset([])
        parts = [unquote(part) for part in path.lstrip("/").split("/")]
        mode = parts[0] if parts and parts[0].startswith("_") else None
        handler = getattr(self, f"mode{mode}", None) if mode else None
        if mode and handler is None:
            return self.send_body(404, b"unknown fault mode", "text/plain")
        if handler:
            return handler(parts[1:])
        return self.serve_file(unquote(path))

    # -- plain files ----------------------------------------------------------------------
    def serve_file(self, path: str, status: int = 200, headers: dict | None = None):
        file = self.server.resolve(path)
        if file is None:
            return self.send_body(404 if status == 200 else status, b"<html><body><h1>Not Found</h1></body></html>",
                                  "text/html", headers)
        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if file.suffix in (".html", ".htm"):
            content_type = "text/html"
        self.send_body(status, file.read_bytes(), content_type, headers)

    def send_body(self, status: int, body: bytes, content_type: str, headers: dict | None = None):
        headers = {"Content-Type": content_type, "Content-Length": str(len(body)), **(headers or {})}
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def rest(self, parts: list[str]) -> str:
        return "/" + "/".join(parts)

    # -- fault modes ----------------------------------------------------------------------
    def mode_status(self, parts):
        code, rest = int(parts[0]), self.rest(parts[1:])
        if rest == "/":
            return self.send_body(code, b"", "text/html")
        self.serve_file(rest, status=code)

    def mode_slow(self, parts):
        time.sleep(float(parts[0]))
        self.serve_file(self.rest(parts[1:]))

    def mode_redirect(self, parts):
        hops, rest = int(parts[0]), self.rest(parts[1:])
        target = f"/_redirect/{hops - 1}{rest}" if hops > 1 else rest
        self.send_body(302, b"", "text/html", {"Location": target})

    def mode_redirect_to(self, parts):
        query = parse_qs(urlsplit(self.path).query)
        self.send_body(int(query.get("status", ["302"])[0]), b"", "text/html", {"Location": query.get("url", ["/"])[0]})

    def mode_loop(self, parts):
        name = parts[0] if parts else "loop"
        self.send_body(302, b"", "text/html", {"Location": f"/_loop/{name}"})

    def mode_headers(self, parts):
        pairs = (item.split("=", 1) for item in parts[0].split(";") if "=" in item)
        self.serve_file(self.rest(parts[1:]), headers=dict(pairs))

    def mode_charset(self, parts):
        self.serve_file(self.rest(parts[1:]), headers={"Content-Type": f"text/html; charset={parts[0]}"})

    def mode_reset(self, parts):
        self.close_connection = True
        self.connection.shutdown(2)

    def mode_big(self, parts):
        self.send_body(200, self.big_body(int(parts[0])), "text/html")

    def mode_big_chunked(self, parts):
        body = self.big_body(int(parts[0]))
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for start in range(0, len(body), 64 * 1024):
            chunk = body[start:start + 64 * 1024]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        self.wfile.write(b"0\r\n\r\n")

    @staticmethod
    def big_body(size: int) -> bytes:
        head, tail = b"<html><body><p>", b"</p></body></html>"
        return head + b"x" * max(0, size - len(head) - len(tail)) + tail

    def mode_paged(self, parts):
        json_end = next(i for i, part in enumerate(parts) if part.endswith(".json")) + 1
        file = self.server.resolve(self.rest(parts[:json_end]))
        query = parse_qs(urlsplit(self.path).query)
        limit, page = int(query.get("limit", ["30"])[0]), int(query.get("page", ["1"])[0])
        products = json.loads(file.read_bytes())["products"]
        body = json.dumps({"products": products[(page - 1) * limit:page * limit]}).encode()
        self.send_body(200, body, "application/json; charset=utf-8")

    def mode_gen(self, parts):
        total, i = int(parts[0]), int(parts[1])
        if not 0 <= i < total:
            return self.send_body(404, b"", "text/html")
        self.send_body(200, generated_page(total, i), "text/html; charset=utf-8")

    def mode_sitemap(self, parts):
        total, per, name = int(parts[0]), int(parts[1]), parts[2]
        body = generated_sitemap(self.server.base_url, total, per, name.removesuffix(".gz"))
        if body is None:
            return self.send_body(404, b"", "text/plain")
        if name.endswith(".gz"):
            return self.send_body(200, gzip.compress(body, mtime=0), "application/x-gzip")
        self.send_body(200, body, "application/xml")

    def mode_etag(self, parts):
        file = self.server.resolve(self.rest(parts))
        if file is None:
            return self.serve_file(self.rest(parts))
        body = file.read_bytes()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        modified = email.utils.formatdate(int(file.stat().st_mtime), usegmt=True)
        headers = {"ETag": etag, "Last-Modified": modified, "Cache-Control": "max-age=0, must-revalidate"}
        since = self.headers.get("If-Modified-Since")
        if self.headers.get("If-None-Match") == etag or (
                since and "If-None-Match" not in self.headers
                and email.utils.parsedate_to_datetime(since).timestamp() >= int(file.stat().st_mtime)):
            self.send_response(304)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            return self.end_headers()
        self.send_body(200, body, "text/html", headers)

    def mode_throttle(self, parts):
        code, times, seconds = int(parts[0]), int(parts[1]), parts[2]
        if self.server.count(self.path) <= times:
            return self.send_body(code, b"slow down", "text/plain", {"Retry-After": seconds})
        self.serve_file(self.rest(parts[3:]))

    def mode_junk(self, parts):
        self.send_body(200, random.Random(0).randbytes(int(parts[0])), "text/html")

    def mode_sitemap_chain(self, parts):
        depth, k = int(parts[0]), int(parts[1].split(".")[0])
        if k < depth:
            entry = f"<sitemap><loc>{self.server.base_url}/_sitemap_chain/{depth}/{k + 1}.xml</loc></sitemap>\n"
            return self.send_body(200, SITEMAP_INDEX.format(entry).encode(), "application/xml")
        entry = f"<url><loc>{self.server.base_url}/_gen/1/0</loc></url>\n"
        self.send_body(200, URLSET.format(entry).encode(), "application/xml")

    def mode_log(self, parts):
        if parts and parts[0] == "clear":
            self.server.access_log.clear()
        self.send_body(200, json.dumps(self.server.access_log).encode(), "application/json")


class FixtureServer(ThreadingHTTPServer):
    """``FixtureServer(root).start()`` serves ``root`` on 127.0.0.1 in a background thread."""

    daemon_threads = True

    def __init__(self, root: str | Path, port: int = 0, host: str = "127.0.0.1"):
        super().__init__((host, port), FixtureHandler)
        self.root = Path(root).resolve()
        self.access_log: list[dict] = []
        self.counts: dict[str, int] = {}
        self.failing: dict[str, tuple[int, int]] = {}  # path -> (status, requests left)
        self.hanging: dict[str, float] = {}  # path -> seconds before hanging up without an answer
        self.gate: Gate | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str = "/") -> str:
        return self.base_url + "/" + path.lstrip("/")

    def resolve(self, path: str) -> Path | None:
        """The file under the root for a URL path (``index.html`` for folders), or None."""
        file = (self.root / path.lstrip("/")).resolve()
        if file.is_dir():
            file = file / "index.html"
        if not file.is_relative_to(self.root) or not file.is_file():
            return None
        return file

    def handle_error(self, request, client_address):
        """A client that hangs up (or the reset fault mode) is part of the job, not an error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def record(self, handler: BaseHTTPRequestHandler):
        with self._lock:
            self.access_log.append({"method": handler.command, "path": handler.path, "time": time.time(),
                                    "headers": dict(handler.headers.items())})

    def failure_for(self, path: str) -> int | None:
        """The status ``failing`` holds for this request of ``path``, or None."""
        with self._lock:
            status, left = self.failing.get(path, (None, 0))
            if not left:
                return None
            self.failing[path] = (status, left - 1)
            return status

    def count(self, path: str) -> int:
        """How many times ``path`` was asked for, this request included."""
        with self._lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            return self.counts[path]

    def start(self) -> FixtureServer:
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self.shutdown()
        self.server_close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="fixtures", help="folder to serve")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--port-file", help="write the chosen port to this file")
    args = parser.parse_args(argv)
    server = FixtureServer(args.root, args.port)
    if args.port_file:
        Path(args.port_file).write_text(str(server.server_address[1]))
    print(f"Serving {server.root} at {server.base_url}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
