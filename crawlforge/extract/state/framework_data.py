"""Framework payloads a JSON parse cannot read: Nuxt 3 devalue and SvelteKit data.

Nuxt 3 ships state in `__NUXT_DATA__` as a devalue `stringify` payload: a flat
array whose values are indexes into it, with Vue wrappers tagged
`["Reactive", i]`. SvelteKit puts its load() data inline in the boot script as
a JS literal. Both readers return JSON-safe trees and never raise: what they
cannot decode comes back as a warning.
"""

import base64
import binascii
import math
import re
import struct

from crawlforge.extract.state.carriers import ScannedPage
from crawlforge.extract.state.jsjson import loads
from crawlforge.extract.state.jsliteral import Budget, evaluate_literal_node
from crawlforge.extract.state.jsparse import ParseError, deep_recursion, parse_expression_at

MAX_DEPTH = 512
MAX_OUTPUT_COST = 5_000_000
CHARS_PER_COST_UNIT = 16

_UNDEFINED = object()
_SENTINELS = {-1: _UNDEFINED, -3: math.nan, -4: math.inf, -5: -math.inf, -6: -0.0}
_HOLE, _SPARSE = -2, -7
_NUXT_REVIVERS = {"NuxtError", "EmptyShallowRef", "EmptyRef", "ShallowRef", "ShallowReactive", "Ref", "Reactive"}
_TYPED_ARRAYS = {
    "Int8Array": "b", "Uint8Array": "B", "Uint8ClampedArray": "B", "Int16Array": "h",
    "Uint16Array": "H", "Float16Array": "e", "Int32Array": "i", "Uint32Array": "I",
    "Float32Array": "f", "Float64Array": "d", "BigInt64Array": "q", "BigUint64Array": "Q",
}
_STRING_TYPES = {"URL", "URLSearchParams", "Temporal.Duration", "Temporal.Instant",
                 "Temporal.PlainDate", "Temporal.PlainTime", "Temporal.PlainDateTime",
                 "Temporal.PlainMonthDay", "Temporal.PlainYearMonth", "Temporal.ZonedDateTime"}
_BUILTIN_TYPES = {"Date", "Set", "Map", "RegExp", "Object", "BigInt", "null", "DataView",
                  "ArrayBuffer"} | set(_TYPED_ARRAYS) | _STRING_TYPES

_SVELTEKIT_GLOBAL_RE = re.compile(r"\b__sveltekit_[a-z0-9]+\s*=\s*\{", re.I | re.A)
_KIT_START_RE = re.compile(r"\bkit\s*\.\s*start\s*\(", re.A)


class _DecodeError(Exception):
    pass


class _JsSet(list):
    """A devalue Set (written out as a list)."""


class _JsMap(list):
    """A devalue Map, as [key, value] pairs."""


class _Bytes(list):
    """An ArrayBuffer, DataView or typed array: already a list of numbers."""


class _Sparse:
    __slots__ = ("length", "items")

    def __init__(self, length):
        self.length, self.items = length, {}


