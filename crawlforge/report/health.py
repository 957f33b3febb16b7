"""The health check: is this crawl extracting as well as a previous good one?

Alarms, each a sentence naming what broke, before and now:

- with a baseline (fill rates saved from a good run's feed), a field whose fill rate dropped by
  more than ``margin`` (an absolute share: 0.2 = twenty points);
- without one, a required field of a template (``REQUIRED_FIELDS``) empty on more than
  ``required_null_share`` of its items;
- always, once the crawl requested at least ``min_urls`` URLs, a share of blocked pages or of
  URLs that ended as errors above its ceiling (small crawls are too noisy to judge).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from crawlforge.report.feed import FeedError, read_bytes
from crawlforge.report.fillrate import FillRates
from crawlforge.templates.ats import ATS_TEMPLATES

BASELINE_FORMAT = "crawlforge-health-baseline/1"

# Fields without which a template's item is useless; docs/templates.md (§3, §4) names them
# as each entity's identity. Kept here rather than on the templates: they are a health policy.
JOB_REQUIRED = ("id", "title", "url")
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "shopify-product": ("title", "product_id", "price"),
    "shopify-collection": ("title", "product_id", "price"),
    "amazon-product": ("title", "price", "currency", "rating"),
    "github-repo": ("name",),
    "youtube-video": ("title", "video_id"),
    "reddit-thread": ("id", "title"),
    "producthunt-launch": ("name",),
    "stackoverflow-question": ("question_id", "title"),
    "npm-package": ("name", "version"),
    "nhtsa-vin": ("vin",),
    **{template.id: JOB_REQUIRED for template in ATS_TEMPLATES},
}


@dataclass(frozen=True)
class Thresholds:
    margin: float = 0.2
    required_null_share: float = 0.2
    max_blocked_share: float = 0.5
    max_error_share: float = 0.5
    min_urls: int = 20


@dataclass(frozen=True)
class Outcome:
    """How the crawl's URLs ended: requested, as error records, as block pages."""

    requested: int = 0
    errors: int = 0
    blocked: int = 0


def percent(share: float) -> str:
    return f"{share:.0%}"


def field_alarms(now: FillRates, baseline: FillRates | None, thresholds: Thresholds) -> list[str]:
    if baseline is None:
        return required_alarms(now, thresholds)
    alarms = []
    for group, before in sorted(baseline.groups.items()):
        current = now.groups.get(group)
        if current is None or not current.items:
            continue  # this crawl did not reach the template: nothing to compare
        for name in sorted(before.filled):
            was, is_ = before.rate(name), current.rate(name)
            if was - is_ > thresholds.margin:
                alarms.append(f"{group}: field {name!r} fill rate fell from {percent(was)} "
                              f"({before.filled[name]}/{before.items}) to {percent(is_)} "
                              f"({current.filled.get(name, 0)}/{current.items})")
    return alarms


def required_alarms(now: FillRates, thresholds: Thresholds) -> list[str]:
    alarms = []
    for group, counts in sorted(now.groups.items()):
        for name in REQUIRED_FIELDS.get(group, ()):
            empty = 1 - counts.rate(name)
            if counts.items and empty > thresholds.required_null_share:
                alarms.append(f"{group}: required field {name!r} is empty in {percent(empty)} of items "
                              f"({counts.items - counts.filled.get(name, 0)}/{counts.items}; "
                              f"allowed {percent(thresholds.required_null_share)})")
    return alarms


def outcome_alarms(outcome: Outcome, thresholds: Thresholds) -> list[str]:
    if outcome.requested < max(thresholds.min_urls, 1):
        return []
    alarms = []
    for what, count, ceiling in (("blocked pages", outcome.blocked, thresholds.max_blocked_share),
                                 ("URLs ended as errors", outcome.errors, thresholds.max_error_share)):
        share = count / outcome.requested
        if share > ceiling:
            alarms.append(f"{what}: {percent(share)} ({count}/{outcome.requested}), above "
                          f"{percent(ceiling)}")
    return alarms


def check(now: FillRates, outcome: Outcome, baseline: FillRates | None = None,
          thresholds: Thresholds = Thresholds()) -> list[str]:
    """Every alarm of a crawl, as sentences; empty when it is healthy."""
    return field_alarms(now, baseline, thresholds) + outcome_alarms(outcome, thresholds)


def save_baseline(rates: FillRates, path: str | Path) -> None:
    document = {"format": BASELINE_FORMAT, "fields": rates.to_dict()}
    Path(path).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load_baseline(path: str | Path) -> FillRates:
    """A baseline written by ``save_baseline``; anything else is refused, naming the file."""
    data = read_bytes(path)
    try:
        document = json.loads(data.decode("utf-8"))
    except ValueError:  # not UTF-8, not JSON
        document = None
    if not isinstance(document, dict) or document.get("format") != BASELINE_FORMAT:
        raise FeedError(f"{path}: not a health baseline (write one with `scrapy health FEED --save FILE`)")
    return FillRates.from_dict(document["fields"])
