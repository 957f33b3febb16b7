"""Upstream conformance: tests/pii.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 39c78485232a2f9abd61235ddf4c61354e8e7518 (the stored version): redactPii as
crawlforge.extract.pagehelpers.pii.redact_pii (options as keyword arguments ``entities``, ``replace_style``),
on the upstream false-positive fixture (fixtures/pagehelpers/no-pii.md). JS ``Object.isFrozen``
is a tuple here; the ``Symbol`` bad-input case is a plain ``object()``.
"""

import re

import pytest

from conftest import ROOT

from crawlforge.extract.state.jsutil import NOT_WS, WS
from crawlforge.extract.pagehelpers.pii import DEFAULT_REPLACE_STYLE, MODEL_ONLY_ENTITIES, REGEX_ENTITIES, redact_pii

MASK = "[REDACTED]"
PAGE = (ROOT / "fixtures" / "pagehelpers" / "no-pii.md").read_text(encoding="utf-8")
BS = "\\"  # one backslash, as markdown escapes are written


def redact_secrets_from_string(text: str) -> str:
    """The MCP server's secretMask.js chain the SECRET detector moved from (JS regex flavour)."""
    for label in (
        rf"Bearer{WS}+", rf"api[_-]?key{WS}*[:=]{WS}*", rf"x-api-key{WS}*[:=]{WS}*",
        rf"password{WS}*[:=]{WS}*", rf"secret{WS}*[:=]{WS}*", rf"token{WS}*[:=]{WS}*",
    ):  # fmt: skip
        text = re.sub(rf"({label}){NOT_WS}+", rf"\g<1>{MASK}", text, flags=re.I | re.ASCII)
    return text


def escape_like_turndown(md: str) -> str:
    """turndown's markdownEscapes: ``\\ * ` [ ] _`` anywhere, ``-`` at the start of a line."""
    return re.sub(r"^-", BS + "-", re.sub(r"[\\*`\[\]_]", lambda m: BS + m.group(0), md), flags=re.M)


# --- the exported declarations ------------------------------------------------------------


def test_regex_entities_is_the_frozen_list_of_what_a_regex_decides():
    assert list(REGEX_ENTITIES) == ["EMAIL", "PHONE", "FINANCIAL", "SECRET"]
    assert isinstance(REGEX_ENTITIES, tuple)


def test_model_only_entities_is_the_frozen_list_of_what_needs_a_model():
    assert list(MODEL_ONLY_ENTITIES) == ["PERSON", "LOCATION"]
    assert isinstance(MODEL_ONLY_ENTITIES, tuple)


def test_the_default_replace_style_is_tag():
    assert DEFAULT_REPLACE_STYLE == "tag"


def test_the_two_lists_do_not_overlap():
    for entity in MODEL_ONLY_ENTITIES:
        assert entity not in REGEX_ENTITIES


# --- every entity class, in every replace style -------------------------------------------

SAMPLES = [
    ("EMAIL", "write to ops@example.com today", "write to §today"),
    ("PHONE", "call (555) 123-4567 today", "call §today"),
    ("FINANCIAL", "card 4242 4242 4242 4242 today", "card §today"),
    ("SECRET", "Bearer sk-live-9f2c41e8 today", "Bearer §today"),
]


@pytest.mark.parametrize(("entity", "text", "shape"), SAMPLES)
def test_each_entity_tag(entity, text, shape):
    result = redact_pii(text)
    assert result["text"] == shape.replace("§", f"<{entity}> ")
    assert result["redaction"] == {"entities": {entity: 1}, "count": 1}


@pytest.mark.parametrize(("entity", "text", "shape"), SAMPLES)
def test_each_entity_mask(entity, text, shape):
    result = redact_pii(text, replace_style="mask")
    assert result["text"] == shape.replace("§", f"{MASK} ")
    assert result["redaction"]["count"] == 1


@pytest.mark.parametrize(("entity", "text", "shape"), SAMPLES)
def test_each_entity_remove(entity, text, shape):
    result = redact_pii(text, replace_style="remove")
    assert result["text"] == shape.replace("§", " ")
    assert result["redaction"]["count"] == 1


def test_an_unrecognised_style_is_treated_as_the_default_never_thrown():
    assert redact_pii("ops@example.com", replace_style="obliterate")["text"] == "<EMAIL>"


# --- the count map ------------------------------------------------------------------------

MIXED = "\n".join([
    "Support: ops@example.com or sales@example.co.uk",
    "Phone: +44 20 7123 4567",
    "Card on file: 4242-4242-4242-4242",
    "Header: Bearer sk-live-9f2c41e8",
])  # fmt: skip