class _Unflattener:
    """devalue `unflatten` with Nuxt's revivers, building JSON-safe leaves."""

    def __init__(self, values, revivers):
        self.values = list(values)
        self.revivers = revivers
        self.hydrated = {}
        self.reviving = set()

    def hydrate(self, index):
        if isinstance(index, int) and not isinstance(index, bool) and index in _SENTINELS:
            return _SENTINELS[index]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.values):
            raise _DecodeError("Invalid input")
        if index in self.hydrated:
            return self.hydrated[index]
        value = self.values[index]
        if isinstance(value, dict):
            return self._object(index, value)
        if isinstance(value, list) and value:
            if isinstance(value[0], str):
                return self._typed(index, value)
            if value[0] == _SPARSE:
                return self._sparse(index, value)
        if isinstance(value, list):
            return self._array(index, value)
        self.hydrated[index] = value
        return value

    def _object(self, index, value):
        result = self.hydrated[index] = {}
        for key, item in value.items():
            if key == "__proto__":
                raise _DecodeError("Cannot parse an object with a `__proto__` property")
            result[key] = self.hydrate(item)
        return result

    def _array(self, index, value):
        result = self.hydrated[index] = []
        for item in value:
            result.append(_UNDEFINED if item == _HOLE and not isinstance(item, bool) else self.hydrate(item))
        return result

    def _sparse(self, index, value):
        if len(value) < 2 or not isinstance(value[1], int):
            raise _DecodeError("Invalid input")
        result = self.hydrated[index] = _Sparse(value[1])
        for position in range(2, len(value) - 1, 2):
            result.items[value[position]] = self.hydrate(value[position + 1])
        return result

    def _typed(self, index, value):
        kind = value[0]
        if kind in self.revivers:
            return self._revive(index, value)
        if kind in _TYPED_ARRAYS or kind == "DataView":
            return self._view(index, value)
        builder = _BUILDERS.get(kind) or (_string_value if kind in _STRING_TYPES else None)
        if builder is None:
            raise _DecodeError(f"Unknown type {kind}")
        result = builder(self, index, value)
        self.hydrated.setdefault(index, result)
        return self.hydrated[index]

    def _revive(self, index, value):
        if index in self.reviving:
            raise _DecodeError(f"Invalid circular reference to {value[0]} reviver")
        payload = value[1] if len(value) > 1 else _UNDEFINED
        if not isinstance(payload, int) or isinstance(payload, bool):
            self.values.append(payload)
            payload = len(self.values) - 1
        self.reviving.add(index)
        inner = self.hydrate(payload)
        self.reviving.discard(index)
        result = self.hydrated[index] = _REVIVE[value[0]](inner) if value[0] in _REVIVE else inner
        return result

    def _view(self, index, value):
        buffer = self.hydrate(value[1] if len(value) > 1 else -1)
        if not isinstance(buffer, _Bytes) or getattr(buffer, "raw", None) is None:
            raise _DecodeError("Invalid input")
        raw = buffer.raw
        if len(value) >= 4:
            offset, length = value[2], value[3]
            width = 1 if value[0] == "DataView" else struct.calcsize(_TYPED_ARRAYS[value[0]])
            raw = raw[offset:offset + length * width]
        if value[0] == "DataView":
            result = _Bytes(raw)
        else:
            code = _TYPED_ARRAYS[value[0]]
            width = struct.calcsize(code)
            if len(raw) % width:
                raise _DecodeError(f"byte length of {value[0]} should be a multiple of {width}")
            numbers = struct.unpack(f"<{len(raw) // width}{code}", raw)
            result = _Bytes(str(n) if code in "qQ" else n for n in numbers)
        self.hydrated[index] = result
        return result


def _revive_empty_ref(data):
    if data == "_":
        return _UNDEFINED
    if data == "0n":
        return 0
    if not isinstance(data, str):
        return data
    try:
        return loads(data)
    except ValueError:
        return data


_REVIVE = {"EmptyRef": _revive_empty_ref, "EmptyShallowRef": _revive_empty_ref}


def _date(unflattener, index, value):
    return value[1] if len(value) > 1 and isinstance(value[1], str) else None


def _member_key(unflattener, index, member):
    """JS SameValueZero identity of a Set member or Map key.

    An entry that is an object in JS (array, object, Date, boxed value...) is
    itself, even when it is read here as a plain string; NaN equals NaN.
    """
    entry = unflattener.values[index] if isinstance(index, int) and 0 <= index < len(unflattener.values) else None
    if isinstance(entry, (dict, list)):
        return ("object", index)
    if isinstance(member, float) and member != member:
        return ("nan",)
    return (type(member) is str, member if member is not _UNDEFINED else "undefined")


def _set(unflattener, index, value):
    result = unflattener.hydrated[index] = _JsSet()
    seen = set()
    for item in value[1:]:
        member = unflattener.hydrate(item)
        key = _member_key(unflattener, item, member)
        if key not in seen:
            seen.add(key)
            result.append(member)
    return result


def _map(unflattener, index, value):
    result = unflattener.hydrated[index] = _JsMap()
    entries = {}
    for position in range(1, len(value), 2):
        key = unflattener.hydrate(value[position])
        item = unflattener.hydrate(value[position + 1]) if position + 1 < len(value) else _UNDEFINED
        entries.setdefault(_member_key(unflattener, value[position], key), [key, None])[1] = item
    result.extend(entries.values())
    return result


def _regexp(unflattener, index, value):
    flags = value[2] if len(value) > 2 and value[2] is not None else ""
    return f"/{value[1] if len(value) > 1 else ''}/{flags}"


def _boxed(unflattener, index, value):
    """`Object(5)`: devalue writes the index of the boxed primitive."""
    return unflattener.hydrate(value[1]) if len(value) > 1 else _UNDEFINED


def _bigint(unflattener, index, value):
    text = str(value[1]).strip() if len(value) > 1 else ""
    try:
        number = int(text, 0) if text[:2].lower() in ("0x", "0o", "0b") else int(text or "0", 10)
    except ValueError:
        raise _DecodeError(f"Cannot convert {text} to a BigInt") from None
    return str(number)


