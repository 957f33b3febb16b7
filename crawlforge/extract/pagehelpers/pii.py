"""Regex redaction of the personal data a scraped page carries (docs/templates.md §5.12).

Precision over recall: a redacted price destroys content the caller cannot get back, so every
detector fails by not matching. A bare digit run is never a phone; a card must pass Luhn and an
IBAN mod-97; a candidate a check rejects is dropped, never retried shorter. All detectors scan
the original text; spans are accepted in detector order (SECRET, EMAIL, FINANCIAL, PHONE) and an
overlapping later span is dropped, so nothing is replaced or counted twice. SECRET keeps its
label (``Bearer <SECRET>``) in every style. PERSON and LOCATION need a model and are ignored.

Regex flavour is JavaScript's: ``\\d``/``\\w``/``\\b`` are ASCII (``re.ASCII``), ``\\s`` is JS
Unicode whitespace (written out from ``jsutil.WS``), and ``/i`` folds ASCII letters only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from crawlforge.extract.state.jsutil import NOT_WS, WS

REGEX_ENTITIES = ("EMAIL", "PHONE", "FINANCIAL", "SECRET")
"""The entity classes a regex decides."""
MODEL_ONLY_ENTITIES = ("PERSON", "LOCATION")
"""The entity classes only a model can decide; ``redact_pii`` ignores them."""
DEFAULT_REPLACE_STYLE = "tag"
MASK = "[REDACTED]"

# The local part admits the markdown escapes ``\_`` and ``\-`` as pairs (turndown writes
# ``simon\_lacey@...``), so an escaped address is one span and the name cannot survive.
EMAIL = re.compile(
    r"(?:[A-Za-z0-9._%+-]|\\[_-])+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}\b",
    re.ASCII,
)
PHONE_E164_RUN = re.compile(r"(?<![\w+])\+\d{8,15}(?!\w)", re.ASCII)
PHONE_E164_GROUPED = re.compile(
    r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(\d{1,4}\)|[ .-]\d{1,4}){1,5}(?!\w)", re.ASCII
)
PHONE_NANP_PARENS = re.compile(r"(?<![\w.,-])(?:1[ .-]?)?\([2-9]\d{2}\)[ .]?\d{3}[ .-]\d{4}(?![\w-])", re.ASCII)
# The same separator throughout (the backreference) and [2-9] on the area code keep ISBNs,
# dates, versions and grouped money out.
PHONE_NANP_PLAIN = re.compile(r"(?<![\w.,-])(?:1[ .-])?[2-9]\d{2}([ .-])\d{3}\1\d{4}(?![\w-])", re.ASCII)
CARD = re.compile(
    r"(?<![\w-])(?<!\d\.)(?:\d{13,19}|\d{2,6}(?:([ -])\d{2,6})(?:\1\d{2,6})*)(?![\w-])(?!\.\d)", re.ASCII
)
IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4})+(?: [A-Z0-9]{1,3})?)(?![A-Za-z0-9])",
    re.ASCII,
)
# Group 1 is the label, kept; the value after it is replaced. Unanchored, as upstream's chain.
SECRET_PATTERNS = tuple(
    re.compile(rf"({label}){NOT_WS}+", re.ASCII | re.IGNORECASE)
    for label in (
        rf"Bearer{WS}+",
        rf"api(?:\\?[_-])?key{WS}*[:=]{WS}*",
        rf"x-api-key{WS}*[:=]{WS}*",
        rf"password{WS}*[:=]{WS}*",
        rf"secret{WS}*[:=]{WS}*",
        rf"token{WS}*[:=]{WS}*",
    )
)
_NON_DIGIT = re.compile(r"[^0-9]")
_ONE_DIGIT_REPEATED = re.compile(r"(\d)\1*", re.ASCII)


def luhn_ok(candidate: str) -> bool:
    """Luhn over 13-19 digits; a run of one repeated digit is a placeholder, not a card."""
    digits = _NON_DIGIT.sub("", candidate)
    if not 13 <= len(digits) <= 19 or _ONE_DIGIT_REPEATED.fullmatch(digits):
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def iban_ok(candidate: str) -> bool:
    """ISO 13616 mod-97: first four characters moved to the end, A=10..Z=35, remainder 1."""
    compact = candidate.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    return int("".join(str(int(char, 36)) for char in compact[4:] + compact[:4])) % 97 == 1


def e164_ok(candidate: str) -> bool:
    """E.164 allows 8-15 digits in all, country code included."""
    return 8 <= len(_NON_DIGIT.sub("", candidate)) <= 15


class Pattern(NamedTuple):
    regex: re.Pattern
    check: Callable[[str], bool] | None = None
    keeps_label: bool = False


DETECTORS: tuple[tuple[str, tuple[Pattern, ...]], ...] = (
    ("SECRET", tuple(Pattern(regex, keeps_label=True) for regex in SECRET_PATTERNS)),
    ("EMAIL", (Pattern(EMAIL),)),
    ("FINANCIAL", (Pattern(CARD, luhn_ok), Pattern(IBAN, iban_ok))),
    (
        "PHONE",
        (Pattern(PHONE_E164_RUN, e164_ok), Pattern(PHONE_E164_GROUPED, e164_ok), Pattern(PHONE_NANP_PARENS),
         Pattern(PHONE_NANP_PLAIN)),
    ),  # fmt: skip
)
"""Detectors in the order their spans are accepted."""


def redact_pii(text, entities=None, replace_style: str | None = None) -> dict:
    """``{text, redaction: {entities: {ENTITY: count}, count}}``; never raises.

    ``entities`` (a non-empty list, names case-insensitive) narrows the run to its overlap with
    REGEX_ENTITIES, and an empty overlap redacts nothing; anything else means all of them.
    ``replace_style``: ``tag`` (``<EMAIL>``, the default and the fallback), ``mask`` or ``remove``.
    Text outside the spans comes back unchanged; non-string or empty text comes back as given.
    """
    nothing = {"text": text, "redaction": {"entities": {}, "count": 0}}
    if not isinstance(text, str) or not text:
        return nothing
    spans = _spans(text, _wanted(entities))
    if not spans:
        return nothing
    parts, counts, cursor = [], {}, 0
    for start, end, entity in spans:
        parts += (text[cursor:start], _replacement(entity, replace_style))
        counts[entity] = counts.get(entity, 0) + 1
        cursor = end
    parts.append(text[cursor:])
    return {"text": "".join(parts), "redaction": {"entities": counts, "count": len(spans)}}


def _replacement(entity: str, style) -> str:
    if style == "mask":
        return MASK
    return "" if style == "remove" else f"<{entity}>"


def _wanted(entities) -> set[str]:
    if isinstance(entities, (list, tuple)) and entities:
        return {name.upper() for name in entities if isinstance(name, str)} & set(REGEX_ENTITIES)
    return set(REGEX_ENTITIES)


def _spans(text: str, wanted: set[str]) -> list[tuple[int, int, str]]:
    """Accepted ``(start, end, entity)`` spans, by start; earlier detectors win overlaps."""
    accepted: list[tuple[int, int, str]] = []
    for entity, patterns in DETECTORS:
        if entity not in wanted:
            continue
        for pattern in patterns:
            for match in pattern.regex.finditer(text):
                start = match.end(1) if pattern.keeps_label else match.start()
                end = match.end()
                if start >= end or (pattern.check and not pattern.check(text[start:end])):
                    continue
                if not any(start < e and s < end for s, e, _ in accepted):
                    accepted.append((start, end, entity))
    return sorted(accepted)
