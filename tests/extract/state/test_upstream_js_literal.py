"""Upstream conformance: tests/jsLiteral.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 067322582ff41fa6af6099554a9db4d7a9214a13 (the stored version):
evaluateLiteralSource / evaluateLiteralNode as crawlforge.extract.state.jsliteral.
evaluate_literal_source / evaluate_literal_node; acorn's parseExpressionAt is
crawlforge.extract.state.jsparse.parse_expression_at. Live cases read fixtures/embedded/nuxt-com-home.html.
"""

import json
import re

from conftest import ROOT

from crawlforge.extract.state.jsliteral import evaluate_literal_node, evaluate_literal_source
from crawlforge.extract.state.jsparse import parse_expression_at

NUXT_COM = (ROOT / "fixtures" / "embedded" / "nuxt-com-home.html").read_text(encoding="utf-8")


def script_bodies(html: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"<script\b[^>]*>([\s\S]*?)</script\s*>", html, re.I)]


def value(source: str):
    result = evaluate_literal_source(source)
    assert result["ok"] is True, f"expected {source} to evaluate, got: {result.get('reason')}"
    return result["value"]


def refused(source: str, reason: str = ".") -> None:
    result = evaluate_literal_source(source)
    assert result["ok"] is False, f"expected {source} to be refused"
    assert re.search(reason, result["reason"]), result["reason"]


# --- allowed forms ------------------------------------------------------------------------


def test_primitive_literals():
    assert value('"a"') == "a"
    assert value("'b'") == "b"
    assert value("1.5") == 1.5
    assert value("true") is True
    assert value("null") is None


def test_bigint_becomes_its_decimal_string():
    assert value("10n") == "10"
    assert value("0x10n") == "16"


def test_arrays_with_holes_read_as_null():
    assert value('[1,,"x",[true]]') == [1, None, "x", [True]]


def test_objects_with_identifier_string_and_number_keys():
    assert value('{a:1,"b-c":2,3:[]}') == {"a": 1, "b-c": 2, "3": []}


def test_later_duplicate_key_wins():
    assert value("{a:1,a:2}") == {"a": 2}


def test_unary_minus_plus_not_and_void():
    assert value("-1") == -1
    assert value("+2") == 2
    assert value("!0") is True
    assert value("!1") is False
    assert value("[void 0]") == [None]


def test_undefined_nan_and_infinity_read_as_null():
    assert value("undefined") is None
    assert value("{a:undefined,b:NaN,c:-Infinity,d:Infinity}") == {"a": None, "b": None, "c": None, "d": None}
    assert value("1e999") is None


def test_template_literal_and_string_concatenation():
    assert value("`plain`") == "plain"
    assert value('"a"+"b"+`c`') == "abc"


def test_new_date_and_new_regexp():
    assert value("new Date(1785542400000)") == "2026-08-01T00:00:00.000Z"
    assert value('new Date("2020-01-02T00:00:00Z")') == "2020-01-02T00:00:00.000Z"
    assert value('new Date("not a date")') is None
    assert value('new RegExp("^\\\\\\\\/apps$")') == "/^\\\\/apps$/"
    assert value('new RegExp("a","gi")') == "/a/gi"


def test_source_starts_at_an_offset_and_reports_the_end():
    text = "window.x = {a:[1]}; next()"
    assert evaluate_literal_source(text, text.index("{")) == {"ok": True, "value": {"a": [1]}, "end": text.index(";")}


def test_node_is_evaluated_directly():
    assert evaluate_literal_node(parse_expression_at('{a:[1,"x"]}', 0)) == {"ok": True, "value": {"a": [1, "x"]}}


# --- the single-return IIFE ---------------------------------------------------------------


def test_nuxt2_iife_binds_params_to_arguments():
    assert value('(function(a,b){return {x:a,y:[b]}}(1,"z"))') == {"x": 1, "y": ["z"]}


def test_other_parenthesisation_and_missing_arguments_are_null():
    assert value("(function(a,b){return [a,b]})(1)") == [1, None]


