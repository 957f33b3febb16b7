"""The static JavaScript-literal reader (templates.md §5.3.3): values, refusals, limits."""

import re

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT

from crawlforge.extract.state.jsliteral import (
    JsLiteralError,
    evaluate_literal_node,
    evaluate_literal_source,
    parse_js_literal,
)
from crawlforge.extract.state.jsparse import parse_expression_at

FIXTURES = ROOT / "fixtures" / "embedded"
SCRIPT = re.compile(r"<script\b[^>]*>([\s\S]*?)</script\s*>", re.I)


def script_starting(name, prefix):
    html = (FIXTURES / name).read_text(encoding="utf-8")
    return next(body for body in SCRIPT.findall(html) if body.startswith(prefix))


def refusal(source):
    result = evaluate_literal_source(source)
    assert result["ok"] is False
    return result["reason"]


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('"a"', "a"),
        ("'b'", "b"),
        ("1.5", 1.5),
        ("true", True),
        ("null", None),
        ("10n", "10"),
        ("0x10n", "16"),
        ('[1,,"x",[true]]', [1, None, "x", [True]]),
        ('{a:1,"b-c":2,3:[]}', {"a": 1, "b-c": 2, "3": []}),
        ("{a:1,a:2}", {"a": 2}),
        ("[-1,+2,!0,!1,void 0]", [-1, 2, True, False, None]),
        ("{a:undefined,b:NaN,c:-Infinity,d:Infinity}", {"a": None, "b": None, "c": None, "d": None}),
        ("1e999", None),
        ('`plain`+"a"+"b"', "plainab"),
        ('"caf\\u00e9 \\ud83d\\ude00"', "café \U0001F600"),
        ("new Date(1785542400000)", "2026-08-01T00:00:00.000Z"),
        ('new Date("2020-01-02T00:00:00Z")', "2020-01-02T00:00:00.000Z"),
        ('new Date("not a date")', None),
        ('new RegExp("a","gi")', "/a/gi"),
        ('(function(a,b){return {x:a,y:[b]}}(1,"z"))', {"x": 1, "y": ["z"]}),
        ("(function(a,b){return [a,b]})(1)", [1, None]),
        ('(function(a){return (function(b){return [a,b]}(a+"!"))}("x"))', ["x", "x!"]),
        ('{"__proto__":{"polluted":true}}', {"__proto__": {"polluted": True}}),
    ],
)
def test_literal_forms_evaluate_to_plain_values(source, value):
    assert parse_js_literal(source) == value


@pytest.mark.parametrize(
    ("source", "iso"),
    [
        ('new Date("2020-02-30")', "2020-03-01T00:00:00.000Z"),  # V8 rolls a day up to 31 over
        ('new Date("2020-02-32")', None),
        ('new Date("2020-01-01T10:20:30.5+02:00")', "2020-01-01T08:20:30.500Z"),
        ("new Date(8640000000000000)", "+275760-09-13T00:00:00.000Z"),
        ("new Date(8640000000000001)", None),
        ("new Date(-1.5)", "1969-12-31T23:59:59.999Z"),
    ],
)
def test_dates_read_as_v8_writes_them(source, iso):
    assert parse_js_literal(source) == iso


def test_end_offset_stops_after_the_literal():
    text = "window.x = {a:[1]}; next()"
    result = evaluate_literal_source(text, text.index("{"))
    assert result == {"ok": True, "value": {"a": [1]}, "end": text.index(";")}


def test_node_evaluation_on_a_parsed_expression():
    node = parse_expression_at('{a:[1,"x"]}')
    assert evaluate_literal_node(node) == {"ok": True, "value": {"a": [1, "x"]}}


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("foo()", "a function call"),
        ("a.b", "a MemberExpression"),
        ("{a:window}", 'the identifier "window"'),
        ("(function(a){return b}(1))", 'the identifier "b"'),
        ("(function(a){a.x=1;return a}({}))", "a function call"),
        ('(function(){"use strict";return 1}())', "a function call"),
        ("((a)=>a)(1)", "a function call"),
        ("(function(a=1){return a}())", "a function call"),
        ("(function(...a){return a}(1))", "a function call"),
        ("(async function(){return 1}())", "a function call"),
        ("(function(a){return a}(...[1]))", "a spread argument"),
        ("[...a]", "a spread element"),
        ("{...a}", "a spread property"),
        ('{["a"]:1}', "a computed key"),
        ("{a}", 'a shorthand property "a"'),
        ("{get a(){return 1}}", "a method, getter or setter"),
        ("/a/g", "a regular expression literal"),
        ("typeof 1", 'the unary operator "typeof" on a number'),
        ('-"1"', 'the unary operator "-" on a string'),
        ("1-2", 'the binary operator "-"'),
        ('"a"+1', 'a "+" that is not string concatenation'),
        ("`${1}`", "a template literal with expressions"),
        ("new Date()", "a constructor call"),
        ("(function(Date){return new Date(0)}(1))", "a constructor call"),
    ],
)
def test_non_literals_are_refused_with_the_reason(source, reason):
    assert refusal(source) == f"not a literal: {reason}"


def test_syntax_error_is_a_refusal_and_parse_js_literal_raises_value_error():
    assert refusal("{a:").startswith("not parseable: ")
    with pytest.raises(JsLiteralError) as error:
        parse_js_literal("{a:")
    assert isinstance(error.value, ValueError)


def test_malformed_escapes_and_numbers_are_parse_refusals():
    for source in ['"\\u"', '"\\x4"', "0b_", '"\\u{110000}"']:
        assert refusal(source).startswith("not parseable: "), source


def test_nesting_past_512_is_refused_and_100k_brackets_do_not_crash():
    assert refusal("[" * 600 + "]" * 600) == "not a literal: nesting deeper than 512 levels"
    assert refusal("[" * 100_000 + "]" * 100_000).startswith("not parseable: ")


def test_iife_fan_out_and_string_doubling_hit_the_budget():
    source = '"x"'
    for _ in range(10):
        source = f"(function(p){{return [{','.join(['p'] * 10)}]}}({source}))"
    assert "evaluation budget of 5000000 units" in refusal(source)
    source = '"' + "x" * 1024 + '"'
    for _ in range(30):
        source = f"(function(s){{return s+s}}({source}))"
    assert "evaluation budget" in refusal(source)


def test_nuxt_site_config_iife_on_nuxt_com():
    body = script_starting("nuxt-com-home.html", "window.__NUXT_SITE_CONFIG__=")
    result = evaluate_literal_source(body, body.index("=") + 1)
    assert result["ok"] is True
    assert body[result["end"]:] == ")"
    assert result["value"]["name"] == "Nuxt"
    assert result["value"]["url"] == "https://nuxt.com"
    assert result["value"]["_priority"] == {"env": -15, "url": 0, "name": -3, "description": -3, "defaultLocale": -3}


def test_unquoted_key_nuxt_config_on_nuxt_com():
    body = script_starting("nuxt-com-home.html", "window.__NUXT__={}")
    value = parse_js_literal(body, body.index("config=") + len("config="))
    assert value["public"]["turnstile"]["siteKey"] == "0x4AAAAAAAP2vNBsTBT3ucZi"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('{}[]()"\'`,:;.+-!/\\*$=0123456789abcxnuvoidfe \n')) | st.characters()))
def test_random_text_never_raises_anything_but_js_literal_error(text):
    try:
        parse_js_literal(text)
    except JsLiteralError:
        pass
