"""URLs: the one module that resolves them, and URL hygiene for links and images in content.

Two readings, each for its own reader: ``safe_url`` is the WHATWG parse (ada-url, the browser's
``new URL``), which the templates and page helpers follow to the letter of their specification;
``clean_url``/``base_url`` resolve a page's links for its markdown keeping the spelling the page
used (no percent-encoding or punycode added), which is what a reader of the text expects.

Links in markdown should work outside the page: absolute, without the fragment (it points into
the old page) and without click-tracking parameters (they carry no content and leak campaigns).
"""

import re
from urllib.parse import urljoin, urlsplit

from ada_url import URL
from selectolax.lexbor import LexborHTMLParser
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

TRACKING_PARAMS = (
    "utm_*", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "yclid",
    "mc_cid", "mc_eid", "_hsenc", "_hsmkt", "__hssc", "__hstc", "__hsfp", "hsctatracking",
    "igshid", "ref_src", "ref_url", "twclid", "ttclid", "li_fat_id", "mkt_tok", "_ga", "_gl",
    "oly_anon_id", "oly_enc_id", "vero_id", "wickedid", "rb_clickid", "s_cid", "spm",
)
"""Query parameters dropped from URLs; a trailing `*` matches any name with that prefix."""

_UNLINKABLE = ("javascript:", "data:", "vbscript:", "about:", "blob:")
_UNLINKABLE_CHARS = max(map(len, _UNLINKABLE))


def _split_patterns(params):
    names = frozenset(p.lower() for p in params if not p.endswith("*"))
    prefixes = tuple(p[:-1].lower() for p in params if p.endswith("*"))
    return names, prefixes


_DEFAULT_PATTERNS = _split_patterns(TRACKING_PARAMS)


def strip_tracking(query: str, patterns=_DEFAULT_PATTERNS) -> str:
    """Drops tracking pairs from a raw query string, keeping the others byte-for-byte in order."""
    names, prefixes = patterns
    kept = []
    for pair in query.split("&"):
        key = pair.split("=", 1)[0].lower()
        if pair and key not in names and not (prefixes and key.startswith(prefixes)):
            kept.append(pair)
    return "&".join(kept)


def clean_url(href: str, base: str, tracking_params=TRACKING_PARAMS) -> str | None:
    """Absolute URL without fragment or tracking parameters; None for links that lead nowhere.

    Fragment-only links (`#top`) and script/data URLs give None, so callers can keep the text
    and drop the link.
    """
    href = href.strip()
    if not href or href.startswith("#") or href[:_UNLINKABLE_CHARS].lower().startswith(_UNLINKABLE):
        return None
    absolute = _absolute(href, base)
    if absolute is None:
        return None
    absolute = absolute.split("#", 1)[0]
    if "?" not in absolute:
        return absolute
    patterns = _DEFAULT_PATTERNS if tracking_params is TRACKING_PARAMS else _split_patterns(tracking_params)
    head, query = absolute.split("?", 1)
    query = strip_tracking(query, patterns)
    return f"{head}?{query}" if query else head


def _absolute(href: str, base: str) -> str | None:
    """urljoin with fast paths for the common shapes (absolute, `//host/...`, `/path`)."""
    if href.startswith(("http://", "https://")) or not base:
        return href
    try:
        if href.startswith("//"):
            return base.split(":", 1)[0] + ":" + href
        if href.startswith("/") and base.startswith(("http://", "https://")):
            return _origin(base) + href
        return urljoin(base, href)
    except ValueError:  # e.g. a malformed IPv6 host
        return None


def _origin(base: str) -> str:
    scheme, _, rest = base.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0].split('?', 1)[0].split('#', 1)[0]}"


def base_url(page_url: str, base_href: str | None) -> str:
    """The URL relative links resolve against: `<base href>` (itself relative to the page) wins."""
    if base_href and base_href.strip() and not base_href.strip().lower().startswith(_UNLINKABLE):
        try:
            return urljoin(page_url or "", base_href.strip())
        except ValueError:
            pass
    return page_url or ""


