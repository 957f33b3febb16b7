"""Field fill rates: for each template (or, for generic pages, each site) how many items came
back with each field filled.

"Filled" follows the templates' empty-record guard: ``None``, ``""`` and an empty list are
empty; ``False``, ``0`` and ``{}`` are values. The same counts are kept live in the crawl stats
(``fields/<group>/<field>/filled`` and ``/total``) and computed from a feed after the crawl, so a
baseline saved from a feed compares with a running crawl.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

STATS_PREFIX = "fields/"
# Bookkeeping keys of a list connector's dict item and of a job item: not extracted fields.
_NOT_FIELDS = {"template", "source", "raw_extra"}


def is_filled(value) -> bool:
    return value is not None and value != "" and value != []


def item_fields(item: Mapping) -> tuple[str, dict[str, bool]] | None:
    """``(group, {field: filled})`` of one exported item, or None when it carries no fields.

    A template page is judged on its ``template_data``; a list connector's entry (a dict with
    ``template``) and a job (``source`` + ``raw_extra``) on their own keys; any other page on its
    structured data (``<section>.<key>``, e.g. ``structured_data.price``), grouped by host.
    """
    keys = set(item.keys())
    if item.get("template") and "template_data" in keys:
        data = item.get("template_data")
        return (item["template"], _filled(data)) if isinstance(data, Mapping) else None
    if item.get("template") or ("source" in keys and "raw_extra" in keys):
        group = item.get("template") or item.get("source")
        return group, {name: is_filled(item.get(name)) for name in keys - _NOT_FIELDS}
    sections = item.get("structured_data")
    if not isinstance(sections, Mapping) or not item.get("url"):
        return None
    fields = {f"{name}.{key}": is_filled(value)
              for name, section in sections.items() if isinstance(section, Mapping)
              for key, value in section.items()}
    return urlsplit(item["url"]).hostname or "unknown", fields


def _filled(data: Mapping) -> dict[str, bool]:
    return {str(name): is_filled(value) for name, value in data.items()}


@dataclass
class GroupCounts:
    """One template's (or site's) items, and how many of them filled each field."""

    items: int = 0
    filled: dict[str, int] = field(default_factory=dict)

    def rate(self, name: str) -> float:
        return self.filled.get(name, 0) / self.items if self.items else 0.0


@dataclass
class FillRates:
    """Counts items per group; a field first seen late counts as empty in the earlier items,
    since generic pages only carry the structured fields they have."""

    groups: dict[str, GroupCounts] = field(default_factory=dict)

    def add(self, item: Mapping) -> str | None:
        """Count one item; the group it counted in (None: an item without fields)."""
        found = item_fields(item)
        if found is None:
            return None
        group, fields = found
        counts = self.groups.setdefault(group, GroupCounts())
        counts.items += 1
        for name, filled in fields.items():
            counts.filled[name] = counts.filled.get(name, 0) + filled
        return group

    def group_stats(self, group: str) -> dict[str, int]:
        """The ``fields/<group>/<field>/filled|total`` stats of one group."""
        counts = self.groups[group]
        stats = {}
        for name, filled in counts.filled.items():
            stats[f"{STATS_PREFIX}{group}/{name}/filled"] = filled
            stats[f"{STATS_PREFIX}{group}/{name}/total"] = counts.items
        return stats

    @classmethod
    def from_items(cls, items) -> FillRates:
        rates = cls()
        for item in items:
            rates.add(item)
        return rates

    @classmethod
    def from_stats(cls, stats: Mapping) -> FillRates:
        """Read the counts back from crawl stats (a field's total is its group's item count)."""
        rates = cls()
        for key, value in stats.items():
            if not key.startswith(STATS_PREFIX):
                continue
            group, _, rest = key[len(STATS_PREFIX):].partition("/")
            name, _, kind = rest.rpartition("/")
            counts = rates.groups.setdefault(group, GroupCounts())
            if kind == "filled":
                counts.filled[name] = int(value)
            elif kind == "total":
                counts.items = max(counts.items, int(value))
        return rates

    def to_dict(self) -> dict:
        return {group: {"items": c.items, "filled": dict(sorted(c.filled.items()))}
                for group, c in sorted(self.groups.items())}

    @classmethod
    def from_dict(cls, data: Mapping) -> FillRates:
        return cls({group: GroupCounts(int(g["items"]), {k: int(v) for k, v in g["filled"].items()})
                    for group, g in data.items()})
