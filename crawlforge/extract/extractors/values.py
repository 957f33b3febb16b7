"""Normalisers shared by the extractors: prices, currencies, availability, URLs, names."""

from __future__ import annotations

import html
import re
from decimal import Decimal, InvalidOperation
from urllib.parse import urljoin

from crawlforge.extract.words import pattern

NOT_FOR_SALE = {"OutOfStock", "SoldOut", "Discontinued"}  # the states that say "you cannot buy it now"
_NUMBER = re.compile(r"\d[\d.,\s\u00a0\u202f']*")
_TAG = re.compile(r"<(?:[a-zA-Z][^<>]*|/[a-zA-Z][^<>]*|!--.*?--)>", re.S)
_BLOCK_END = re.compile(r"<(?:br|/p|/div|/li|/h\d|/tr|/ul|/ol|/table|/blockquote)\b", re.I)
_AVAILABILITY = {
    name.lower(): name
    for name in (
        "InStock", "OutOfStock", "PreOrder", "BackOrder", "Discontinued", "InStoreOnly",
        "LimitedAvailability", "OnlineOnly", "PreSale", "SoldOut", "Reserved", "MadeToOrder",
    )
}
# OpenGraph/Facebook catalogue spellings of the same states.
_AVAILABILITY.update({"oos": "OutOfStock", "outstock": "OutOfStock", "availablefororder": "PreOrder", "pending": "PreOrder"})
_AVAILABILITY.update({"notsold": "InStock", "sold": "SoldOut"})  # classified ads' status of the item
STATES = frozenset(_AVAILABILITY.values())  # the schema.org short names ``availability`` knows


def one_or_many(value) -> list:
    """A JSON-LD property holds one value or an array of them; this is always a list ([] if absent)."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def text(value) -> str | None:
    """A plain string from a scalar, the first item of a list, or a node's name."""
    if isinstance(value, list):
        return next((t for t in map(text, value) if t), None)
    if isinstance(value, dict):
        return text(value.get("name") or value.get("@value") or value.get("value"))
    if isinstance(value, bool) or value is None:
        return None
    result = str(value).strip()
    if "&" in result:  # JSON-LD written by CMS templates often carries HTML entities
        result = html.unescape(result)
    return result or None


def plain_text(value) -> str | None:
    """``text`` with the HTML a shop writes into its description (``<p>``, ``<br>``, escaped
    or not) read as plain text: a block's end is a line's end, other tags go."""
    result = text(value)
    if not result or not _TAG.search(result):
        return result
    result = _TAG.sub(lambda m: "\n" if _BLOCK_END.match(m.group()) else " ", result)
    lines = (" ".join(line.split()) for line in html.unescape(result).splitlines())
    return "\n".join(line for line in lines if line) or None


def price(value) -> str | None:
    """A decimal string with a dot: 27.9 -> "27.90", "1.299,00 EUR" -> "1299.00".

    Integral numbers stay integral ("450"), strings keep their written precision.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
    match = _NUMBER.search(text(value) or "")
    if not match:
        return None
    digits = re.sub(r"[\s\u00a0\u202f']", "", match.group()).rstrip(".,")
    return _decimal_point(digits)


def as_decimal(value) -> Decimal | None:
    """A normalised price string as a Decimal, for comparing offers; None if it is none."""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def _decimal_point(digits: str) -> str:
    """The last separator is the decimal point, unless it is the only one and three
    digits follow it ("1,299" / "1.299" are thousands) or it repeats ("1.299.000")."""
    last = max(digits.rfind("."), digits.rfind(","))
    if last == -1:
        return digits
    whole, fraction = digits[:last], digits[last + 1 :]
    plain_whole = whole.replace(",", "").replace(".", "")
    only_one_kind = len({c for c in digits if c in ".,"}) == 1
    if only_one_kind and (digits.count(digits[last]) > 1 or (len(fraction) == 3 and plain_whole.strip("0"))):
        return plain_whole + fraction
    return f"{plain_whole or '0'}.{fraction}"


def minor_units(value, digits: int = 2) -> str | None:
    """Shopify's integer cents (2790) as a price string ("27.90")."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        amount = Decimal(str(value)) / (10**digits)
    except InvalidOperation:
        return None
    return f"{amount:.{digits}f}"


def currency(value) -> str | None:
    result = text(value)
    return result.upper() if result and len(result) == 3 and result.isalpha() else result


def availability(value) -> str | None:
    """The short schema.org name (``InStock``) from a URL, a short name or an OG word."""
    raw = text(value)
    if not raw:
        return None
    key = re.sub(r"[\s_-]", "", raw.rstrip("/").rsplit("/", 1)[-1]).lower()
    return _AVAILABILITY.get(key, raw)


def stock_phrase(value) -> str | None:
    """A shown stock text as a state: "Currently unavailable." -> OutOfStock, "In stock" ->
    InStock (the phrases of ``words/out_of_stock.txt`` and ``words/in_stock.txt`` opening it)."""
    raw = text(value)
    if not raw:
        return None
    if pattern("out_of_stock").match(raw):
        return "OutOfStock"
    return "InStock" if pattern("in_stock").match(raw) else None


def absolute_url(value, base: str) -> str | None:
    raw = text(value if not isinstance(value, dict) else value.get("url") or value.get("contentUrl") or value.get("@id"))
    if not raw:
        return None
    try:
        return urljoin(base, raw)
    except ValueError:
        return raw


def same(a, b) -> bool:
    """Values that only differ in spelling (450 vs "450.00", case, spacing) are the same."""
    if a == b:
        return True
    try:
        return Decimal(str(a)) == Decimal(str(b))
    except (InvalidOperation, ValueError):
        return " ".join(str(a).split()).casefold() == " ".join(str(b).split()).casefold()


def compact(record: dict) -> dict:
    """Drop empty values so absent fields never shadow lower-priority sources."""
    return {key: value for key, value in record.items() if value not in (None, "", [], {})}