def document_base(tree, page_url: str) -> str:
    """``base_url`` of a parsed page: its first ``<base href>``, else the page's URL."""
    base = tree.css_first("base[href]")
    return base_url(page_url, base.attributes.get("href") if base is not None else None)


# An http(s) URL with a lower-case host, no port, query or fragment and a path of unreserved
# characters, no segment "." or "..": w3lib's safe spelling of it is itself.
_PLAIN_URL = re.compile(r"https?://[a-z0-9]+(?:[.-][a-z0-9]+)*(?:/(?!\.\.?(?:/|\Z))[A-Za-z0-9_.~-]*)*")


def link_targets(tree, page_url: str, encoding: str = "utf-8", base: str | None = None) -> list[str]:
    """The URLs of the page's ``<a href>`` and ``<area href>``, each once, resolved as Scrapy's
    link extractor resolves them (against ``<base href>``, or ``base`` for a piece of a page
    whose head is elsewhere; w3lib's safe spelling in the page's encoding) but from the page's
    one parse: a crawl follows these. Links inside ``<template>`` (menus a script stamps out)
    count too, after the others."""
    base = base or document_base(tree, page_url)
    targets: dict[str, None] = {}
    resolved: dict[str, str | None] = {}  # href -> its URL, once a call: menus repeat their links
    plain = _keeps_empty(encoding)  # an empty query spelled in it is empty: a plain URL is safe as it is
    joins = _joins(base)  # a plain absolute href is its own join then
    origin = _plain_origin(base)  # and a plain path's join is this origin and the path
    for root in (tree, *(LexborHTMLParser(_contents(template.html or "")) for template in tree.css("template"))):
        for node in root.css("a[href], area[href]"):
            href = node.attributes.get("href") or ""
            if href not in resolved:
                try:
                    url = strip_html5_whitespace(href)
                    if not (joins and _PLAIN_URL.fullmatch(url)):
                        rooted = origin + url if origin and url[:1] == "/" and url[1:2] != "/" else ""
                        url = rooted if _PLAIN_URL.fullmatch(rooted) else urljoin(base, url)
                    resolved[href] = url if plain and _PLAIN_URL.fullmatch(url) else safe_url_string(url, encoding=encoding)
                except ValueError:  # a bogus link (an unparsable host or port)
                    resolved[href] = None
            if resolved[href] is not None:
                targets[resolved[href]] = None
    return list(targets)


def _keeps_empty(encoding: str) -> bool:
    """Whether the encoding spells "" as nothing and "a" as itself (not UTF-16's byte-order mark)."""
    try:
        return "".encode(encoding) == b"" and "a".encode(encoding) == b"a"
    except LookupError:  # safe_url_string says so for each link
        return False


def _joins(base: str) -> bool:
    """Whether urljoin reads ``base`` (else it raises for every link)."""
    try:
        urljoin(base, "http://a")
    except ValueError:
        return False
    return True


def _plain_origin(base: str) -> str | None:
    """``scheme://host`` of ``base`` when that is a plain URL (``_PLAIN_URL``), else None."""
    try:
        scheme, netloc = urlsplit(base)[:2]
    except ValueError:
        return None
    return f"{scheme}://{netloc}" if _PLAIN_URL.fullmatch(f"{scheme}://{netloc}") else None


def _contents(template_html: str) -> str:
    """What a ``<template>`` holds (parsed with its tags, it would be a template again)."""
    return template_html[template_html.find(">") + 1 : template_html.rfind("</")]


def safe_url(url, base: str | None = None) -> URL | None:
    """WHATWG-parsed URL (``new URL(url, base)``), or None when either does not parse."""
    if not url or not isinstance(url, str):
        return None
    try:
        return URL(url, base) if base is not None else URL(url)
    except ValueError:
        return None