def _null_object(unflattener, index, value):
    result = unflattener.hydrated[index] = {}
    for position in range(1, len(value) - 1, 2):
        result[str(value[position])] = unflattener.hydrate(value[position + 1])
    return result


def _array_buffer(unflattener, index, value):
    try:
        raw = base64.b64decode(value[1] if len(value) > 1 else "", validate=True)
    except (binascii.Error, TypeError, ValueError):
        raise _DecodeError("Invalid base64 in ArrayBuffer") from None
    result = _Bytes(raw)
    result.raw = raw
    return result


def _string_value(unflattener, index, value):
    return value[1] if len(value) > 1 and isinstance(value[1], str) else None


_BUILDERS = {
    "Date": _date, "Set": _set, "Map": _map, "RegExp": _regexp, "Object": _boxed,
    "BigInt": _bigint, "null": _null_object, "ArrayBuffer": _array_buffer,
}


def _child_path(path, key):
    if isinstance(key, int):
        return f"{path}[{key}]"
    return key if path == "" else f"{path}.{key}"


class _JsonSafe:
    """Write the decoded graph as a tree: cycles as {$ref: path}, bounded output.

    devalue shares repeated values by index, so one object may be written out
    many times. A subtree converted without any $ref, cut or budget overrun is
    remembered with its cost and height and reused (shared) when it fits again:
    same output and same budget arithmetic as writing it out, in linear time.
    """

    def __init__(self, warnings):
        self.warnings = warnings
        self.first_path = {}
        self.on_stack = set()
        self.done = {}  # id -> (result, cost of its contents, height)
        self.cost = self.refs = self.deepest = self.cuts = self.overruns = 0

    def convert(self, value, path, depth):
        is_string = isinstance(value, str)
        self.cost += 1 + len(value) // CHARS_PER_COST_UNIT if is_string else 1
        if value is None or value is _UNDEFINED:
            return None
        is_object = isinstance(value, (dict, list, _Sparse))
        if is_object and id(value) in self.on_stack:
            self.refs += 1
            return {"$ref": self.first_path[id(value)]}
        if self.cost > MAX_OUTPUT_COST:
            self.overruns += 1
            if is_object and id(value) in self.first_path:
                self.refs += 1
                return {"$ref": self.first_path[id(value)]}
            return None
        if isinstance(value, float):
            return value if math.isfinite(value) else None
        if not is_object:
            return value if isinstance(value, (str, bool, int)) else None
        if depth > MAX_DEPTH:
            self.cuts += 1
            return None
        return self._object(value, path, depth)

    def _object(self, value, path, depth):
        known = self.done.get(id(value))
        if known and self.cost + known[1] <= MAX_OUTPUT_COST and depth + known[2] <= MAX_DEPTH:
            self.cost += known[1]
            self.deepest = max(self.deepest, depth + known[2])
            return known[0]
        self.first_path.setdefault(id(value), path)
        self.on_stack.add(id(value))
        before = (self.cost, self.refs, self.cuts, self.overruns)
        outer_deepest, self.deepest = self.deepest, depth
        result = self._container(value, path, depth + 1)
        height = self.deepest - depth
        self.deepest = max(outer_deepest, self.deepest)
        self.on_stack.discard(id(value))
        if (self.refs, self.cuts, self.overruns) == before[1:]:
            self.done[id(value)] = (result, self.cost - before[0], height)
        return result

    def _container(self, value, path, depth):
        if isinstance(value, _Bytes):
            self.cost += len(value)
            return list(value)
        if isinstance(value, _JsMap):
            if all(isinstance(key, str) for key, _ in value):
                return {key: self.convert(item, _child_path(path, key), depth) for key, item in value}
            return [
                [self.convert(key, _child_path(_child_path(path, i), 0), depth),
                 self.convert(item, _child_path(_child_path(path, i), 1), depth)]
                for i, (key, item) in enumerate(value)
            ]
        if isinstance(value, _Sparse):
            return self._sparse(value, path, depth)
        if isinstance(value, list):
            return [self.convert(item, _child_path(path, i), depth) for i, item in enumerate(value)]
        return {key: self.convert(item, _child_path(path, key), depth) for key, item in value.items()}

    def _sparse(self, value, path, depth):
        populated = sorted(key for key in value.items if isinstance(key, int) and 0 <= key < value.length)
        if value.length > MAX_OUTPUT_COST:
            self.warnings.append(
                f'A sparse array of declared length {value.length} at "{path}" was read as an object '
                "of its populated indices."
            )
            return {str(key): self.convert(value.items[key], _child_path(path, str(key)), depth)
                    for key in populated}
        items = [None] * value.length
        for key in populated:
            items[key] = self.convert(value.items[key], _child_path(path, key), depth)
        return items

    def run(self, root):
        result = self.convert(root, "", 0)
        if self.cuts:
            self.warnings.append(f"Branches nested deeper than {MAX_DEPTH} levels were cut and read as null.")
        if self.overruns:
            self.warnings.append(
                f"The decoded payload passed its output budget ({MAX_OUTPUT_COST} units); past it, "
                "repeated objects are written as { $ref } and other values as null."
            )
        return result


