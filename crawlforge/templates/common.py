"""Helpers shared by every template: JS-compatible strings, dates, URLs and DOM reads.

The templates reproduce a JavaScript library, so these helpers copy its semantics where Python
differs: JS whitespace (``\\s`` includes U+FEFF, excludes U+001C-U+001F), ``String(value)``,
``toISOString()`` with milliseconds, ``encodeURIComponent`` and the WHATWG URL parser (ada-url).
DOM reads follow cheerio: ``.text()`` is all descendant text, script and style included.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import quote

from ada_url import URL
from selectolax.lexbor import LexborHTMLParser, LexborNode

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
WS = f"[{JS_WHITESPACE}]"  # JS ``\s`` as a Python character class, for patterns
NOT_WS = f"[^{JS_WHITESPACE}]"  # JS ``\S``
_WS_RUN = re.compile(WS + "+")
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_HTTP = re.compile(r"^https?://", re.I)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


# --- JS values ---------------------------------------------------------------------------


def js_trim(value: str) -> str:
    """``String.prototype.trim``: JS whitespace only (Python's ``strip()`` differs)."""
    return value.strip(JS_WHITESPACE)


def is_number(value) -> bool:
    """A JS number: int or float, never bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def js_truthy(value) -> bool:
    """JS truthiness: ``[]`` and ``{}`` are truthy, NaN is not."""
    if value is None or value is False or value == "":
        return False
    if is_number(value):
        return value != 0 and not (isinstance(value, float) and math.isnan(value))
    return True


def first_truthy(*values):
    """JS ``a || b || c``: the first truthy value, else the last one."""
    for value in values:
        if js_truthy(value):
            return value
    return values[-1] if values else None


def js_number_str(value: float) -> str:
    """``String(number)``: shortest round-trip digits laid out the JS way (``1e+21``, ``1e-7``)."""
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    whole, frac, exp = re.fullmatch(r"(\d+)(?:\.(\d+))?(?:e([+-]\d+))?", repr(abs(value))).groups()
    all_digits = whole + (frac or "")
    leading = len(all_digits) - len(all_digits.lstrip("0"))
    digits = all_digits[leading:].rstrip("0")
    return sign + _layout_digits(digits, len(whole) + int(exp or 0) - leading)


def _layout_digits(digits: str, n: int) -> str:
    """ECMAScript Number::toString for ``0.digits × 10^n``."""
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    exponent = n - 1
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{head}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def js_string(value) -> str:
    """``String(value)`` for JSON-ish values."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        return js_number_str(value)
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


_JS_NUMBER = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", re.ASCII)
_JS_RADIX = re.compile(r"0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)", re.ASCII)


def js_to_number(value) -> float:
    """``Number(value)``: a whole-string numeric literal (``""`` is 0), else NaN."""
    if isinstance(value, bool):
        return float(value)
    if is_number(value):
        return float(value)
    if value is None:
        return 0.0
    text = js_trim(js_string(value))
    if not text:
        return 0.0
    if _JS_NUMBER.fullmatch(text):
        return float(text.replace("Infinity", "inf"))
    radix = _JS_RADIX.fullmatch(text)
    if radix:
        return float(int(radix.group(1)[1:], {"x": 16, "o": 8, "b": 2}[radix.group(1)[0].lower()]))
    return math.nan


def js_parse_float(value) -> float:
    """``parseFloat(String(value))``: the longest numeric prefix, NaN when there is none."""
    match = _JS_NUMBER.match(js_string(value).lstrip(JS_WHITESPACE))
    return float(match.group(0).replace("Infinity", "inf")) if match else math.nan


def js_parse_int(value) -> int | None:
    """``parseInt(String(value), 10)``; None stands for NaN."""
    match = re.match(r"[+-]?[0-9]+", js_string(value).lstrip(JS_WHITESPACE))
    return int(match.group(0)) if match else None


def is_integer(number: float) -> bool:
    """``Number.isInteger`` on an already converted number."""
    return math.isfinite(number) and number == int(number)


def js_to_fixed(number: float, digits: int) -> str:
    """``Number.prototype.toFixed``: ties round away from zero on the exact binary value."""
    quantum = Decimal(1).scaleb(-digits)
    return str(Decimal(number).quantize(quantum, rounding=ROUND_HALF_UP))


def load_json(body):
    """``JSON.parse`` of a body (str or UTF-8 bytes); ValueError when it is not JSON."""
    if isinstance(body, (bytes, bytearray)):
        body = bytes(body).decode("utf-8-sig", errors="replace")
    if not isinstance(body, str):
        raise ValueError("body is not text")
    return json.loads(body, parse_constant=_reject_constant)


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def tidy(value) -> str | None:
    """``String(v ?? '')`` with whitespace runs collapsed and trimmed; empty becomes None."""
    text = "" if value is None else js_string(value)
    return js_trim(_WS_RUN.sub(" ", text)) or None


def html_to_text(html) -> str | None:
    """Text of an HTML fragment (entities decoded, tags dropped), tidied; falsy in, None out."""
    if not js_truthy(html):
        return None
    parser = LexborHTMLParser(f"<div>{js_string(html)}</div>")
    return tidy(node_text(parser.body)) if parser.body is not None else None


# --- dates -------------------------------------------------------------------------------


def iso_from_ms(ms: int) -> str | None:
    """``new Date(ms).toISOString()``; None outside the years Python can write."""
    try:
        moment = _EPOCH + timedelta(milliseconds=int(ms))
    except OverflowError:
        return None
    if moment.year < 1:
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


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


def safe_url(url, base: str | None = None) -> URL | None:
    """WHATWG-parsed URL (``new URL(url, base)``), or None when it does not parse."""
    if not isinstance(url, str):
        return None
    try:
        return URL(url, base) if base is not None else URL(url)
    except ValueError:
        return None


def safe_href(value) -> str | None:
    """An href safe to hand on: relative or http(s) only; control characters removed."""
    if not isinstance(value, str):
        return None
    cleaned = js_trim(_CONTROL.sub("", value))
    if not cleaned:
        return None
    if not _SCHEME.match(cleaned):
        return cleaned
    return cleaned if _HTTP.match(cleaned) else None


def encode_uri_component(value) -> str:
    """``encodeURIComponent``: Python's ``quote`` would escape ``!*'()`` too."""
    return quote(js_string(value), safe="-_.!~*'()")


# --- DOM (cheerio-like reads on selectolax/lexbor) ----------------------------------------

Doc = LexborHTMLParser | LexborNode


def parse_html(html: str | bytes) -> LexborHTMLParser:
    """Browser-like HTML5 parse (html/head/body inserted), as cheerio's parse5."""
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    return LexborHTMLParser(html)


def node_text(node: LexborNode | None) -> str:
    """cheerio ``.text()``: every descendant text node, script and style included."""
    return node.text(deep=True, separator="", strip=False) if node is not None else ""


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
