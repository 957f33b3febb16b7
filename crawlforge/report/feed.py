"""Reading what a crawl wrote: its JSON Lines feeds (items, error records) and its stats file."""

from __future__ import annotations

import json
from pathlib import Path


def read_jsonl(path: str | Path) -> list[dict]:
    """Every object of a JSONL file; a truncated last line (a killed crawl) is skipped."""
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def sibling(items_path: Path, suffix: str) -> Path:
    """The file a crawl writes beside its items feed: ``out.jsonl`` -> ``out.<suffix>``."""
    return items_path.with_name(f"{items_path.stem}.{suffix}")


def read_stats(path: Path) -> dict:
    """The stats file's counters; empty when the crawl wrote none (or it is unreadable)."""
    try:
        stats = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stats if isinstance(stats, dict) else {}
