"""What the crawl report shows, computed from the items and error records of a crawl's feeds,
and from its stats file when there is one.

The counts come from the feeds alone: pages are items, failed URLs are error records (the URL
ledger writes one per URL that ended without an item). What only the crawl itself knew (bytes
downloaded, duration, the health verdict, LLM tokens) comes from the stats file; without it those
figures are left out rather than guessed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from crawlforge.report.fillrate import FillRates, is_filled, item_fields

# Bucket widths for "pages over time", in seconds: the first that keeps the chart within
# MAX_BUCKETS bars.
BUCKET_SECONDS = (1, 5, 10, 30, 60, 300, 600, 1800, 3600, 6 * 3600, 86400)
MAX_BUCKETS = 60
WORST_PAGES = 25
SLOWEST_HOSTS = 10
EXAMPLES_PER_GROUP = 3
PATTERN_DEPTH = 2  # folders of a URL's path that name its error group
# "What went wrong" shows every group up to GROUP_ROWS; past that, the HEAD_ROWS largest groups
# of more than one URL, and the rest folded into one row a reason: a site with hundreds of broken
# links in as many folders would otherwise push the charts thousands of pixels down.
GROUP_ROWS = 15
HEAD_ROWS = 10
# The product fields whose fill rates the report shows when the crawl met product pages.
PRODUCT_FIELDS = ("price", "currency", "availability")


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
class ErrorGroup:
    """Error records of one reason under one URL pattern (a template, or a host and path prefix)."""

    reason: str
    pattern: str
    count: int
    share: float  # of all error records
    examples: list[str]
    detail: str  # the first record's detail


@dataclass
class ErrorTail:
    """The small groups of one reason, folded into one row."""

    reason: str
    count: int  # URLs
    share: float  # of all error records
    groups: list[ErrorGroup]
    detail: str  # the commonest detail
    after_head: bool  # a row above has the same reason: these are "more"


@dataclass
class Outcome:
    """The crawl's result in a few figures; None where the feeds and stats cannot tell."""

    requested: int
    items: int
    errors: int
    duration_seconds: float | None
    pages_per_minute: float | None
    bytes_downloaded: int | None
    rendered: int
    llm_calls: int | None
    llm_tokens: int | None
    health_alarms: list[str] | None  # None: no health check ran (no stats file)
    exit_code: int


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
    outcome: Outcome
    error_groups: list[ErrorGroup]
    error_tail: list[ErrorTail]  # error_groups past the rows shown, folded by reason
    product_fill: dict[str, dict[str, float]]  # group -> field -> share of its product items
    page_types: dict[str, int]


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


def url_pattern(record: dict) -> str:
    """Where a URL sits: its template, else its host and folder, at most two levels deep
    (``host/docs/Articles/``), so one broken section is one group."""
    if record.get("template"):
        return str(record["template"])
    parts = urlsplit(str(record.get("url", "")))
    folders = [s for s in parts.path.split("/")[:-1] if s][:PATTERN_DEPTH]
    return f"{parts.hostname or parts.scheme or 'unknown'}/{''.join(f + '/' for f in folders)}"


def error_groups(errors: list[dict]) -> list[ErrorGroup]:
    """One group per (reason, URL pattern), largest first, with a few example URLs."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for record in errors:
        groups[(str(record.get("reason", "error")), url_pattern(record))].append(record)
    rows = [ErrorGroup(reason, pattern, len(records), len(records) / len(errors),
                       sorted(str(r.get("url", "")) for r in records)[:EXAMPLES_PER_GROUP],
                       str(records[0].get("detail", "")))
            for (reason, pattern), records in groups.items()]
    return sorted(rows, key=lambda g: (-g.count, g.reason, g.pattern))


def fold_tail(groups: list[ErrorGroup]) -> tuple[list[ErrorGroup], list[ErrorTail]]:
    """(the groups shown one a row, the rest folded by reason); nothing is folded while every
    group fits in ``GROUP_ROWS``."""
    if len(groups) <= GROUP_ROWS:
        return groups, []
    head = [group for group in groups if group.count > 1][:HEAD_ROWS]
    shown = {id(group) for group in head}
    folded: dict[str, list[ErrorGroup]] = defaultdict(list)
    for group in groups:
        if id(group) not in shown:
            folded[group.reason].append(group)
    tails = []
    for reason, members in folded.items():
        details = Counter()
        for group in members:
            details[group.detail] += group.count
        tails.append(ErrorTail(reason, sum(g.count for g in members), sum(g.share for g in members), members,
                               details.most_common(1)[0][0], any(g.reason == reason for g in head)))
    return head, sorted(tails, key=lambda tail: (-tail.count, tail.reason))


def is_product_item(item: dict) -> bool:
    data = (item.get("structured_data") or {}).get("structured_data") or {}
    return item.get("page_type") == "product" or is_filled(data.get("price"))


def product_fill(items: list[dict]) -> dict[str, dict[str, float]]:
    """Per site (or template), the share of its product pages with each product field filled."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for item in filter(is_product_item, items):
        found = item_fields(item)
        group = found[0] if found else "unknown"
        data = (item.get("structured_data") or {}).get("structured_data") or {}
        counts[group]["pages"] += 1
        for name in PRODUCT_FIELDS:
            counts[group][name] += is_filled(data.get(name))
    return {group: {name: c[name] / c["pages"] for name in PRODUCT_FIELDS} for group, c in sorted(counts.items())}


def exit_code(items: int, errors: int, alarms: list | None) -> int:
    """The code ``scrapy crawl`` ends with: 3 health alarm, 1 no item but errors, else 0."""
    if alarms:
        return 3
    return 1 if not items and errors else 0


def span_seconds(items: list[dict], errors: list[dict], stats: dict) -> float | None:
    start, finish = parse_time(stats.get("start_time")), parse_time(stats.get("finish_time"))
    if start and finish:
        return (finish - start).total_seconds()
    times = [t for t in (parse_time(r.get("fetched_at") or r.get("at")) for r in items + errors) if t]
    return (max(times) - min(times)).total_seconds() if len(times) > 1 else None


def outcome(items: list[dict], errors: list[dict], stats: dict) -> Outcome:
    duration = span_seconds(items, errors, stats)
    done = len(items) + len(errors)
    alarms = [str(m) for m in stats.get("health/messages") or []] if "health/alarms" in stats else None
    tokens = [v for k, v in stats.items() if k.startswith("llm/tokens/")]
    return Outcome(
        requested=int(stats.get("ledger/requested") or done), items=len(items), errors=len(errors),
        duration_seconds=duration,
        pages_per_minute=done / duration * 60 if duration else None,
        bytes_downloaded=stats.get("downloader/response_bytes"),
        rendered=sum(1 for item in items if item.get("rendered")),
        llm_calls=stats.get("llm/calls"), llm_tokens=sum(tokens) if tokens else None,
        health_alarms=alarms, exit_code=exit_code(len(items), len(errors), alarms),
    )


def summarise(items: list[dict], errors: list[dict], stats: dict | None = None) -> Summary:
    rates = FillRates.from_items(items)
    groups, tail = fold_tail(error_groups(errors))
    return Summary(
        items=len(items), errors=len(errors), timeline=timeline(items, errors),
        status_codes=count_by(items + errors, "status"), reasons=count_by(errors, "reason"),
        vendors=count_by(errors, "vendor"), fill_rates=rates,
        slowest_hosts=slowest_hosts(items), worst_pages=worst_pages(items, errors, rates),
        outcome=outcome(items, errors, stats or {}), error_groups=groups, error_tail=tail,
        product_fill=product_fill(items), page_types=count_by(items, "page_type"),
    )