def test_nested_iife_sees_its_own_and_enclosing_params():
    assert value('(function(a){return (function(b){return [a,b]}(a+"!"))}("x"))') == ["x", "x!"]


def test_live_nuxt_site_config():
    body = next(b for b in script_bodies(NUXT_COM) if b.startswith("window.__NUXT_SITE_CONFIG__="))
    result = evaluate_literal_source(body, body.index("=") + 1)
    assert result["ok"] is True
    assert body[result["end"] :] == ")"
    assert result["value"]["name"] == "Nuxt"
    assert result["value"]["url"] == "https://nuxt.com"
    assert result["value"]["_priority"] == {"env": -15, "url": 0, "name": -3, "description": -3, "defaultLocale": -3}


def test_live_unquoted_key_nuxt_config():
    body = next(b for b in script_bodies(NUXT_COM) if b.startswith("window.__NUXT__={}"))
    result = evaluate_literal_source(body, body.index("config=") + len("config="))
    assert result["ok"] is True
    assert result["value"]["public"]["turnstile"]["siteKey"] == "0x4AAAAAAAP2vNBsTBT3ucZi"


# --- refusals -----------------------------------------------------------------------------


def test_calls_member_expressions_and_free_identifiers():
    refused("foo()", "function call")
    refused("a.b", "MemberExpression")
    refused("{a:window}", 'identifier "window"')
    refused("[document.cookie]")


def test_identifier_outside_any_param_scope():
    refused("(function(a){return b}(1))", 'identifier "b"')


def test_iifes_that_are_not_exactly_one_return():
    refused("(function(a){a.x=1;return a}({}))", "function call")
    refused('(function(){"use strict";return 1}())', "function call")
    refused("(function(a){}(1))", "function call")


def test_iife_variants_outside_the_narrow_shape():
    refused("((a)=>a)(1)", "function call")
    refused("(function(a=1){return a}())", "function call")
    refused("(function(...a){return a}(1))", "function call")
    refused("(async function(){return 1}())", "function call")
    refused("(function(a){return a}(...[1]))", "spread argument")


def test_spreads_computed_keys_shorthand_methods_accessors():
    refused("[...a]", "spread element")
    refused("{...a}", "spread property")
    refused('{["a"]:1}', "computed key")
    refused("{a}", "shorthand")
    refused("{a(){}}", "method")
    refused("{get a(){return 1}}", "getter")


def test_regex_literals_other_operators_and_template_expressions():
    refused("/a/g", "regular expression")
    refused("typeof 1", 'unary operator "typeof"')
    refused('-"1"', 'unary operator "-"')
    refused("1-2", 'binary operator "-"')
    refused('"a"+1', "not string concatenation")
    refused("`${1}`", "template literal with expressions")


def test_constructors_other_than_date_and_regexp():
    refused("new Foo()", "constructor call")
    refused("new Date()", "constructor call")
    refused("new Map([[1,2]])", "constructor call")
    refused("(function(Date){return new Date(0)}(1))", "constructor call")


def test_syntax_error_is_a_refusal():
    refused("{a:", "not parseable")


# --- hostile input ------------------------------------------------------------------------


def test_proto_key_is_an_own_data_property():
    for source in ['{"__proto__":{"polluted":true}}', "{__proto__:{polluted:true}}"]:
        result = value(source)
        assert list(result) == ["__proto__"]
        assert json.dumps(result, separators=(",", ":")) == '{"__proto__":{"polluted":true}}'


def test_100k_nested_brackets_refuse_without_raising():
    refused("[" * 100_000 + "]" * 100_000, "not parseable")


def test_nesting_past_the_depth_cap_refuses():
    refused("[" * 600 + "]" * 600, "nesting deeper than 512")


def test_iife_fan_out_hits_the_budget():
    source = '"x"'
    for _ in range(10):
        source = f"(function(p){{return [{','.join(['p'] * 10)}]}}({source}))"
    refused(source, "evaluation budget")


def test_string_doubling_through_params_hits_the_budget():
    source = '"' + "x" * 1024 + '"'
    for _ in range(30):
        source = f"(function(s){{return s+s}}({source}))"
    refused(source, "evaluation budget")
