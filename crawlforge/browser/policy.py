"""Which requests go to the browser, and which requests a rendered page makes are aborted.

Plain data in, decisions out: no Scrapy, no browser, no I/O (the caller resolves names).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from crawlforge.extract.netguard import parse_host, refusal

RENDER_MODES = ("never", "auto", "always")
# Fetched plainly even with render=always: a browser would wrap them in a viewer page.
PLAIN_EXTENSIONS = frozenset({
    "xml", "gz", "txt", "json", "csv", "rss", "atom", "pdf", "zip", "png", "jpg", "jpeg",
    "gif", "webp", "svg", "ico", "mp3", "mp4", "webm", "woff", "woff2", "css", "js",
})
RENDER_KEY = "crawlforge_render"  # meta: False keeps a request off the browser
# meta: after load, wait for {"selector": CSS} to be attached (else fail) or, with no selector,
# for network idle (else take the page as it is), up to "timeout_ms"
WAIT_KEY = "crawlforge_wait"


def render_mode(value) -> str:
    """``never``, ``auto`` or ``always``; anything else is a mistake worth stopping for."""
    mode = str(value or "auto").strip().lower()
    if mode not in RENDER_MODES:
        raise ValueError(f"render must be one of {', '.join(RENDER_MODES)}, not {value!r}")
    return mode


def renderable(url: str, meta: dict) -> bool:
    """Whether ``render=always`` sends this request to the browser: not robots.txt, not a
    file a browser does not render as a page, not opted out with ``meta["crawlforge_render"]``."""
    if meta.get(RENDER_KEY) is False or meta.get("dont_obey_robotstxt"):
        return False
    name = urlsplit(url).path.lower().rsplit("/", 1)[-1]
    return "." not in name or name.rsplit(".", 1)[-1] not in PLAIN_EXTENSIONS


def host_listed(host: str, hosts) -> bool:
    """``host`` is one of ``hosts`` or a subdomain of one."""
    host = host.lower().rstrip(".")
    return any(host == h or host.endswith("." + h) for h in hosts)


@dataclass(frozen=True)
class PagePolicy:
    """What a rendered page may load. ``allowed`` is the SSRF guard's allow-list (None: off)."""

    block_types: frozenset = frozenset({"image", "media", "font"})
    block_hosts: tuple = ()
    allowed: tuple | None = ()

    def abort_reason(self, url: str, resource_type: str, navigation: bool) -> str | None:
        """Why the page must not make this request (``resource/image``, ``host``, ``ssrf``),
        known before any DNS lookup; None to let it through (names still need ``refused``)."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
            return None  # data:, blob:, about: never leave the browser
        if self.allowed is not None and refusal(parts.hostname, allowed=self.allowed):
            return "ssrf"
        if navigation:
            return None
        if resource_type in self.block_types:
            return f"resource/{resource_type}"
        return "host" if host_listed(parts.hostname, self.block_hosts) else None

    def needs_lookup(self, url: str) -> str | None:
        """The host name to resolve before the guard can pass this URL, or None."""
        host = urlsplit(url).hostname
        if self.allowed is None or not host or parse_host(host) is not None:
            return None
        return host

    def refused(self, host: str, addresses) -> str | None:
        """A sentence saying why ``host``, resolved to ``addresses``, is refused, or None."""
        return refusal(host, addresses, self.allowed or ())
