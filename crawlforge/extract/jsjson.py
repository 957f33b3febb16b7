"""JSON the way JavaScript writes and reads it.

Reported sizes (`bytes`) are the UTF-8 length of JS `JSON.stringify`: compact,
non-ASCII raw, lone surrogates escaped, and JS number text (`1.0` -> `1`,
`1e-7` -> `1e-7`, NaN -> `null`). Python's json.dumps differs on floats, so
sizes and previews go through `dumps` here. `loads` refuses what JS JSON.parse
refuses (NaN, Infinity) and turns a nesting overflow into a ValueError.
"""

import json
import math
import re

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')


def loads(text):
    """JS JSON.parse: ValueError on anything it would reject (incl. deep nesting)."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


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


def _string(text):
    if not _NEEDS_ESCAPE.search(text):
        return f'"{text}"'
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def _escape_char(match):
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _scalar(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (int, float)):
        return js_number(value)
    return None


def iter_chunks(value):
    """JSON.stringify(value) as a stream of text chunks, without recursion.

    Non-JSON leaves (objects of other types) are written as null.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            yield item.text
            continue
        if isinstance(item, dict):
            stack.append(_Raw("}"))
            entries = list(item.items())
            for index in range(len(entries) - 1, -1, -1):
                key, child = entries[index]
                stack.append(child)
                stack.append(_Raw(("," if index else "") + _string(str(key)) + ":"))
            yield "{"
        elif isinstance(item, (list, tuple)):
            stack.append(_Raw("]"))
            for index in range(len(item) - 1, -1, -1):
                stack.append(item[index])
                if index:
                    stack.append(_Raw(","))
            yield "["
        else:
            text = _scalar(item)
            yield "null" if text is None else text


class _Raw:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def dumps(value):
    """Compact JSON text exactly as JS JSON.stringify writes it."""
    return "".join(iter_chunks(value))


def byte_size(value):
    """UTF-8 byte length of JSON.stringify(value) (lone surrogates are escaped)."""
    return sum(len(chunk.encode("utf-8")) for chunk in iter_chunks(value))