def decode_nuxt_data(parsed):
    """Decode a parsed `__NUXT_DATA__` block: `{value, warnings}`, never raises.

    Vue ref/reactive wrappers become their plain values; unknown reviver tags are
    read as their plain value with one warning. The caller's list is not mutated.
    """
    if not isinstance(parsed, list) or not parsed:
        return {"value": None, "warnings": [
            "__NUXT_DATA__ is not a devalue payload (expected a non-empty array); not decoded."
        ]}
    warnings = []
    unknown = []
    for entry in parsed:
        if isinstance(entry, list) and entry and isinstance(entry[0], str) \
                and entry[0] not in _BUILTIN_TYPES and entry[0] not in _NUXT_REVIVERS and entry[0] not in unknown:
            unknown.append(entry[0])
    if unknown:
        warnings.append(
            f"__NUXT_DATA__ uses reviver type(s) this reader does not know ({', '.join(unknown)}); "
            "each was read as its plain value."
        )
    try:
        with deep_recursion():
            decoded = _Unflattener(parsed, _NUXT_REVIVERS | set(unknown)).hydrate(0)
            return {"value": _JsonSafe(warnings).run(decoded), "warnings": warnings}
    except (_DecodeError, RecursionError, ValueError, TypeError, IndexError, struct.error) as error:
        message = "Maximum call stack size exceeded" if isinstance(error, RecursionError) else str(error)
        warnings.append(f"__NUXT_DATA__ could not be decoded: {message}.")
        return {"value": None, "warnings": warnings}


def _find_start_data(body):
    """The `data` value node of `kit.start(app, element, { ..., data, ... })`."""
    for match in _KIT_START_RE.finditer(body):
        try:
            call = parse_expression_at(body, match.start())
        except ParseError:
            continue
        arguments = call.get("arguments") if call["type"] == "CallExpression" else None
        options = arguments[2] if arguments and len(arguments) > 2 else None
        if not options or options["type"] != "ObjectExpression":
            continue
        for prop in options["properties"]:
            if prop["type"] == "Property" and not prop["computed"] and _key_name(prop["key"]) == "data":
                return prop["value"]
    return None


def _key_name(key):
    return key.get("name") if key["type"] == "Identifier" else key.get("value")


def read_sveltekit_data(html_text):
    """SvelteKit's per-route load() data from its boot script, or None without one."""
    return sveltekit_data(ScannedPage(html_text))


def sveltekit_data(page):
    """``read_sveltekit_data`` of a scanned page (``carriers.ScannedPage``)."""
    if not page.has("__sveltekit_"):  # the global's prefix
        return None
    for _, body in page.scripts:
        if not _SVELTEKIT_GLOBAL_RE.search(body):
            continue
        data = _find_start_data(body)
        if data is None:
            return {"value": None, "warnings": [
                "A SvelteKit boot script is present but its kit.start(…) data could not be located."
            ]}
        return _evaluate_sveltekit(data)
    return None


def _evaluate_sveltekit(data):
    """Entries evaluated with ONE budget, so splitting a payload cannot multiply it."""
    budget, warnings = Budget(), []
    if data["type"] != "ArrayExpression":
        result = evaluate_literal_node(data, budget)
        if not result["ok"]:
            warnings.append(f"SvelteKit data was not evaluated ({result['reason']}).")
        return {"value": result["value"] if result["ok"] else None, "warnings": warnings}
    values = []
    for index, element in enumerate(data["elements"]):
        if element is None:
            values.append(None)
            continue
        result = evaluate_literal_node(element, budget)
        if not result["ok"]:
            warnings.append(f"SvelteKit data[{index}] was not evaluated ({result['reason']}); read as null.")
        values.append(result["value"] if result["ok"] else None)
    return {"value": values, "warnings": warnings}
