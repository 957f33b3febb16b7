"""JavaScript value semantics in Python, for code that reproduces a JS library exactly.

Both the site templates and the extract helpers copy ``crawlforge-extractors``, so the places
where Python and JavaScript disagree are settled once here: JS whitespace (``\\s`` includes
U+FEFF and excludes U+001C-U+001F), truthiness (``[]`` and ``{}`` are truthy), ``String(value)``,
``Number(value)``, ``toFixed``, ``toISOString()`` and the href scheme filter.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

from crawlforge.extract.state.jsjson import js_number

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
WS = f"[{JS_WHITESPACE}]"  # JS ``\s`` as a Python character class, for patterns
NOT_WS = f"[^{JS_WHITESPACE}]"  # JS ``\S``
MAX_TIME_MS = 8.64e15  # the largest |time value| a JS Date holds
_WS_RUN = re.compile(WS + "+")
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_HTTP = re.compile(r"^https?://", re.I)
_JS_NUMBER = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", re.ASCII)
_JS_RADIX = re.compile(r"0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)", re.ASCII)


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


def first_not_none(*values):
    """JS ``a ?? b ?? c``: unlike ``||``, a 0, "" or false is kept."""
    return next((value for value in values if value is not None), None)


def js_number_str(value: float) -> str:
    """``String(number)``: shortest round-trip digits laid out the JS way (``1e+21``, ``1e-7``)."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, float) and math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return js_number(value)


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


def js_to_number(value) -> float:
    """``Number(value)``: a whole-string numeric literal (``""`` is 0), else NaN."""
    if isinstance(value, bool) or is_number(value):
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


def tidy(value) -> str | None:
    """``String(v ?? '')`` with whitespace runs collapsed and trimmed; empty becomes None."""
    text = "" if value is None else js_string(value)
    return js_trim(_WS_RUN.sub(" ", text)) or None


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


def iso_from_ms(ms) -> str | None:
    """``new Date(ms).toISOString()`` (years past 9999 as ``+010000``); None for an invalid date."""
    if not is_number(ms) or not math.isfinite(ms) or abs(ms) > MAX_TIME_MS:
        return None
    days, rest = divmod(math.trunc(ms), 86_400_000)
    year, month, day = _civil_from_days(days)
    seconds, millis = divmod(rest, 1000)
    clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{millis:03d}Z"
    year_text = f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}"
    return f"{year_text}-{month:02d}-{day:02d}T{clock}"


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """Proleptic Gregorian (year, month, day) of a day count from 1970-01-01."""
    days += 719_468
    era = days // 146_097
    day_of_era = days - era * 146_097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36_524 - day_of_era // 146_096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    year = year_of_era + era * 400 + (month <= 2)
    return year, month, day
