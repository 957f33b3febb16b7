"""A page split into pieces gets one answer a piece: merge them back into one (lists
concatenated without duplicates, the first value of a field kept)."""

from __future__ import annotations

import json


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
