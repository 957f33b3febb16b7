"""Documents as YAML frontmatter between ``---`` fences, then the markdown.

The YAML is PyYAML's safe dialect (no Python tags), UTF-8 as written (not escaped),
keys in the order given. Every scalar is written on one line (multi-line strings
double-quoted with ``\\n`` escapes), so no line of the frontmatter can be a fence.
"""

from __future__ import annotations

import datetime
import re

import yaml
from yaml.resolver import Resolver

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
    if _alike(data):
        try:
            return "".join(_block_mapping(data, 0, False, []))
        except _NotPlain:
            dumper = _CDumper
    else:
        dumper = _Dumper
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, default_flow_style=False,
                     width=2**31 - 1)


class _NotPlain(Exception):
    """A value the short writer leaves to yaml: a float it writes its own way, an empty key, a
    type it does not represent (a subclass)."""


# The short writer: what libyaml writes, for the data both emitters write alike (``_alike``: every
# string on one line of printable characters) and keys in block style: a string plain when
# PyYAML's analysis allows a block plain scalar and it reads back as a string, else single-quoted.
# yaml.dump cost ~0.2 ms a page, most of it in the Python calls of its representer and events.
_RESOLVERS = Resolver.yaml_implicit_resolvers
_STR_TAG, _FLOAT_TAG = "tag:yaml.org,2002:str", "tag:yaml.org,2002:float"
# A block plain scalar (``Emitter.analyze_scalar``): no leading or trailing space, no leading
# indicator, no ": " or " #" (nor a ":" at the end), no document marker at the start.
_BLOCK_PLAIN = re.compile(r"(?!---|\.\.\.)(?![-?:](?: |$))[^ #,\[\]{}&*!|>'\"%@`](?:(?!: |:$| #).)*(?<! )", re.S)


def _resolved(value: str) -> str:
    """The tag a plain ``value`` reads back as (``Resolver.resolve``)."""
    for tag, regexp in _RESOLVERS.get(value[0], []) + _RESOLVERS.get(None, []):
        if regexp.match(value):
            return tag
    return _STR_TAG


def _scalar(value) -> str:
    kind = type(value)  # yaml represents a subclass as nothing (an error): it is left to yaml
    if kind is str:
        if value and _BLOCK_PLAIN.fullmatch(value) and _resolved(value) == _STR_TAG:
            return value
        return "'" + value.replace("'", "''") + "'"
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    text = repr(value).lower() if kind is float else ""  # as SafeRepresenter.represent_float
    text = text.replace("e", ".0e", 1) if "." not in text and "e" in text else text
    if not text or value != value or not _BLOCK_PLAIN.fullmatch(text) or _resolved(text) != _FLOAT_TAG:
        raise _NotPlain(text)  # not a float, or one yaml writes its own way (nan, inf)
    return text


def _block_mapping(data: dict, indent: int, inline: bool, out: list) -> list:
    """``data`` as a block mapping at ``indent``, its first key on the current line when ``inline``
    (a sequence item's); a sequence value is indentless, as PyYAML and libyaml write it."""
    for key, value in data.items():
        if not key:
            raise _NotPlain(key)  # an empty key is a complex key ("? ''")
        out.append(f"{_scalar(key)}:" if inline else f"{' ' * indent}{_scalar(key)}:")
        inline = False
        _value(value, indent, indent + 2, out)
    return out


def _block_sequence(data: list, indent: int, inline: bool, out: list) -> list:
    for item in data:
        out.append("-" if inline else f"{' ' * indent}-")
        inline = False
        if isinstance(item, dict) and item:
            out.append(" ")
            _block_mapping(item, indent + 2, True, out)
        elif isinstance(item, list) and item:
            out.append(" ")
            _block_sequence(item, indent + 2, True, out)
        else:
            _value(item, indent, indent + 2, out)
    return out


def _value(value, sequence_indent: int, mapping_indent: int, out: list) -> None:
    """A mapping value or a sequence item after its indicator: a scalar or an empty collection on
    the same line, else the collection on the lines below."""
    if isinstance(value, dict) and value:
        out.append("\n")
        _block_mapping(value, mapping_indent, False, out)
    elif isinstance(value, list) and value:
        out.append("\n")
        _block_sequence(value, sequence_indent, False, out)
    else:
        out.append(" {}\n" if isinstance(value, dict) else " []\n" if isinstance(value, list) else f" {_scalar(value)}\n")


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
