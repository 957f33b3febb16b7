"""JSON the way JavaScript writes and reads it.

Reported sizes (`bytes`) are the UTF-8 length of JS `JSON.stringify`: compact,
non-ASCII raw, lone surrogates escaped, and JS number text (`1.0` -> `1`,
`1e-7` -> `1e-7`, NaN -> `null`). orjson writes the same text but for number
spellings, which sizes correct; previews go through `dumps` here. `loads` refuses what
JS JSON.parse refuses (NaN, Infinity) and turns a nesting overflow into a ValueError that says
so (`JsonTooDeepError`).
"""

import json
import math
import re
import sys

import orjson

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')


# A key JS enumerates first (an array index) is written "<digits>", or with a digit escaped (\u0030
# to \u0039; "\u003c" is no digit, and common): without either in the text, the C decoder's own
# dicts are in JS order already, and made far faster.
_INDEX_KEY = re.compile(r'"\d+"\s*:', re.A)
_ESCAPED_DIGIT = re.compile(r"\\u003\d", re.A)


class JsonTooDeepError(ValueError):
    """JSON nested deeper than the decoder reads (its recursion bound), valid or not."""

    def __init__(self):
        super().__init__(f"JSON nested deeper than about {sys.getrecursionlimit()} levels, the reader's bound")


def loads(text):
    """JS JSON.parse: ValueError on anything it would reject, JsonTooDeepError past the nesting
    the decoder reads."""
    hook = _js_object if not isinstance(text, str) or _INDEX_KEY.search(text) or (
        "\\u003" in text and _ESCAPED_DIGIT.search(text)) else None
    try:
        return json.loads(text, parse_constant=_reject_constant, object_hook=hook)
    except RecursionError:
        raise JsonTooDeepError from None


_CDATA = re.compile(r"\s*<!\[CDATA\[")
_CDATA_END = "]]>"


def unwrapped(text):
    """The JSON in a ``<script>`` body that wraps it in ``<![CDATA[ ... ]]>``, as pages written
    for XHTML parsers do (the page's own code strips it before JSON.parse). Any other body as it
    is: JSON never starts with "<". (An HTML comment wrapper is gone already: the embedded-state
    reader drops every comment first, templates.md 5.3.)"""
    if not (opening := _CDATA.match(text)):
        return text
    body = text[opening.end():].rstrip()
    return body[:-len(_CDATA_END)] if body.endswith(_CDATA_END) else text


def loads_at(text, start):
    """(value, end) of the JSON value at ``start`` of the str ``text``: ``loads(text[start:end])``,
    read where it stands (no copy), and once when no key in it can be an array index. ValueError
    when no JSON value starts there."""
    try:
        value, end = _DECODER.raw_decode(text, start)
    except RecursionError:
        raise JsonTooDeepError from None
    if _INDEX_KEY.search(text, start, end) or (
            text.find("\\u003", start, end) >= 0 and _ESCAPED_DIGIT.search(text, start, end)):
        value = loads(text[start:end])
    return value, end


def _js_object(mapping):
    """The C decoder's dict (a repeated key keeps its first place and its last value, as in JS) in
    JS order. JSON keys are strings: one C-level pass rules out integer-like keys on most objects."""
    return js_key_order(mapping) if any(map(str.isdigit, mapping)) else mapping


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def js_number(value):
    """Number.prototype.toString for a finite number (JSON number text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) <= 2**53:
        return str(value)
    value = float(value)
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"
    digits, exponent = _shortest_digits(abs(value))
    sign = "-" if value < 0 else ""
    point = exponent + 1  # position of the decimal point after the first digit
    if len(digits) <= point <= 21:
        return sign + digits + "0" * (point - len(digits))
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * -point + digits
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def _shortest_digits(value):
    """Shortest round-trip digits and decimal exponent of a positive float."""
    text = repr(value)
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
    else:
        mantissa, exponent = text, None
    if exponent is None:
        whole, _, fraction = mantissa.partition(".")
        fraction = fraction.rstrip("0")
        digits = (whole + fraction).lstrip("0")
        exp = len(whole) - 1 if whole != "0" else -(len(fraction) - len(fraction.lstrip("0"))) - 1
        return digits.rstrip("0") or "0", exp
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).rstrip("0") or "0"
    return digits, int(exponent)


def js_key_order(mapping):
    """The dict in JS property order: integer-like keys ascending, then the rest.

    JS objects (and so JSON.parse results) enumerate "0", "9", "14" before other
    keys; sizes do not change but key lists, paths and row order do.
    """
    integer_keys = [key for key in mapping if _is_array_index(key)]
    if not integer_keys:
        return mapping
    ordered = {key: mapping[key] for key in sorted(integer_keys, key=int)}
    ordered.update((key, value) for key, value in mapping.items() if key not in ordered)
    return ordered


def _is_array_index(key):
    return (
        isinstance(key, str) and key.isascii() and key.isdigit()
        and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1
    )


def string_text(text):
    """A JSON string literal as JSON.stringify writes it."""
    if not _NEEDS_ESCAPE.search(text):
        return f'"{text}"'
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def _escape_char(match):
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def scalar_text(value):
    """JSON text of a non-container value (anything that is not JSON -> null)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return string_text(value)
    if isinstance(value, (int, float)):
        return js_number(value)
    return "null"


