"""Documents as YAML frontmatter between ``---`` fences, then the markdown.

The YAML is PyYAML's safe dialect (no Python tags), UTF-8 as written (not escaped),
keys in the order given. Every scalar is written on one line (multi-line strings
double-quoted with ``\\n`` escapes), so no line of the frontmatter can be a fence.
"""

from __future__ import annotations

import datetime
import re

import yaml

FENCE = "---"
DROPPED_KEY = "frontmatter_dropped"
_OPENING = re.compile(r"\A\ufeff?---[ \t]*\r?\n")
_CLOSING = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$\n?", re.M)
_LINE_BREAKS = re.compile("[\n\r\x85\u2028\u2029]")  # YAML's line breaks


def represent_str(dumper, data):
    style = '"' if _LINE_BREAKS.search(data) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


class _Dumper(yaml.SafeDumper):
    pass


class _CDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
    """libyaml's emitter, several times faster. It writes some things unlike PyYAML's (keys past
    128 characters, characters past U+FFFF escaped, control characters, lone surrogates), so a
    document holding any takes PyYAML's: both give byte-identical documents."""


_Dumper.add_representer(str, represent_str)
_CDumper.add_representer(str, represent_str)
LONG_KEY = 100
_PLAIN_TEXT = re.compile("[\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*")
"""Strings both emitters write alike: printable, within the Basic Multilingual Plane, no BOM."""


def dump_yaml(data: dict) -> str:
    if not data:
        return ""
    data = plain(data)
    dumper = _CDumper if _alike(data) else _Dumper
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, default_flow_style=False,
                     width=2**31 - 1)


def _alike(value) -> bool:
    """Whether libyaml writes ``value`` as PyYAML does."""
    if isinstance(value, str):
        return _PLAIN_TEXT.fullmatch(value) is not None
    if isinstance(value, dict):
        return all(len(key) <= LONG_KEY and _alike(key) and _alike(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_alike(item) for item in value)
    return True


def plain(value):
    """JSON-like data only: tuples become lists, keys strings, dates ISO strings,
    anything else its ``str``, so the dump never needs a Python tag."""
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return str(value)


def render_document(frontmatter: dict, markdown: str, max_bytes: int | None = None) -> str:
    """The document; with ``max_bytes``, a frontmatter past it loses its largest sections
    (``cap_frontmatter``). The YAML is dumped once unless it has to be capped."""
    text = dump_yaml(frontmatter)
    if max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        text = dump_yaml(cap_frontmatter(frontmatter, max_bytes))
    return f"{FENCE}\n{text}{FENCE}\n\n{markdown}"


def parse_document(text: str) -> tuple[dict, str]:
    """``(frontmatter, markdown)``; text without a leading YAML mapping between fences
    (a markdown rule, broken YAML) is all markdown: ``({}, text)``."""
    opening = _OPENING.match(text)
    closing = _CLOSING.search(text, opening.end()) if opening else None
    if not closing:
        return {}, text
    try:
        data = yaml.safe_load(text[opening.end() : closing.start()])
    except yaml.YAMLError:
        return {}, text
    if data is not None and not isinstance(data, dict):
        return {}, text
    body = text[closing.end() :]
    return data or {}, body[1:] if body.startswith("\n") else body


def cap_frontmatter(frontmatter: dict, max_bytes: int) -> dict:
    """Drop the largest sections (dict or list values) until the YAML fits in
    ``max_bytes``; ``frontmatter_dropped`` names them. Values are never cut, so
    scalars stay even when they alone exceed the cap."""
    if not max_bytes or _size(frontmatter) <= max_bytes:
        return frontmatter
    sizes = {key: _size({key: value}) for key, value in frontmatter.items() if isinstance(value, (dict, list))}
    capped, dropped = dict(frontmatter), []
    for key in sorted(sizes, key=sizes.get, reverse=True):
        del capped[key]
        dropped.append(key)
        if _size({**capped, DROPPED_KEY: dropped}) <= max_bytes:
            break
    return {**capped, DROPPED_KEY: dropped} if dropped else capped


def _size(data: dict) -> int:
    return len(dump_yaml(data).encode("utf-8", "surrogatepass"))