def test_counts_every_replacement_per_type():
    redaction = redact_pii(MIXED)["redaction"]
    assert redaction["entities"] == {"EMAIL": 2, "PHONE": 1, "FINANCIAL": 1, "SECRET": 1}
    assert redaction["count"] == 5


def test_count_is_the_sum_of_the_per_type_entries():
    redaction = redact_pii(MIXED)["redaction"]
    assert sum(redaction["entities"].values()) == redaction["count"]


def test_a_type_with_no_hits_is_omitted_not_reported_as_zero():
    redaction = redact_pii("write to ops@example.com")["redaction"]
    assert redaction["entities"] == {"EMAIL": 1}
    assert "PHONE" not in redaction["entities"]


def test_clean_text_reports_an_empty_map_and_leaves_the_string_identical():
    clean = "CrawlForge 5.9.0 costs $19.00 a month as of 2026-09-05."
    result = redact_pii(clean)
    assert result["text"] == clean
    assert result["redaction"] == {"entities": {}, "count": 0}


# --- narrowing with entities --------------------------------------------------------------

TEXT = "ops@example.com or (555) 123-4567"


def test_email_only_the_phone_in_the_same_text_survives():
    result = redact_pii(TEXT, entities=["EMAIL"])
    assert result["text"] == "<EMAIL> or (555) 123-4567"
    assert result["redaction"] == {"entities": {"EMAIL": 1}, "count": 1}


def test_phone_only_the_address_survives():
    assert redact_pii(TEXT, entities=["PHONE"])["text"] == "ops@example.com or <PHONE>"


def test_names_are_matched_case_insensitively():
    assert redact_pii(TEXT, entities=["email"])["redaction"]["count"] == 1


def test_a_missing_or_empty_selection_means_all_of_regex_entities():
    for entities in (None, [], "EMAIL"):
        assert redact_pii(TEXT, entities=entities)["redaction"]["count"] == 2, entities


def test_person_and_location_are_ignored_in_silence():
    for entity in MODEL_ONLY_ENTITIES:
        result = redact_pii(TEXT, entities=[entity])
        assert result["text"] == TEXT
        assert result["redaction"] == {"entities": {}, "count": 0}


def test_a_model_only_name_beside_a_regex_one_narrows_to_the_regex_one():
    assert redact_pii(TEXT, entities=["PERSON", "EMAIL"])["redaction"] == {"entities": {"EMAIL": 1}, "count": 1}


def test_a_name_nobody_handles_redacts_nothing_rather_than_everything():
    assert redact_pii(TEXT, entities=["NONSENSE"])["redaction"] == {"entities": {}, "count": 0}


# --- EMAIL --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address", ["ops@example.com", "first.last+tag@sub.example.co.uk", "a_b-c%d@example-host.io", "billing@example.museum"]
)
def test_email_redacts(address):
    assert redact_pii(f"x {address} y")["text"] == "x <EMAIL> y"


def test_a_trailing_full_stop_stays_outside_the_redaction():
    assert redact_pii("Mail ops@example.com.")["text"] == "Mail <EMAIL>."


@pytest.mark.parametrize("not_an_address", ["@handle", "user@localhost", "a@b", "name at example dot com"])
def test_email_leaves_alone(not_an_address):
    assert redact_pii(f"x {not_an_address} y")["redaction"]["count"] == 0


# --- PHONE: a run of digits is not a phone number -----------------------------------------


@pytest.mark.parametrize(
    "number",
    [
        "+15551234567", "+1 555 123 4567", "+1 (555) 123-4567", "+1-555-123-4567", "+44 20 7123 4567",
        "+86 138 0013 8000", "(555) 123-4567", "555-123-4567", "555.123.4567", "555 123 4567",
        "1-555-123-4567",
    ],
)  # fmt: skip
def test_phone_redacts(number):
    result = redact_pii(f"Call {number} now")
    assert result["text"] == "Call <PHONE> now", number
    assert result["redaction"] == {"entities": {"PHONE": 1}, "count": 1}


@pytest.mark.parametrize(
    ("label", "sample"),
    [
        ("a price", "Total: $1,234.56 including tax"),
        ("grouped money", "Revenue was 1 234 567,89 EUR last year"),
        ("an ISO date", "Published 2026-09-05 and revised 2026-09-06"),
        ("a US date", "Signed 12/31/2024 in the morning"),
        ("a version", "Upgrade from 5.6.11 to 5.9.0 today"),
        ("an ISBN", "ISBN 978-0-13-235088-4 is out of print"),
        ("a digit run in a URL", "https://example.com/orders/98765432109876/receipt"),
        ("an opaque id", "reservation res_0194f2a8c31d47b0 expired"),
        ("an epoch timestamp", "delivered at 1757116800000 ms"),
        ("an IP address", "origin 192.168.1.10 refused the connection"),
        ("a NANP-invalid area code", "ticket 100-200-3000 and ticket 012-345-6789"),
        ("a seven-digit local number", "extension 555-1234 on the old switchboard"),
        ("mixed separators", "part 555-123 4567 in the catalogue"),
    ],
)
def test_phone_leaves_alone(label, sample):
    assert redact_pii(sample)["redaction"] == {"entities": {}, "count": 0}, sample


