"""Upstream conformance: tests/flight.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit f38dc235025a869fcde852c0f86bc4f84acda307 (the stored version):
parseFlightRows / resolveFlightRows / flightDataRows as crawlforge.extract.state.flight.
parse_flight_rows / resolve_flight_rows (``budget_bytes``; result key ``over_budget``) /
flight_data_rows, on the Healthgrades capture (fixtures/embedded/healthgrades-rsc.html).
Timing bounds are not ported (speed lives in bench/); the work they bound still runs.
"""

import json
import math
import re

from conftest import ROOT

from crawlforge.extract.embedded import extract_embedded_state
from crawlforge.extract.state.flight import flight_data_rows, parse_flight_rows, resolve_flight_rows
from crawlforge.extract.state.jsjson import byte_size, js_key_order

HTML = (ROOT / "fixtures" / "embedded" / "healthgrades-rsc.html").read_text(encoding="utf-8")


def flight_stream(page: str) -> str:
    """The same concatenation embedded-state reading performs on self.__next_f pushes."""
    pattern = re.compile(r'self\.__next_f\.push\(\s*\[\s*1\s*,\s*("(?:[^"\\]|\\.)*")')
    return "".join(json.loads(m.group(1)) for m in pattern.finditer(page))


RAW = parse_flight_rows(flight_stream(HTML))


# --- parse_flight_rows (Healthgrades) -----------------------------------------------------


def test_embedded_state_reports_these_rows_resolved():
    assert len(RAW) == 71
    assert resolve_flight_rows(RAW)["rows"] == extract_embedded_state(HTML)["data"]["next_f"]


def test_json_row_is_parsed():
    assert RAW["0"]["b"] == "ZSUDKJ6Jvldk6iBn3J7Fo"
    assert RAW["0"]["c"] == ["", "cardiology-directory"]


def test_t_row_consumed_by_utf8_byte_length():
    assert isinstance(RAW["19"], str)
    assert len(RAW["19"].encode("utf-8")) == 1965


def test_row_after_a_t_blob_keeps_its_full_id():
    assert "14" in RAW
    assert RAW["14"][1] == "div"
    assert RAW["4"].startswith("I[")


def test_module_references_stay_raw_strings():
    assert RAW["3"] == 'I[85341,[],""]'


# --- row shapes ---------------------------------------------------------------------------


def test_e_row_parses_to_error():
    rows = parse_flight_rows('1:E{"digest":"123","message":"boom"}\n2:{"a":1}\n')
    assert rows["1"] == {"$error": {"digest": "123", "message": "boom"}}
    assert rows["2"] == {"a": 1}


def test_e_row_that_is_not_json_stays_raw():
    assert parse_flight_rows("1:E{oops\n")["1"] == "E{oops"


def test_hl_and_i_rows_stay_raw_strings():
    rows = parse_flight_rows('1:HL["/a.css","style"]\n2:I[1,[],""]\n')
    assert rows["1"] == 'HL["/a.css","style"]'
    assert rows["2"] == 'I[1,[],""]'


def test_non_row_line_is_skipped_and_parsing_resyncs():
    assert parse_flight_rows("garbage\n1:[1]\n") == {"1": [1]}


def test_many_text_rows_all_parse():
    count = 40000
    rows = parse_flight_rows("".join(f"{i:x}:T2,x\n" for i in range(count)))
    assert len(rows) == count
    assert rows["0"] == "x\n"


# --- resolve_flight_rows ------------------------------------------------------------------


def test_hex_reference_is_replaced_by_the_row():
    result = resolve_flight_rows({"1": {"price": 9}, "2": {"item": "$1"}})
    assert result["rows"]["2"] == {"item": {"price": 9}}
    assert result["resolved"] == 1


def test_promise_reference_is_replaced_the_same_way():
    assert resolve_flight_rows({"a": [1, 2], "b": {"data": "$@a"}})["rows"]["b"] == {"data": [1, 2]}


def test_property_path_walks_into_the_row():
    assert resolve_flight_rows({"1": {"a": {"b": [10, 20]}}, "2": ["$1:a:b:1", "$1:a"]})["rows"]["2"] == [20, {"b": [10, 20]}]


def test_property_path_names_element_fields_as_react_does():
    rows = resolve_flight_rows({"5": ["$", "div", "k", {"pageData": {"id": 7}}], "6": ["$5:props:pageData", "$5:type", "$5:key"]})["rows"]
    assert rows["6"] == [{"id": 7}, "div", "k"]


