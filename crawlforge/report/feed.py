"""Reading what a crawl wrote: its JSON Lines feeds (items, error records) and its stats file."""

from __future__ import annotations

import json
from pathlib import Path

from crawlforge.args import ArgumentError


class FeedError(ArgumentError):
    """The path is not a feed a crawl wrote: missing, binary, or text without JSON lines."""


def read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise FeedError(f"{path}: no such file") from None
    except OSError as error:
        raise FeedError(f"{path}: cannot be read ({error.strerror})") from None


def read_jsonl(path: str | Path) -> list[dict]:
    """Every object of a JSONL file; a truncated last line (a killed crawl) is skipped. An
    empty file is an empty feed; a file with lines but no JSON object is not a feed."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FeedError(f"{path}: not a JSONL feed (binary data, not UTF-8 text)") from None
    rows, lines = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        lines += 1
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    if lines and not rows:
        raise FeedError(f"{path}: not a JSONL feed (no line is a JSON object)")
    return rows


def sibling_name(items_name: str, suffix: str) -> str:
    """What a crawl writes beside its items feed is named after it: ``out.jsonl`` ->
    ``out.errors.jsonl``, ``out.stats.json``; so each run's files stay its own."""
    stem = items_name.rsplit(".", 1)[0] if "." in items_name else items_name
    return f"{stem}.{suffix}"


def sibling(items_path: Path, suffix: str) -> Path:
    return items_path.with_name(sibling_name(items_path.name, suffix))


def read_stats(path: Path) -> dict:
    """The stats file's counters; empty when the crawl wrote none (or it is unreadable)."""
    try:
        stats = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stats if isinstance(stats, dict) else {}