# --- FINANCIAL: Luhn and mod-97 -----------------------------------------------------------


@pytest.mark.parametrize(
    ("scheme", "card"),
    [
        ("Visa", "4242 4242 4242 4242"), ("Visa, contiguous", "4242424242424242"),
        ("Visa, hyphenated", "4242-4242-4242-4242"), ("Mastercard", "5555 5555 5555 4444"),
        ("Amex, 15 digits in 4-6-5", "3782 822463 10005"), ("13 digits", "4222222222222"),
    ],
)  # fmt: skip
def test_financial_redacts_a_card(scheme, card):
    result = redact_pii(f"Card {card} on file")
    assert result["text"] == "Card <FINANCIAL> on file", card
    assert result["redaction"]["count"] == 1


def test_a_same_length_number_that_fails_luhn_is_not_a_card():
    assert redact_pii("Card 4242 4242 4242 4241 on file")["redaction"]["count"] == 0
    assert redact_pii("Card 4242424242424241 on file")["redaction"]["count"] == 0


def test_a_repeated_digit_placeholder_passes_luhn_but_is_still_not_a_card():
    assert redact_pii("Card 0000 0000 0000 0000 on file")["redaction"]["count"] == 0


@pytest.mark.parametrize(
    "iban", ["GB29 NWBK 6016 1331 9268 19", "GB29NWBK60161331926819", "DE89 3704 0044 0532 0130 00", "FR1420041010050500013M02606"]
)
def test_financial_redacts_an_iban(iban):
    result = redact_pii(f"IBAN {iban} please")
    assert result["text"] == "IBAN <FINANCIAL> please", iban
    assert result["redaction"]["count"] == 1


def test_an_iban_one_digit_off_fails_mod_97_and_is_left_alone():
    assert redact_pii("IBAN GB29 NWBK 6016 1331 9268 18 please")["redaction"]["count"] == 0
    assert redact_pii("IBAN GB29NWBK60161331926818 please")["redaction"]["count"] == 0


def test_an_uppercase_run_that_is_not_an_iban_is_left_alone():
    assert redact_pii("See FY2026 REVENUE REPORT Q1 TOTALS")["redaction"]["count"] == 0


# --- SECRET: the label survives, the value does not ---------------------------------------


def test_the_label_is_preserved_in_every_style():
    assert redact_pii("Bearer sk-live-abc", replace_style="tag")["text"] == "Bearer <SECRET>"
    assert redact_pii("Bearer sk-live-abc", replace_style="mask")["text"] == f"Bearer {MASK}"
    assert redact_pii("Bearer sk-live-abc", replace_style="remove")["text"] == "Bearer "


@pytest.mark.parametrize(
    ("label", "sample", "expected"),
    [
        ("Bearer", "Authorization: Bearer sk-live-9f2c", "Authorization: Bearer <SECRET>"),
        ("api_key=", "GET /scrape?api_key=cf_live_abc", "GET /scrape?api_key=<SECRET>"),
        ("api-key:", "api-key: cf_live_abc", "api-key: <SECRET>"),
        ("x-api-key:", "x-api-key: cf_live_abc", "x-api-key: <SECRET>"),
        ("password=", "password=hunter2 rejected", "password=<SECRET> rejected"),
        ("secret:", "client_secret: shhh here", "client_secret: <SECRET> here"),
        ("token=", "token=eyJhbGciOi.J9 expired", "token=<SECRET> expired"),
    ],
)
def test_secret_keeps_its_label_and_replaces_only_the_value(label, sample, expected):
    assert redact_pii(sample)["text"] == expected


def test_an_unlabelled_key_shaped_string_is_deliberately_not_matched():
    assert redact_pii("the string sk-live-9f2c41e8abc appears in the log")["redaction"]["count"] == 0


def test_the_word_secret_in_prose_is_not_a_secret():
    assert redact_pii("nothing secret about 5.9.0 here")["redaction"]["count"] == 0