def test_unresolvable_path_stays_the_string():
    result = resolve_flight_rows({"1": {"a": 1}, "2": ["$1:missing", "$1:a:deeper"]})
    assert result["rows"]["2"] == ["$1:missing", "$1:a:deeper"]
    assert result["resolved"] == 0


def test_reference_to_an_unknown_row_stays_the_string():
    assert resolve_flight_rows({"1": ["$ff", "$@ff"]})["rows"]["1"] == ["$ff", "$@ff"]


def test_reference_to_an_i_or_t_row_stays_a_reference():
    result = resolve_flight_rows(parse_flight_rows('1:I[1,[],"X"]\n2:T3,abc3:["$1","$2"]\n'))
    assert result["rows"]["3"] == ["$1", "$2"]
    assert result["resolved"] == 0


def test_double_dollar_is_unescaped():
    assert resolve_flight_rows({"1": {"price": "$$12.99", "note": "$$1"}})["rows"]["1"] == {"price": "$12.99", "note": "$1"}


def test_other_tokens_and_the_element_marker_are_untouched():
    tokens = ["$", "$L1", "$S", "$Sreact.fragment", "$F1", "$Q1", "$W1", "$D2024-01-01", "$n12", "$u",
              "$undefined", "$B1", "$E", "$Z", "$I", "$-0", "$NaN", "$K1", "$T1", "$i"]  # fmt: skip
    result = resolve_flight_rows({"1": {"x": 1}, "2": tokens, "3": ["$", "$L1", None, {}]})
    assert result["rows"]["2"] == tokens
    assert result["rows"]["3"] == ["$", "$L1", None, {}]
    assert result["resolved"] == 0


def test_top_level_string_row_reference_resolves():
    assert RAW["e"] == "$9:metadata"
    assert resolve_flight_rows(RAW)["rows"]["e"] == RAW["9"]["metadata"]


def test_top_level_string_row_is_never_unescaped():
    assert resolve_flight_rows({"1": "$$x"})["rows"]["1"] == "$$x"


def test_in_row_path_reference_resolves_to_the_same_row():
    result = resolve_flight_rows({"10": [{"model": {"name": "Dr. A"}}, {"again": "$10:0:model"}]})
    assert result["rows"]["10"] == [{"model": {"name": "Dr. A"}}, {"again": {"name": "Dr. A"}}]
    assert (result["resolved"], result["cycles"]) == (1, 0)


def test_in_row_reference_to_its_enclosing_container_is_a_cycle():
    result = resolve_flight_rows({"4": {"a": {"self": "$4:a"}, "b": "$4"}})
    assert result["rows"]["4"] == {"a": {"self": {"$ref": "4"}}, "b": {"$ref": "4"}}
    assert result["cycles"] == 2


def test_mutually_referencing_rows_become_refs_where_they_recur():
    result = resolve_flight_rows({"1": {"next": "$2"}, "2": {"next": "$1"}})
    assert result["rows"]["1"] == {"next": {"next": {"$ref": "1"}}}
    assert result["rows"]["2"] == {"next": {"$ref": "1"}}
    assert result["cycles"] == 1
    json.dumps(result["rows"])


def test_row_referencing_itself_is_a_cycle():
    assert resolve_flight_rows({"7": {"self": "$7"}})["rows"]["7"] == {"self": {"$ref": "7"}}


def test_doubling_chain_stays_within_the_budget():
    rows = {"0": ["x" * 100]}
    for n in range(1, 61):
        rows[f"{n:x}"] = [f"${n - 1:x}", f"${n - 1:x}"]
    result = resolve_flight_rows(rows)
    assert result["over_budget"] > 0
    assert result["resolved"] > 0
    assert byte_size(result["rows"]) <= 2 * byte_size(rows)


def test_explicit_budget_infinity_inlines_all_zero_inlines_nothing_that_grows():
    rows = {"0": ["leaf"], "1": ["$0", "$0"], "2": ["$1", "$1"]}
    everything = resolve_flight_rows(rows, budget_bytes=math.inf)
    assert everything["rows"]["2"] == [[["leaf"], ["leaf"]], [["leaf"], ["leaf"]]]
    assert everything["over_budget"] == 0
    nothing = resolve_flight_rows(rows, budget_bytes=0)
    assert nothing["rows"]["2"] == ["$1", "$1"]
    assert nothing["resolved"] == 0
    assert nothing["over_budget"] == 4


