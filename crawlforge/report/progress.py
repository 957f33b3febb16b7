"""The progress line of a running crawl, from a snapshot of its counters.

The rate (URLs that ended a minute) is measured over the last interval; the ETA needs a known
total (a URL list, a sitemap, ``max_pages``) and a rate above zero, and is left out otherwise.
Without a total (a crawl following links) the line says how many URLs ended of those seen so
far. Every count is of URLs: done = items + errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BAR_WIDTH = 24


@dataclass
class Snapshot:
    items: int = 0  # URLs that ended with an item
    done: int = 0  # URLs that ended (item or error)
    total: int | None = None
    queue: int = 0
    seen: int = 0  # distinct URLs scheduled so far
    per_min: float = 0.0  # URLs that ended a minute
    errors: dict[str, int] = field(default_factory=dict)  # URLs that ended without an item, by reason


def eta_seconds(done: int, total: int | None, per_min: float) -> float | None:
    if not total or per_min <= 0:
        return None
    return max(total - done, 0) / per_min * 60


def duration(seconds: float) -> str:
    """``1h02m``, ``3m05s``, ``42s``: short enough for a status line."""
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def errors_text(errors: dict[str, int]) -> str:
    total = sum(errors.values())
    if not total:
        return "0 errors"
    parts = ", ".join(f"{reason} {n}" for reason, n in sorted(errors.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{total} error{'' if total == 1 else 's'} ({parts})"


def progress_line(snap: Snapshot) -> str:
    parts = [f"{snap.items} items", errors_text(snap.errors), f"{snap.per_min:.0f} URLs/min", f"queue {snap.queue}"]
    if snap.total:
        parts.append(f"{min(snap.done, snap.total)}/{snap.total} done")
    elif snap.seen:
        parts.append(f"{snap.done} done of {snap.seen} seen")
    eta = eta_seconds(snap.done, snap.total, snap.per_min)
    if eta is not None:
        parts.append(f"ETA {duration(eta)}")
    return ", ".join(parts)


def progress_bar(snap: Snapshot) -> str:
    """A one-line bar for a terminal; without a total it shows the line alone."""
    if not snap.total:
        return progress_line(snap)
    share = min(snap.done / snap.total, 1.0)
    filled = round(share * BAR_WIDTH)
    return f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {share:4.0%} {progress_line(snap)}"
