"""Plumbing shared by the API connectors: building a query the way the WHATWG URL API does, and
reading an answer defensively (the body may be an HTML wall; the JSON may be a list, a scalar or
an object without the key a connector expects)."""

from __future__ import annotations

from typing import Any

from ada_url import URL, URLSearchParams

from .common import js_string, load_json


def with_query(url: str | URL, pairs: list[tuple[str, Any]]) -> str:
    """``url.searchParams.set(name, String(value))`` for each pair whose value is not None, in order:
    an existing name is replaced in place and the query re-serialised form-encoded (space as ``+``)."""
    url = URL(url) if isinstance(url, str) else url
    params = URLSearchParams(url.search)
    for name, value in pairs:
        if value is not None:
            params.set(name, js_string(value))
    url.search = str(params)
    return url.href


def parse_json(body: str | bytes, error: Exception) -> Any:
    """The decoded body, or the connector's own ``error`` when it is not JSON."""
    try:
        return load_json(body)
    except ValueError:
        raise error from None


def field(payload: Any, key: str) -> Any:
    """``payload[key]`` when the payload is an object, else ``None``."""
    return payload.get(key) if isinstance(payload, dict) else None


def as_list(value: Any) -> list:
    """The value when it is a JSON array, else ``[]`` (an absent or malformed list reads as empty)."""
    return value if isinstance(value, list) else []
