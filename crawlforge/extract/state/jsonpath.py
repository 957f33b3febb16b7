"""Dotted paths into parsed JSON (`apollo_state['ROOT_QUERY'].a[0]`).

A miss raises JsonPathError saying where the walk stopped and what was there,
so a user can correct the path without dumping the whole payload.
"""

import math

from crawlforge.extract.state.jsutil import js_to_number

_MAX_LISTED_KEYS = 25


class JsonPathError(KeyError):
    """A path that does not resolve; the message names the keys available."""

    def __str__(self):
        return self.args[0] if self.args else ""


def parse_json_path(path):
    """Split on `.` and `[...]`; quotes in brackets are dropped, empty parts too."""
    segments = []
    for part in str(path).split("."):
        head, *brackets = part.split("[")
        if head:
            segments.append(head)
        for bracket in brackets:
            segment = _strip_one(_strip_one(bracket, "]", end=True), "'\"", start=True)
            segment = _strip_one(segment, "'\"", end=True)
            if segment:
                segments.append(segment)
    return segments


def _strip_one(text, chars, start=False, end=False):
    if start and text[:1] and text[0] in chars:
        text = text[1:]
    if end and text[-1:] and text[-1] in chars:
        text = text[:-1]
    return text


def select_json_path(data, path):
    """The value at `path`; false, null and 0 leaves resolve like any other."""
    segments = parse_json_path(path)
    if not segments:
        raise JsonPathError(f'Path "{path}" is empty')
    value = data
    for index, segment in enumerate(segments):
        found, child = _step(value, segment)
        if not found:
            where = "the result" if index == 0 else f'"{".".join(segments[:index])}"'
            raise JsonPathError(
                f'Path "{path}" not found: {where} has no "{segment}" ({_options(value)})'
            )
        value = child
    return value


def _step(value, segment):
    if isinstance(value, list):
        position = _js_number_index(segment)
        if position is not None and position < len(value):
            return True, value[position]
        return False, None
    if isinstance(value, dict) and segment in value:
        return True, value[segment]
    return False, None


def _js_number_index(segment):
    """JS Number(segment) as a list index: "1", " 1 ", "1.0", "0x1" all mean 1."""
    number = js_to_number(segment)
    if not math.isfinite(number) or number < 0 or number != int(number):
        return None
    return int(number)


def _options(value):
    if isinstance(value, list):
        return f"array of length {len(value)}"
    if isinstance(value, dict):
        keys = [str(key) for key in value]
        listed = ", ".join(keys[:_MAX_LISTED_KEYS])
        more = f", … ({len(keys)} total)" if len(keys) > _MAX_LISTED_KEYS else ""
        return f"available keys: {listed}{more}"
    return f"a {_type_name(value)} value, which has no keys"


def _type_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string" if isinstance(value, str) else "undefined"
