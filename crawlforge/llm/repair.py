"""Turn a model's answer into a JSON value: strict JSON first, then without code fences and
chatter, then json-repair for trailing commas, unclosed brackets, single quotes and the like."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import json_repair

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)(?:\r?\n)?```", re.S)
_OPENERS = "{["


@dataclass
class Parsed:
    """``value`` is None when no JSON object or array could be recovered."""

    value: object
    repaired: bool


def parse_json_output(text: str) -> Parsed:
    """The JSON object or array in ``text``; ``repaired`` says whether it needed more than
    ``json.loads``. A bare scalar answer counts as no JSON."""
    text = (text or "").strip()
    strict = _loads(text)
    if isinstance(strict, (dict, list)):
        return Parsed(strict, False)
    candidate = _strip_chatter(_strip_fence(text))
    if candidate is None:
        return Parsed(None, True)
    value = _loads(candidate)
    if not isinstance(value, (dict, list)):
        value = json_repair.loads(candidate)
    return Parsed(value if isinstance(value, (dict, list)) else None, True)


def _strip_fence(text: str) -> str:
    """The body of the first fenced block, or an unclosed opening fence dropped."""
    if match := _FENCE.search(text):
        return match.group(1)
    return re.sub(r"^```[A-Za-z0-9_-]*[ \t]*\r?\n?", "", text)


def _strip_chatter(text: str) -> str | None:
    """From the first ``{`` or ``[`` to its last closer (or the end, when unclosed)."""
    starts = [i for i in (text.find(c) for c in _OPENERS) if i >= 0]
    if not starts:
        return None
    start = min(starts)
    closer = "}" if text[start] == "{" else "]"
    end = text.rfind(closer)
    return text[start : end + 1] if end > start else text[start:]


def _loads(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None