@pytest.mark.parametrize(
    "sample",
    [
        "Authorization: Bearer sk-live-9f2c41e8abc failed with 401",
        "GET /v1/tools/scrape?api_key=cf_live_abc123 returned 403",
        "headers: { x-api-key: cf_live_zzz, accept: application/json }",
        "connect failed: password=hunter2 for user ops",
        "client_secret: shhh-do-not-log and token=eyJhbGciOi.J9.abc",
        "api_key=token=abc",
        "password:secret=abc",
        "nothing secret about 5.9.0 here",
        "Error: request to https://api.example.com failed, Bearer   spaced-token",
    ],
)
def test_byte_for_byte_parity_with_the_secret_mask_chain(sample):
    mine = redact_pii(sample, entities=["SECRET"], replace_style="mask")["text"]
    assert mine == redact_secrets_from_string(sample)


# --- detector order: nothing is replaced or counted twice ---------------------------------


def test_a_card_number_is_financial_never_phone():
    result = redact_pii("Card 4242 4242 4242 4242 on file")
    assert result["text"] == "Card <FINANCIAL> on file"
    assert result["redaction"]["entities"] == {"FINANCIAL": 1}
    assert "PHONE" not in result["redaction"]["entities"]


def test_digits_inside_an_address_stay_part_of_the_email():
    result = redact_pii("mail 4242424242424242@example.com now")
    assert result["text"] == "mail <EMAIL> now"
    assert result["redaction"]["entities"] == {"EMAIL": 1}


def test_a_labelled_credential_wins_over_what_its_value_looks_like():
    result = redact_pii("password: ops@example.com")
    assert result["text"] == "password: <SECRET>"
    assert result["redaction"]["entities"] == {"SECRET": 1}


def test_an_e164_number_is_one_phone_not_a_nanp_match_with_a_stray_prefix():
    result = redact_pii("Call +1 (555) 123-4567 now")
    assert result["text"] == "Call <PHONE> now"
    assert result["redaction"]["count"] == 1


def test_the_same_address_twice_is_two_replacements():
    result = redact_pii("ops@example.com and ops@example.com")
    assert result["text"] == "<EMAIL> and <EMAIL>"
    assert result["redaction"] == {"entities": {"EMAIL": 2}, "count": 2}


# --- the false-positive fixture: a real page of numbers redacts to zero --------------------


def test_fixture_nothing_is_redacted():
    result = redact_pii(PAGE)
    assert result["redaction"] == {"entities": {}, "count": 0}
    assert result["text"] == PAGE


def test_fixture_nothing_is_redacted_in_any_style_for_any_single_entity():
    for replace_style in ("tag", "mask", "remove"):
        for entities in [None, *([e] for e in REGEX_ENTITIES)]:
            assert redact_pii(PAGE, entities=entities, replace_style=replace_style)["text"] == PAGE


def test_fixture_one_real_address_dropped_in_is_the_only_thing_caught():
    result = redact_pii(f"{PAGE}\nQuestions: ops@example.com")
    assert result["redaction"] == {"entities": {"EMAIL": 1}, "count": 1}
    assert result["text"].endswith("Questions: <EMAIL>")


# --- bad input never throws ---------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 42, True, {}, [], object()])
def test_bad_input_comes_back_unchanged_with_a_zero_count(value):
    result = redact_pii(value)
    assert result["text"] is value
    assert result["redaction"] == {"entities": {}, "count": 0}


def test_an_empty_string_is_unchanged():
    assert redact_pii("") == {"text": "", "redaction": {"entities": {}, "count": 0}}


def test_no_options_at_all_is_the_same_as_the_defaults():
    text = "ops@example.com"
    assert redact_pii(text) == redact_pii(text, entities=REGEX_ENTITIES, replace_style=DEFAULT_REPLACE_STYLE)


# --- purity -------------------------------------------------------------------------------


def test_the_same_input_gives_the_same_result_every_time():
    text = "ops@example.com, +44 20 7123 4567, 4242 4242 4242 4242, Bearer abc"
    first = redact_pii(text)
    for _ in range(5):
        assert redact_pii(text) == first


def test_the_untouched_text_is_byte_identical():
    text = "before ops@example.com after"
    redact_pii(text)
    assert text == "before ops@example.com after"
    assert redact_pii(text)["text"] == "before <EMAIL> after"


# --- markdown escaping: scrape returns markdown, and turndown escapes it --------------------


def test_an_escaped_api_key_label_is_still_a_secret():
    result = redact_pii(f"Header sent api{BS}_key: sk-live-abcdef123456")
    assert result["text"] == f"Header sent api{BS}_key: <SECRET>"
    assert result["redaction"] == {"entities": {"SECRET": 1}, "count": 1}