def iter_chunks(value):
    """JSON.stringify(value) as a stream of text chunks, without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            yield item.text
        elif isinstance(item, dict):
            stack.append(_Raw("}"))
            entries = list(item.items())
            for index in range(len(entries) - 1, -1, -1):
                key, child = entries[index]
                stack.append(child)
                stack.append(_Raw(("," if index else "") + string_text(str(key)) + ":"))
            yield "{"
        elif isinstance(item, list):
            stack.append(_Raw("]"))
            for index in range(len(item) - 1, -1, -1):
                stack.append(item[index])
                if index:
                    stack.append(_Raw(","))
            yield "["
        else:
            yield scalar_text(item)


class _Raw:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def dumps(value):
    """Compact JSON text exactly as JS JSON.stringify writes it."""
    return "".join(iter_chunks(value))


def _utf8_len(text):
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def serialized_size(root, memo=None):
    """UTF-8 size of JSON.stringify(root), computed without building the text.

    `memo` (id -> size) makes a shared subtree cost one visit, so resolved flight
    rows are sized in linear time. Iterative; a cycle counts as 4 bytes.
    """
    if not isinstance(root, (dict, list)):
        return _utf8_len(scalar_text(root))
    memo = {} if memo is None else memo
    in_progress = -1
    stack = [root]
    while stack:
        node = stack[-1]
        state = memo.get(id(node))
        if state is None:
            memo[id(node)] = in_progress
            children = node.values() if isinstance(node, dict) else node
            stack.extend(c for c in children if isinstance(c, (dict, list)) and id(c) not in memo)
            continue
        stack.pop()
        if state == in_progress:
            memo[id(node)] = _container_size(node, memo)
    return memo[id(root)]


def _container_size(node, memo):
    is_dict = isinstance(node, dict)
    size = 2 + max(0, len(node) - 1)
    for key, child in (node.items() if is_dict else enumerate(node)):
        if is_dict:
            size += _utf8_len(string_text(str(key))) + 1
        if isinstance(child, (dict, list)):
            child_size = memo.get(id(child), 4)
            size += 4 if child_size == -1 else child_size
        else:
            size += _utf8_len(scalar_text(child))
    return size


# In orjson's text with its strings dropped, a number JS may write otherwise is a float (written
# with a "." or a signed exponent) or an integer of 16 digits or more (maybe not exact in a
# double). Tokens are bounded by punctuation: no number touches a string or a word.
_NUMBER_AT = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGITS = b"0" * 16  # 16 digits in a row, with every digit a "0"
_FLOAT_MARKS = (b".", b"e+", b"e-")
_NUMBER_CHARS = frozenset(b"0123456789.-+eE")


def _outside_strings(text):
    """orjson's text without its string literals. Backslashes and quotes occur escaped only
    inside strings: with their escapes gone the quotes left delimit the strings, and a split is
    ten times faster than a regex over the text."""
    return b"".join(text.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')[::2])


def byte_size(value):
    """UTF-8 byte length of JSON.stringify(value) (the `bytes` of a found entry).

    orjson writes the same UTF-8 (NaN as null too) except for number spellings, which are
    corrected one by one; values it cannot write (integers beyond 64 bits, non-str keys, lone
    surrogates, nesting from 255 levels, cycles) are sized by the walk of ``serialized_size``,
    ten times slower.
    """
    return sized_text(value)[1]


def sized_text(value, memo=None):
    """(orjson's UTF-8 text of value, ``byte_size(value)``); the text is None for a value sized by
    the walk (it holds no cycle when there is one), which ``memo`` is given to (``serialized_size``)."""
    try:
        text = orjson.dumps(value)
    except orjson.JSONEncodeError:
        return None, serialized_size(value, memo)
    size = len(text)
    for number in _spelled_otherwise(_outside_strings(text) if b'"' in text else text):
        parsed = int(number) if number.lstrip(b"-").isdigit() else float(number)
        size += len(js_number(parsed)) - len(number)
    return text, size


def _spelled_otherwise(outside):
    """The numbers of ``outside`` (orjson's text without strings) that JS may spell otherwise,
    in order: found from their marks with plain searches, then read whole, which is twice as fast
    as a regex trying every digit of the text (and long integers in the text with its digits made
    "0", ten times faster than a regex for their runs)."""
    zeroed, starts = outside.translate(_DIGITS_TO_ZERO), set()
    index = zeroed.find(_LONG_DIGITS)
    while index >= 0:
        starts.add(_number_start(outside, index))
        index = zeroed.find(_LONG_DIGITS, index + len(_LONG_DIGITS))
    for mark in _FLOAT_MARKS:
        index = outside.find(mark)
        while index >= 0:
            starts.add(_number_start(outside, index))
            index = outside.find(mark, index + 1)
    return [_NUMBER_AT.match(outside, start).group() for start in sorted(starts)]


def _number_start(text, index):
    while index and text[index - 1] in _NUMBER_CHARS:
        index -= 1
    return index
