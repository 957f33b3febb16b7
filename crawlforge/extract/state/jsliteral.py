"""Read a JavaScript literal without running it.

Pages ship state as JS rather than JSON: unquoted keys, `void 0`, `!0`, and the
IIFE that Nuxt 2 and devalue.uneval emit to share repeated values
(`window.__NUXT__=(function(a,b){return {x:a,y:[b]}}(1,"z"))`). This is static
evaluation of a parsed expression: no eval, no lookups; an identifier resolves
only to a bound IIFE parameter or undefined/NaN/Infinity. The source is
attacker-controlled, so nesting depth and total work are capped. A parameter
reference is charged what its argument cost, or nested IIFEs would expand
exponentially.
"""

import math
import re
from dataclasses import dataclass

from crawlforge.extract.state.jsjson import js_key_order, js_number
from crawlforge.extract.state.jsparse import ParseError, deep_recursion, parse_expression_at
from crawlforge.extract.state.jsutil import iso_from_ms, is_number

MAX_DEPTH = 512
MAX_COST = 5_000_000
CHARS_PER_COST_UNIT = 16

_UNDEFINED = object()
_ISO_DATE = re.compile(
    r"([+-]\d{6}|\d{4})(?:-(\d\d)(?:-(\d\d))?)?"
    r"(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d:\d\d)?)?$"
)


class JsLiteralError(ValueError):
    """The text is not a JavaScript literal this reader can evaluate statically."""


class _Refusal(Exception):
    pass


@dataclass
class Budget:
    """Evaluation cost so far; share one between calls to cap them together."""

    cost: int = 0


def evaluate_literal_source(text, start=0, first_reason=True):
    """Parse the expression at `start` and evaluate it.

    Returns `{ok: True, value, end}` or `{ok: False, reason}`; never raises.
    `end` excludes wrapping parentheses, as acorn's node does. ``first_reason=False``, for a caller
    that reads only ``ok`` and ``value``: a block that no literal holds (a function body other than
    ``{ return <expr> }``) is refused where the parse meets it, not skipped (a Nuxt state's 100 KB
    function costs ~20 ms to skip); the reason is then that block, not the first the evaluation
    would give.
    """
    try:
        node = parse_expression_at(text, start, literal_only=not first_reason)
    except ParseError as error:
        return {"ok": False, "reason": f"not parseable: {error}"}
    result = evaluate_literal_node(node)
    if result["ok"]:
        result["end"] = node["end"]
    return result


def evaluate_literal_node(node, budget=None):
    """Evaluate an already-parsed node: `{ok, value}` or `{ok: False, reason}`."""
    budget = Budget() if budget is None else budget
    try:
        with deep_recursion():
            return {"ok": True, "value": _json_safe(_evaluate(node, None, 0, budget))}
    except _Refusal as refusal:
        return {"ok": False, "reason": f"not a literal: {refusal}"}
    except (RecursionError, ValueError, OverflowError) as error:
        return {"ok": False, "reason": f"not evaluated: {error}"}


def parse_js_literal(text, start=0):
    """The value of the JS literal at `start` (text after it is ignored).

    Raises JsLiteralError (a ValueError) with the reason when it is not one.
    """
    result = evaluate_literal_source(text, start)
    if not result["ok"]:
        raise JsLiteralError(result["reason"])
    return result["value"]


def _json_safe(value):
    if value is _UNDEFINED:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _charge(budget, units):
    budget.cost += units
    if budget.cost > MAX_COST:
        raise _Refusal(f"the literal exceeds the evaluation budget of {MAX_COST} units")


