"""What the crawl report shows, computed from the items and error records of a crawl's feeds.

Every number here comes from the feeds alone (no stats file needed): pages are items, failed
URLs are error records (the URL ledger writes one per URL that ended without an item).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from crawlforge.report.fillrate import FillRates, item_fields

# Bucket widths for "pages over time", in seconds: the first that keeps the chart within
# MAX_BUCKETS bars.
BUCKET_SECONDS = (1, 5, 10, 30, 60, 300, 600, 1800, 3600, 6 * 3600, 86400)
MAX_BUCKETS = 60
WORST_PAGES = 25
SLOWEST_HOSTS = 10


@dataclass
class Timeline:
    bucket_seconds: int = 1
    starts: list[datetime] = field(default_factory=list)
    items: list[int] = field(default_factory=list)
    errors: list[int] = field(default_factory=list)


@dataclass
class WorstPage:
    url: str
    outcome: str  # the ledger reason of a failed URL, else the item's template or host
    status: int | None
    fill: float  # share of the item's fields filled; 0 for a failed URL
    detail: str


@dataclass
class Summary:
    items: int
    errors: int
    timeline: Timeline
    status_codes: dict[str, int]
    reasons: dict[str, int]
    vendors: dict[str, int]
    fill_rates: FillRates
    slowest_hosts: list[tuple[str, float, int]]  # host, mean download latency (s), pages
    worst_pages: list[WorstPage]


def parse_time(value) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def timeline(items: list[dict], errors: list[dict]) -> Timeline:
    item_times = [t for t in (parse_time(i.get("fetched_at")) for i in items) if t]
    error_times = [t for t in (parse_time(e.get("at")) for e in errors) if t]
    times = item_times + error_times
    if not times:
        return Timeline()
    first, span = min(times), (max(times) - min(times)).total_seconds()
    width = next((w for w in BUCKET_SECONDS if span / w < MAX_BUCKETS), BUCKET_SECONDS[-1])
    count = int(span // width) + 1
    line = Timeline(width, [first + timedelta(seconds=k * width) for k in range(count)], [0] * count, [0] * count)
    for times_of, counts in ((item_times, line.items), (error_times, line.errors)):
        for t in times_of:
            counts[min(int((t - first).total_seconds() // width), count - 1)] += 1
    return line


def count_by(rows: list[dict], key: str) -> dict[str, int]:
    counts = Counter(str(row[key]) for row in rows if row.get(key) is not None)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def slowest_hosts(items: list[dict]) -> list[tuple[str, float, int]]:
    """Mean ``download_latency`` per host, for feeds whose items carry it."""
    latencies = defaultdict(list)
    for item in items:
        if isinstance(item.get("download_latency"), (int, float)) and item.get("url"):
            latencies[urlsplit(item["url"]).hostname or "unknown"].append(item["download_latency"])
    means = [(host, sum(v) / len(v), len(v)) for host, v in latencies.items()]
    return sorted(means, key=lambda row: -row[1])[:SLOWEST_HOSTS]


def worst_pages(items: list[dict], errors: list[dict], rates: FillRates) -> list[WorstPage]:
    """Failed URLs first (by reason), then the items with the smallest share of their group's
    fields filled (a generic page lacks the structured fields it does not carry)."""
    rows = [WorstPage(e.get("url", ""), e.get("reason", "error"), e.get("status"), 0.0, e.get("detail", ""))
            for e in sorted(errors, key=lambda e: (e.get("reason", ""), e.get("url", "")))]
    scored = []
    for item in items:
        found = item_fields(item)
        if found and rates.groups[found[0]].filled:
            group, fields = found
            missing = sorted(name for name in rates.groups[group].filled if not fields.get(name))
            share = 1 - len(missing) / len(rates.groups[group].filled)
            scored.append(WorstPage(item.get("url", ""), group, item.get("status"), share,
                                    "empty: " + ", ".join(missing) if missing else ""))
    rows += sorted(scored, key=lambda row: (row.fill, row.url))
    return rows[:WORST_PAGES]


def summarise(items: list[dict], errors: list[dict]) -> Summary:
    rates = FillRates.from_items(items)
    return Summary(
        items=len(items), errors=len(errors), timeline=timeline(items, errors),
        status_codes=count_by(items + errors, "status"), reasons=count_by(errors, "reason"),
        vendors=count_by(errors, "vendor"), fill_rates=rates,
        slowest_hosts=slowest_hosts(items), worst_pages=worst_pages(items, errors, rates),
    )
