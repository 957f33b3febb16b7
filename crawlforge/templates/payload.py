"""Reading an API's answer defensively: the body may be an HTML wall, and the JSON may be a
list, a scalar or an object missing the key a connector expects."""

from __future__ import annotations

from typing import Any

from .common import load_json


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