def test_an_escaped_address_is_one_span():
    result = redact_pii(f"Contact simon{BS}_lacey@example.com")
    assert result["text"] == "Contact <EMAIL>"
    assert "simon" not in result["text"]
    assert result["redaction"] == {"entities": {"EMAIL": 1}, "count": 1}


def test_two_escaped_underscores_are_still_one_span():
    result = redact_pii(f"a{BS}_b{BS}_c@example.com")
    assert result["text"] == "<EMAIL>"
    assert result["redaction"] == {"entities": {"EMAIL": 1}, "count": 1}


def test_a_line_leading_hyphen_is_escaped_too():
    assert redact_pii(f"{BS}-support@example.com")["text"] == "<EMAIL>"


def test_the_count_never_describes_a_partial_replacement():
    for address in (f"simon{BS}_lacey@example.com", f"a{BS}_b{BS}_c@example.com", f"{BS}-support@example.com"):
        result = redact_pii(address)
        assert result["text"] == "<EMAIL>", address
        assert result["redaction"]["count"] == 1, address


@pytest.mark.parametrize(
    ("label", "sample", "expected"),
    [
        ("x-api-key", "x-api-key: sk-live-abcdef123456", "x-api-key: <SECRET>"),
        ("password", "password=hunter2 rejected", "password=<SECRET> rejected"),
        ("secret", "client_secret: shhh here", "client_secret: <SECRET> here"),
        ("escaped secret label", f"client{BS}_secret: shhh here", f"client{BS}_secret: <SECRET> here"),
        ("token", "token=eyJhbGciOi.J9 expired", "token=<SECRET> expired"),
        ("Bearer", "Authorization: Bearer sk-live-9f2c", "Authorization: Bearer <SECRET>"),
        ("an escaped secret value", f"token=sk{BS}_live{BS}_abc{BS}_def", "token=<SECRET>"),
        ("a dotted local part", "first.last@example.com", "<EMAIL>"),
        ("a plus local part", "first+tag@example.com", "<EMAIL>"),
        ("a hyphen local part", "first-last@example.com", "<EMAIL>"),
        ("an unescaped underscore", "simon_lacey@example.com", "<EMAIL>"),
    ],
)
def test_what_the_escape_fix_must_not_have_changed(label, sample, expected):
    assert redact_pii(sample)["text"] == expected


def test_code_blocks_are_not_escaped_and_were_never_affected():
    assert redact_pii("    simon_lacey@example.com")["text"] == "    <EMAIL>"


@pytest.mark.parametrize(
    ("label", "sample"),
    [
        ("a NANP number", "555-123-4567"), ("a parenthesised number", "(555) 123-4567"),
        ("an E.164 number", "+44 20 7123 4567"), ("a hyphenated card", "4242-4242-4242-4242"),
        ("a spaced card", "4242 4242 4242 4242"), ("an IBAN", "GB29 NWBK 6016 1331 9268 19"),
    ],
)  # fmt: skip
def test_phone_financial_and_iban_survive_escaping_unchanged(label, sample):
    assert escape_like_turndown(sample) == sample
    assert redact_pii(sample)["redaction"]["count"] == 1


def test_the_no_pii_fixture_still_redacts_to_zero_once_escaped():
    escaped = escape_like_turndown(PAGE)
    assert f"res{BS}_0194f2a8c31d47b0" in escaped, "the fixture must actually contain escapes"
    assert escaped != PAGE
    result = redact_pii(escaped)
    assert result["redaction"] == {"entities": {}, "count": 0}
    assert result["text"] == escaped


def test_a_backslash_is_admitted_only_as_a_pair():
    result = redact_pii(f"see {BS}_ and ops@example.com")
    assert result["text"] == f"see {BS}_ and <EMAIL>"
    assert result["redaction"] == {"entities": {"EMAIL": 1}, "count": 1}


def test_an_escaped_word_that_is_not_an_address_is_left_alone():
    assert redact_pii(f"the file a{BS}_b{BS}_c has no address in it")["redaction"]["count"] == 0


def test_a_lone_backslash_before_anything_else_is_not_part_of_a_local_part():
    assert redact_pii(f"path C:{BS}temp then ops@example.com")["text"] == f"path C:{BS}temp then <EMAIL>"


def test_the_escape_tolerance_is_a_deliberate_divergence_from_the_chain():
    escaped = f"sent api{BS}_key: sk-live-abcdef123456"
    assert redact_secrets_from_string(escaped) == escaped, "the old chain missed this"
    assert redact_pii(escaped, entities=["SECRET"], replace_style="mask")["text"] == f"sent api{BS}_key: {MASK}"
