"""A page's links as records, and its link and image URLs made absolute (docs/templates.md
§5.10, §5.11).

URLs are parsed the WHATWG way (ada-url, as the browser's ``new URL``), not with ``urljoin``: the
records' ``href`` and the dedupe key must be the serialisation a browser gives.
"""

from __future__ import annotations

import re

from ada_url import URL
from selectolax.lexbor import LexborHTMLParser, LexborNode

from crawlforge.extract.content.urls import safe_url
from crawlforge.extract.dom import Document, as_document, node_text
from crawlforge.extract.state.jsutil import js_trim, safe_href, tidy

KEPT_OTHER_SCHEMES = frozenset(("mailto:", "tel:"))
"""Non-web schemes whose href a record keeps: following them runs nothing."""

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def extract_link_records(
    doc: Document,
    page_url: str | None = None,
    base_url: str | None = None,
    include_anchors: bool = False,
    dedupe: bool = True,
) -> list[dict]:
    """Every ``<a href>`` as ``{href, text, type, domain, rel, original_href[, title]}``.

    ``type`` is internal/external (same hostname as the page, else the base), ``anchor`` (a
    ``#fragment``, only with ``include_anchors``), ``other`` (non-web schemes: only mailto/tel keep
    an href) or ``relative`` (nothing to resolve against). Links resolve against ``base_url``,
    else ``<base href>``, else the page. Deduped on the URL without fragment or trailing slash.
    """
    document = as_document(doc)
    page = safe_url(page_url)
    base = safe_url(base_url) or _document_base(document, page) or page
    origin = page or base
    host = origin.hostname if origin is not None else None
    records, seen = [], set()
    for anchor in document.css("a[href]"):
        found = _record(anchor, base, host, include_anchors)
        if found is None or (dedupe and found[1] in seen):
            continue
        record, key = found
        seen.add(key)
        title = js_trim(anchor.attributes.get("title") or "")
        if title:
            record["title"] = title
        records.append(record)
    return records


def _record(anchor: LexborNode, base: URL | None, host: str | None, include_anchors: bool):
    """The record of one link and its dedupe key, or None when the link is skipped."""
    raw = js_trim(anchor.attributes.get("href") or "")
    if not raw:
        return None
    text = tidy(node_text(anchor)) or ""
    rel = js_trim(anchor.attributes.get("rel") or "") or None
    if raw.startswith("#"):
        if not include_anchors:
            return None
        return _shape(raw, text, "anchor", None, rel, raw), f"anchor:{raw}"
    url = safe_url(raw, base.href if base is not None else None)
    if url is None:
        if base is not None or _SCHEME.match(raw):
            return None
        return _shape(raw, text, "relative", None, rel, raw), f"relative:{raw}"
    if url.protocol in ("http:", "https:"):
        kind = "internal" if url.hostname == host else "external"
        return _shape(url.href, text, kind, url.hostname, rel, safe_href(raw)), _dedupe_key(url)
    kept = url.protocol in KEPT_OTHER_SCHEMES
    record = _shape(url.href if kept else None, text, "other", None, rel, raw if kept else None)
    return record, f"other:{url.href}"


def _shape(href, text, kind, domain, rel, original_href) -> dict:
    return {
        "href": href, "text": text, "type": kind, "domain": domain, "rel": rel, "original_href": original_href,
    }  # fmt: skip


def _dedupe_key(url: URL) -> str:
    """The URL without its fragment, and without a trailing slash on a non-root path."""
    key = URL(url.href)
    key.hash = ""
    if len(key.pathname) > 1 and key.pathname.endswith("/"):
        key.pathname = key.pathname[:-1]
    return key.href


def _document_base(document: LexborHTMLParser, page: URL | None) -> URL | None:
    """The first ``<base href>`` resolved against the page; an invalid one is ignored."""
    node = document.css_first("base[href]")
    href = node.attributes.get("href") if node is not None else None
    return safe_url(href, page.href if page is not None else None) if href else None


def absolute_urls(doc: Document, page_url: str | None) -> str:
    """Resolves every ``img[src]`` and ``a[href]`` in place and returns the document's HTML.

    The base is ``<base href>`` resolved against ``page_url``, else ``page_url``. ``#anchor``
    links and values that do not resolve stay as written; schemes are not filtered. A parser
    passed in is edited in place.
    """
    document = as_document(doc)
    node = document.css_first("base[href]")
    base_href = (node.attributes.get("href") if node is not None else None) or ""
    base = _resolve(base_href, page_url) or page_url
    for element in document.css("img[src], a[href]"):
        name = "src" if element.tag == "img" else "href"
        value = element.attributes.get(name) or ""
        resolved = None if value.startswith("#") else _resolve(value, base)
        if resolved is not None:
            element.attrs[name] = resolved
    return document.html


def _resolve(value: str, base: str | None) -> str | None:
    """``new URL(value, base).href``; an empty value is the base itself, as in the browser."""
    parsed = safe_url(value, base) if value else safe_url(base)
    return parsed.href if parsed is not None else None
