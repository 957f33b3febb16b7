"""The one job shape every ATS connector lands on, and the small readers that fill it.

Six platforms spell the same facts six ways (epoch milliseconds, RFC 822, ``"… UTC"``; ``""``
for "no value"; three booleans for one workplace word). These helpers turn each spelling into
the common shape so boards from different platforms concatenate without a mapping step.
A value the platform does not carry stays ``None``: nothing here guesses.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from ..base import TemplateError, TemplateRejectedError
from ..common import JS_WHITESPACE, html_to_text, is_number, iso_from_ms, js_string, js_trim
from ..api import as_list

JOB_FIELDS = (
    "id", "title", "url", "location", "department", "team", "employment_type",
    "remote", "published_at", "updated_at", "description", "source",
)

def job(source: str, raw_extra: dict, **fields: Any) -> dict:
    """A job dict with every common key, in order; the ones not given are ``None``."""
    unknown = set(fields) - set(JOB_FIELDS)
    if unknown:
        raise TypeError(f"not job fields: {sorted(unknown)}")
    item = {name: fields.get(name) for name in JOB_FIELDS}
    item["source"] = source
    item["raw_extra"] = raw_extra
    return item


def trimmed(value: Any) -> str | None:
    """The value as trimmed text; ``None`` and ``""`` (how these APIs write "no value") are ``None``."""
    if value is None:
        return None
    return js_trim(js_string(value)) or None


def job_id(value: Any) -> str | None:
    """Ids are numbers on some platforms and UUIDs on others: one type, untrimmed."""
    if value is None or value == "":
        return None
    return js_string(value)


def text_list(values: Any) -> list[str]:
    """Every entry as text, blanks dropped; a missing list is an empty one."""
    return [t for t in (trimmed(v) for v in as_list(values)) if t]


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")
_SPACE_UTC = re.compile(r"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC")
_ISO = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?"
    r"(Z|[+-]\d{2}:?\d{2})?",
    re.IGNORECASE,
)


def iso_date(value: Any) -> str | None:
    """A platform timestamp as ISO 8601 UTC with milliseconds, the way JS ``toISOString`` writes it.

    Numbers are epoch milliseconds (Lever). A bare ``YYYY-MM-DD`` (Workable) is returned as is:
    widening it to midnight would invent an hour the source never stated. Recruitee's
    ``YYYY-MM-DD HH:MM:SS UTC`` is read as UTC; RFC 2822 (Teamtailor) and ISO with an offset
    are converted. Anything unreadable is ``None``.
    """
    if value is None or value == "":
        return None
    if is_number(value):
        return _iso_from_epoch_ms(value)
    raw = js_trim(js_string(value))
    if _DATE_ONLY.fullmatch(raw):
        return raw
    if _SPACE_UTC.fullmatch(raw):
        raw = _SPACE_UTC.sub(r"\1T\2Z", raw)
    moment = _parse_iso(raw) or _parse_rfc2822(raw)
    return iso_from_ms((moment - _EPOCH) // timedelta(milliseconds=1)) if moment else None


def _iso_from_epoch_ms(ms: float) -> str | None:
    """``new Date(ms)``: non-finite or beyond +-8.64e15 ms is an Invalid Date; fractions truncate."""
    if not math.isfinite(ms) or abs(ms) > 8.64e15:
        return None
    return iso_from_ms(math.trunc(ms))


def _parse_iso(raw: str) -> datetime | None:
    """ISO 8601 as JS ``Date`` reads it; a time without an offset is taken as UTC."""
    match = _ISO.fullmatch(raw)
    if not match:
        return None
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    try:
        moment = datetime(
            int(year), int(month or 1), int(day or 1), int(hour or 0), int(minute or 0),
            int(second or 0), int((fraction or "0")[:3].ljust(3, "0")) * 1000, tzinfo=timezone.utc,
        )
        if offset and offset.upper() != "Z":
            digits = offset[1:].replace(":", "")
            shift = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
            moment -= shift if offset[0] == "+" else -shift
    except (ValueError, OverflowError):
        return None
    return moment


def _parse_rfc2822(raw: str) -> datetime | None:
    """RFC 2822 dates (``Fri, 24 Jul 2026 13:57:16 +0200``); no zone means UTC."""
    try:
        moment = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


_REMOTE_WORDS = {"remote", "fully", "telecommuting"}
_ONSITE_WORDS = {"onsite", "on_site", "none", "office"}
_WORD_NOISE = re.compile(f"[{JS_WHITESPACE}-]+")


def is_remote(word: Any) -> bool | None:
    """Whether the platform's workplace word says "from anywhere".

    Only remote-words and on-site-words answer it: hybrid is part-remote and Lever's
    "unspecified" says nothing, so both are ``None`` (the word itself is kept in raw_extra).
    """
    normal = _WORD_NOISE.sub("", js_trim(js_string(word) if word is not None else "").lower())
    if not normal:
        return None
    candidates = {normal, normal.replace("_", "")}
    if candidates & _REMOTE_WORDS:
        return True
    if candidates & _ONSITE_WORDS:
        return False
    return None


def join_location(*parts: Any) -> str | None:
    """Join location parts, dropping blanks and repeats (city "New York", state "New York")."""
    joined = list(dict.fromkeys(t for t in (trimmed(p) for p in parts) if t))
    return ", ".join(joined) or None


def escaped_html_to_text(escaped: Any) -> str | None:
    """Greenhouse escapes its HTML a second time (``&lt;h2&gt;``): decode once, then strip tags."""
    return html_to_text(html_to_text(escaped))


def require_param(connector: str, name: str, value: Any, where: str) -> str:
    """The caller's parameter, or an error that names it and says where to find its value."""
    given = trimmed(value)
    if not given:
        raise TemplateError(f'{connector} listUrl requires a "{name}" parameter — {where}.')
    return given


def not_json(label: str, url: Any, api: str) -> TemplateRejectedError:
    """The error for a body that is not the platform's JSON at all."""
    return TemplateRejectedError(
        f"Not a {label} response: {url} did not return JSON. This connector reads {api}."
    )


def list_result(items: list[dict], extra: dict | None = None, total: Any = None) -> dict:
    """``{items, count}``, ``total_available`` only when the payload declares more, then ``extra``."""
    result: dict[str, Any] = {"items": items, "count": len(items)}
    if is_number(total) and total > len(items):
        result["total_available"] = total
    result.update(extra or {})
    return result
