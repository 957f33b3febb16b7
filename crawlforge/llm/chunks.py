"""Long pages: split the markdown on headings into pieces under a token budget, and merge
the per-piece answers back into one (lists concatenated without duplicates)."""

from __future__ import annotations

import json
import re

_HEADING = re.compile(r"^#{1,6}(?:[ \t]|$)")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


def estimate_tokens(text: str) -> int:
    """About 4 UTF-8 bytes a token: close for English, conservative for CJK."""
    return (len(text.encode("utf-8")) + 3) // 4


def split_markdown(markdown: str, budget: int) -> list[str]:
    """Pieces of at most ``budget`` tokens: whole sections (a heading and what follows)
    packed together; a section over budget is cut at blank lines, then at line ends,
    and a single line longer than the budget is cut by characters. Nothing is dropped."""
    if budget <= 0 or estimate_tokens(markdown) <= budget:
        return [markdown]
    pieces: list[str] = []
    for block in _sections(markdown):
        for part in _fit(block, budget):
            if pieces and estimate_tokens(pieces[-1] + part) <= budget:
                pieces[-1] += part
            else:
                pieces.append(part)
    return pieces


def _sections(markdown: str) -> list[str]:
    """Split before each ATX heading outside fenced code; lines keep their newlines."""
    sections, fence = [""], None
    for line in markdown.splitlines(keepends=True):
        if match := _FENCE.match(line):
            marker = match.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
        elif fence is None and _HEADING.match(line) and sections[-1]:
            sections.append("")
        sections[-1] += line
    return [s for s in sections if s]


def _fit(text: str, budget: int) -> list[str]:
    if estimate_tokens(text) <= budget:
        return [text]
    for pattern in (r"(?<=\n\n)", r"(?<=\n)"):
        parts = [p for p in re.split(pattern, text) if p]
        if len(parts) > 1:
            return [piece for part in parts for piece in _fit(part, budget)]
    size = max(1, budget)  # one character is at most 4 bytes, so `budget` chars always fit
    return [text[i : i + size] for i in range(0, len(text), size)]


def merge_values(first, second):
    """Objects merged key by key, lists concatenated without repeats, and otherwise the
    first non-null value wins (a later piece only fills what an earlier one lacked)."""
    if isinstance(first, dict) and isinstance(second, dict):
        merged = dict(first)
        for key, value in second.items():
            merged[key] = merge_values(merged[key], value) if key in merged else value
        return merged
    if isinstance(first, list) and isinstance(second, list):
        return unique([*first, *second])
    return second if first is None else first


def unique(items: list) -> list:
    """Items in order, each distinct JSON value once."""
    seen, kept = set(), []
    for item in items:
        key = json.dumps(item, sort_keys=True, ensure_ascii=False)
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept
