"""Spider arguments and settings arrive as strings: one reading of a yes/no value for all of
crawlforge's components."""

from __future__ import annotations

YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")


def as_flag(value, name: str = "value") -> bool:
    """``1/true/yes/on`` and ``0/false/no/off`` (any case), or a bool; anything else is a
    mistake worth stopping for, named in the error."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in YES:
        return True
    if text in NO:
        return False
    raise ValueError(f"{name} must be one of {'/'.join(YES)} or {'/'.join(NO)}, not {value!r}")