def _charge_string(budget, text):
    _charge(budget, -(-len(text) // CHARS_PER_COST_UNIT))
    return text


def _typeof(value):
    if value is _UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string" if isinstance(value, str) else "object"


def _lookup(scope, name):
    while scope is not None:
        bindings, scope = scope
        if name in bindings:
            return bindings[name]
    return None


def _evaluate(node, scope, depth, budget):
    if depth > MAX_DEPTH:
        raise _Refusal(f"nesting deeper than {MAX_DEPTH} levels")
    _charge(budget, 1)
    handler = _HANDLERS.get(node["type"])
    if handler is None:
        raise _Refusal(f"a {node['type']}")
    return handler(node, scope, depth, budget)


def _literal(node, scope, depth, budget):
    if node.get("regex"):
        raise _Refusal("a regular expression literal")
    value = node["value"]
    if isinstance(value, tuple):  # bigint
        return value[1]
    if isinstance(value, str):
        return _charge_string(budget, value)
    return value


def _array(node, scope, depth, budget):
    values = []
    for element in node["elements"]:
        if element is None:
            values.append(None)
        elif element["type"] == "SpreadElement":
            raise _Refusal("a spread element")
        else:
            values.append(_json_safe(_evaluate(element, scope, depth + 1, budget)))
    return values


def _object(node, scope, depth, budget):
    result = {}
    for prop in node["properties"]:
        if prop["type"] != "Property":
            raise _Refusal("a spread property")
        if prop["computed"]:
            raise _Refusal("a computed key")
        if prop["kind"] != "init" or prop["method"]:
            raise _Refusal("a method, getter or setter")
        key = prop["key"]
        if prop["shorthand"]:
            raise _Refusal(f'a shorthand property "{key["name"]}"')
        name = key["name"] if key["type"] == "Identifier" else _key_string(key["value"])
        result[name] = _json_safe(_evaluate(prop["value"], scope, depth + 1, budget))
    return js_key_order(result)


def _key_string(value):
    if isinstance(value, tuple):
        return value[1]
    if isinstance(value, str):
        return value
    return js_number(value)


def _unary(node, scope, depth, budget):
    value = _evaluate(node["argument"], scope, depth + 1, budget)
    operator = node["operator"]
    if operator == "void":
        return _UNDEFINED
    if operator in ("-", "+") and is_number(value):
        return -value if operator == "-" else value
    if operator == "!" and isinstance(value, (int, float)):
        return value == 0 or value != value  # NaN is falsy in JS
    raise _Refusal(f'the unary operator "{operator}" on a {_typeof(value)}')


def _identifier(node, scope, depth, budget):
    name = node["name"]
    binding = _lookup(scope, name)
    if binding is not None:
        value, cost = binding
        _charge(budget, cost)
        return value
    if name == "undefined":
        return _UNDEFINED
    if name == "NaN":
        return math.nan
    if name == "Infinity":
        return math.inf
    raise _Refusal(f'the identifier "{name}"')


def _template(node, scope, depth, budget):
    if node["expressions"] or node["cooked"] is None:
        raise _Refusal("a template literal with expressions")
    return _charge_string(budget, node["cooked"])


def _binary(node, scope, depth, budget):
    if node["operator"] != "+":
        raise _Refusal(f'the binary operator "{node["operator"]}"')
    left = _evaluate(node["left"], scope, depth + 1, budget)
    right = _evaluate(node["right"], scope, depth + 1, budget)
    if not (isinstance(left, str) and isinstance(right, str)):
        raise _Refusal('a "+" that is not string concatenation')
    return _charge_string(budget, left + right)


def _new(node, scope, depth, budget):
    callee = node["callee"]
    name = callee.get("name") if callee["type"] == "Identifier" else None
    if name in ("Date", "RegExp") and _lookup(scope, name) is None:
        args = _arguments(node["arguments"], scope, depth, budget)
        values = [value for value, _ in args]
        if name == "Date" and len(values) == 1 and isinstance(values[0], (int, float, str)) \
                and not isinstance(values[0], bool):
            return _date_iso(values[0])
        if name == "RegExp" and 1 <= len(values) <= 2 and all(isinstance(v, str) for v in values):
            flags = values[1] if len(values) == 2 else ""
            return _charge_string(budget, f"/{values[0]}/{flags}")
    raise _Refusal("a constructor call")


def _arguments(nodes, scope, depth, budget):
    """Each argument's value and what it cost (charged again per reference)."""
    args = []
    for arg in nodes:
        if arg["type"] == "SpreadElement":
            raise _Refusal("a spread argument")
        before = budget.cost
        value = _evaluate(arg, scope, depth + 1, budget)
        args.append((value, budget.cost - before))
    return args


def _is_literal_iife(callee):
    return (
        callee["type"] == "FunctionExpression"
        and not callee["is_async"]
        and not callee["generator"]
        and all(param["type"] == "Identifier" for param in callee["params"])
        and callee["body_return"] is not None
    )


def _call(node, scope, depth, budget):
    callee = node["callee"]
    if not _is_literal_iife(callee):
        raise _Refusal("a function call")
    args = _arguments(node["arguments"], scope, depth, budget)
    bindings = {}
    for index, param in enumerate(callee["params"]):
        bindings[param["name"]] = args[index] if index < len(args) else (_UNDEFINED, 0)
    return _evaluate(callee["body_return"], (bindings, scope), depth + 1, budget)


def _date_iso(value):
    """JS `new Date(x).toISOString()`, or None for an invalid date."""
    millis = _parse_date_string(value.strip()) if isinstance(value, str) else value
    return iso_from_ms(millis) if millis is not None else None


def _days_from_civil(year, month, day):
    """Days from 1970-01-01 to a proleptic Gregorian date (inverse of jsutil's civil date)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146_097 + day_of_era - 719_468


def _parse_date_string(text):
    """ISO 8601 date strings, read as V8 does: UTC without an offset, and a day
    up to 31 rolls over (`2020-02-30` is 1 March); None when not ISO."""
    match = _ISO_DATE.match(text)
    if not match:
        return None
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    month, day, hour, minute, second = (int(v or d) for v, d in
                                        ((month, 1), (day, 1), (hour, 0), (minute, 0), (second, 0)))
    if not (1 <= month <= 12 and 1 <= day <= 31 and minute < 60 and second < 60) or hour > 24 \
            or (hour == 24 and (minute or second or int(fraction or 0))):
        return None
    millis = _days_from_civil(int(year), month, 1) * 86_400_000
    millis += (((day - 1) * 24 + hour) * 60 + minute) * 60_000 + second * 1000
    millis += int((fraction or "0")[:3].ljust(3, "0"))
    if offset and offset != "Z":
        sign = 1 if offset[0] == "+" else -1
        millis -= sign * (int(offset[1:3]) * 60 + int(offset[4:6])) * 60_000
    return millis


_HANDLERS = {
    "Literal": _literal,
    "ArrayExpression": _array,
    "ObjectExpression": _object,
    "UnaryExpression": _unary,
    "Identifier": _identifier,
    "TemplateLiteral": _template,
    "BinaryExpression": _binary,
    "NewExpression": _new,
    "CallExpression": _call,
}
