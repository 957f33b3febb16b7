"""JS value semantics shared by templates and extract helpers (crawlforge.extract.state.jsutil)."""

import math

from crawlforge.extract.state.jsonpath import select_json_path
from crawlforge.extract.state.jsutil import first_not_none, iso_from_ms, js_string, js_to_number, tidy


def test_iso_from_ms_writes_to_iso_string_with_milliseconds():
    assert iso_from_ms(0) == "1970-01-01T00:00:00.000Z"
    assert iso_from_ms(1785542400000) == "2026-08-01T00:00:00.000Z"
    assert iso_from_ms(-1) == "1969-12-31T23:59:59.999Z"


def test_iso_from_ms_extended_years_and_invalid_dates():
    assert iso_from_ms(8.64e15) == "+275760-09-13T00:00:00.000Z"
    assert iso_from_ms(-62198755200000) == "-000001-01-01T00:00:00.000Z"
    assert iso_from_ms(8.64e15 + 1) is None
    assert iso_from_ms(math.nan) is None
    assert iso_from_ms("0") is None


def test_js_string_formats_numbers_the_js_way():
    assert [js_string(v) for v in (1.0, 1e21, 1e-7, math.nan, -math.inf, [1, None, 2.5])] == [
        "1", "1e+21", "1e-7", "NaN", "-Infinity", "1,,2.5",
    ]  # fmt: skip


def test_js_to_number_rejects_python_only_literals():
    assert math.isnan(js_to_number("1_0"))
    assert math.isnan(js_to_number("inf"))
    assert js_to_number("Infinity") == math.inf


def test_json_path_indexes_follow_js_number():
    assert select_json_path({"a": ["x", "y"]}, "a. 0x1 ") == "y"


def test_tidy_collapses_js_whitespace_only():
    assert tidy("\ufeff a \u3000 b\n") == "a b"
    assert tidy("a\x1fb") == "a\x1fb"  # U+001F is not JS whitespace
    assert tidy("   ") is None


def test_first_not_none_keeps_falsy_values_as_js_nullish_coalescing():
    assert first_not_none(None, 0, 7) == 0
    assert first_not_none(None, "", "x") == ""
    assert first_not_none(None, False) is False
    assert first_not_none(None, None) is None
