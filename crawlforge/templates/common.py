"""Helpers shared by every template: JS-compatible strings, dates, URLs and DOM reads.

The JS value semantics (whitespace, truthiness, ``String``/``Number``/``parseFloat``,
``toISOString``, the href filter) live in ``crawlforge.extract.state.jsutil``, and the page parse and
cheerio's ``.text()`` in ``crawlforge.extract.dom`` (shared with the page helpers); both are
re-exported here. This module adds what only templates need: ``JSON.parse`` of a body,
``encodeURIComponent``, the WHATWG URL parser (ada-url) and cheerio-like selector reads.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timezone
from urllib.parse import quote

from ada_url import URL
from selectolax.lexbor import LexborHTMLParser, LexborNode

from crawlforge.extract.content.urls import safe_url  # noqa: F401  (re-exported for the template modules)
from crawlforge.extract.dom import as_document, node_text  # noqa: F401  (re-exported for the template modules)
from crawlforge.extract.state.jsjson import loads
from crawlforge.extract.state.jsutil import (  # noqa: F401  (re-exported for the template modules)
    JS_WHITESPACE,
    NOT_WS,
    WS,
    first_not_none,
    first_truthy,
    is_integer,
    is_number,
    iso_from_ms,
    js_number_str,
    js_parse_float,
    js_parse_int,
    js_string,
    js_to_fixed,
    js_to_number,
    js_trim,
    js_truthy,
    safe_href,
    tidy,
)

# --- JS values ---------------------------------------------------------------------------


def load_json(body):
    """``JSON.parse`` of a body (str or UTF-8 bytes); ValueError when it is not JSON."""
    if isinstance(body, (bytes, bytearray)):
        body = bytes(body).decode("utf-8-sig", errors="replace")
    if not isinstance(body, str):
        raise ValueError("body is not text")
    return loads(body)


def html_to_text(html) -> str | None:
    """Text of an HTML fragment (entities decoded, tags dropped), tidied; falsy in, None out."""
    if not js_truthy(html):
        return None
    parser = LexborHTMLParser(f"<div>{js_string(html)}</div>")
    return tidy(node_text(parser.body)) if parser.body is not None else None


# --- dates -------------------------------------------------------------------------------


def iso_now() -> str:
    """The current time as ``toISOString()`` writes it."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def epoch_to_iso(seconds) -> str | None:
    """Epoch seconds (a finite number only; strings are not coerced) as ISO with ms."""
    if not is_number(seconds) or not math.isfinite(seconds):
        return None
    return iso_from_ms(math.trunc(seconds * 1000))


# --- URLs --------------------------------------------------------------------------------


def path_match(url, pattern: re.Pattern) -> tuple[URL | None, re.Match | None]:
    """The parsed URL and ``pattern`` searched in its path (None, None when it does not parse):
    how a template finds the id in a page URL it rewrites to its endpoint."""
    parsed = safe_url(url)
    return parsed, pattern.search(parsed.pathname) if parsed is not None else None


def encode_uri_component(value) -> str:
    """``encodeURIComponent``: Python's ``quote`` would escape ``!*'()`` too."""
    return quote(js_string(value), safe="-_.!~*'()")


# --- DOM (cheerio-like reads on selectolax/lexbor) ----------------------------------------

Doc = LexborHTMLParser | LexborNode


def find_all(doc: Doc, selector: str) -> list[LexborNode]:
    """Matches in document order; from a node, descendants only (as cheerio's ``find``)."""
    matches = doc.css(selector)
    if isinstance(doc, LexborNode):
        matches = [m for m in matches if m.mem_id != doc.mem_id]
    return matches


def find_first(doc: Doc, selector: str) -> LexborNode | None:
    """First match in document order, or None."""
    matches = find_all(doc, selector)
    return matches[0] if matches else None


def text(doc: Doc, selector: str) -> str | None:
    """Trimmed text of the first match; None when absent or empty."""
    return js_trim(node_text(find_first(doc, selector))) or None


def attr(doc: Doc, selector: str, name: str) -> str | None:
    """Attribute of the first match; None when absent or empty."""
    node = find_first(doc, selector)
    return (node.attributes.get(name) or None) if node is not None else None


def list_text(doc: Doc, selector: str) -> list[str]:
    """Trimmed text of every match, empty strings dropped."""
    return [t for t in (js_trim(node_text(n)) for n in find_all(doc, selector)) if t]


def list_attr(doc: Doc, selector: str, name: str) -> list[str]:
    """Attribute of every match, empty or missing dropped."""
    return [v for v in (n.attributes.get(name) for n in find_all(doc, selector)) if v]


def meta_content(doc: Doc, selector: str) -> str | None:
    """``content`` of the first matching ``<meta>`` (e.g. ``meta[property="og:title"]``)."""
    return attr(doc, selector, "content")