def test_100k_long_reference_chain_needs_no_call_stack():
    rows = {"0": {"end": True}}
    for n in range(1, 100000):
        rows[f"{n:x}"] = {"prev": f"${n - 1:x}"}
    out = resolve_flight_rows(rows, budget_bytes=math.inf)["rows"]
    assert out[f"{99999:x}"]["prev"]["prev"]["prev"] is not None


def test_100k_deep_row_resolves_without_overflowing():
    deep = "$1"
    for _ in range(100000):
        deep = [deep]
    result = resolve_flight_rows({"1": {"ok": True}, "2": deep})
    node = result["rows"]["2"]
    while isinstance(node, list):
        node = node[0]
    assert node == {"ok": True}
    assert result["resolved"] == 1


def test_input_rows_are_not_modified_and_proto_stays_an_own_key():
    rows = json.loads('{"1":{"a":"$2","__proto__":{"x":1}},"2":{"b":2}}')
    snapshot = json.dumps(rows)
    out = resolve_flight_rows(rows)["rows"]
    assert json.dumps(rows) == snapshot
    assert "__proto__" in out["1"]
    assert out["1"]["a"] == {"b": 2}


def test_keeps_the_inputs_row_order():
    rows = js_key_order({"b": "$a", "a": [1], "1": [2]})  # the JS literal's own key order
    assert list(resolve_flight_rows(rows)["rows"]) == ["1", "b", "a"]


def test_non_object_input_returns_an_empty_result():
    assert resolve_flight_rows(None) == {"rows": {}, "resolved": 0, "cycles": 0, "over_budget": 0}


def test_healthgrades_every_reachable_reference_resolves_within_budget():
    result = resolve_flight_rows(RAW)
    assert {k: result[k] for k in ("resolved", "cycles", "over_budget")} == {"resolved": 3, "cycles": 0, "over_budget": 0}
    assert byte_size(result["rows"]) <= 2 * byte_size(RAW)
    assert '"$5:0:0:props:children:props:pageData:adTargets"' in json.dumps(result["rows"], ensure_ascii=False)


# --- flight_data_rows ---------------------------------------------------------------------


def element(kind: str) -> list:
    return ["$", kind, None, {"children": "x"}]


def test_ranks_object_and_array_rows_by_size():
    rows = {
        "1": 'I[1,[],""]',
        "2": element("div"),
        "3": [element("a"), element("b")],
        "4": ["$L5", element("main"), False, None],
        "5": {"small": 1},
        "6": [{"sku": "A1", "price": 10}, {"sku": "B2", "price": 20}],
        "7": None,
        "8": 42,
    }
    index = flight_data_rows(rows)
    assert [row["id"] for row in index] == ["6", "5"]
    assert index[0] == {"id": "6", "bytes": len('[{"sku":"A1","price":10},{"sku":"B2","price":20}]'), "keys": None, "length": 2}
    assert index[1] == {"id": "5", "bytes": len('{"small":1}'), "keys": ["small"], "length": None}


def test_lists_at_most_20_first_level_keys():
    assert len(flight_data_rows({"1": {f"k{i}": i for i in range(30)}})[0]["keys"]) == 20


def test_empty_array_and_array_of_plain_values_are_data():
    assert sorted(row["id"] for row in flight_data_rows({"1": [], "2": ["a", "b"]})) == ["1", "2"]


def test_bytes_are_the_serialized_size_even_with_shared_subtrees():
    rows = resolve_flight_rows({"1": {"v": "x" * 50}, "2": {"a": "$1", "b": "$1"}}, budget_bytes=math.inf)["rows"]
    entry = next(row for row in flight_data_rows(rows) if row["id"] == "2")
    assert entry["bytes"] == len('{"a":{"v":"' + "x" * 50 + '"},"b":{"v":"' + "x" * 50 + '"}}')


def test_healthgrades_router_state_and_metadata_row():
    index = flight_data_rows(RAW)
    assert [row["id"] for row in index] == ["0", "9"]
    assert index[1]["keys"] == ["metadata", "error", "digest"]


def test_non_object_input_returns_an_empty_index():
    assert flight_data_rows(None) == []
