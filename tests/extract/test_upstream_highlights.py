"""Upstream conformance: tests/highlights.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 82624891118c42c10191424c0cb0ec6573796b09 (the stored version): segmentUnits
/ rankUnits as crawlforge.extract.units.segment_units / rank_units (options in snake_case:
max_units, min_score), on the upstream markdown fixtures (fixtures/highlights).
"""

import copy
import re

from conftest import ROOT

from crawlforge.extract.units import rank_units, segment_units

FIXTURES = ROOT / "fixtures" / "highlights"


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.md").read_text(encoding="utf-8")


def assert_slice_invariant(markdown: str, units: list[dict]) -> None:
    assert units, "no units"
    for unit in units:
        assert markdown[unit["offset"] : unit["offset"] + unit["length"]] == unit["text"]
        assert unit["length"] == len(unit["text"])
        assert unit["kind"] in ("sentence", "table_row", "code_block")
        assert unit["heading"] is None or isinstance(unit["heading"], str)


def texts(units: list[dict]) -> list[str]:
    return [u["text"] for u in units]


def under(units: list[dict], heading: str) -> list[dict]:
    return [u for u in units if u["heading"] == heading]


# --- pricing page -------------------------------------------------------------------------

PRICING = fixture("pricing")
PRICING_UNITS = segment_units(PRICING)


def test_pricing_units_are_verbatim_slices():
    assert_slice_invariant(PRICING, PRICING_UNITS)


def test_pricing_table_header_is_a_unit_and_the_delimiter_is_not():
    rows = [u for u in PRICING_UNITS if u["kind"] == "table_row"]
    assert rows[0]["text"] == "| Plan | Starter | Growth | Enterprise |"
    assert rows[0]["heading"] == "Compare plans"
    assert len(rows) == 6
    assert not any(re.fullmatch(r"\|[\s:|-]*\|", u["text"]) for u in PRICING_UNITS)


def test_enterprise_price_query_ranks_the_enterprise_price_first():
    ranked = rank_units(PRICING_UNITS, "enterprise price per month")
    top = ranked[0]
    assert "$499" in top["text"]
    assert re.search("enterprise", top["text"], re.I)
    assert top["heading"] == "Enterprise"
    row = next((u for u in ranked[:3] if u["kind"] == "table_row"), None)
    assert row["text"] == "| Price per month | $29 | $99 | $499 |"
    for unit in ranked:
        assert PRICING[unit["offset"] : unit["offset"] + unit["length"]] == unit["text"]
        assert unit["score"] > 0


def test_prose_prices_are_sentences_under_their_plan_heading():
    assert texts(under(PRICING_UNITS, "Starter")) == [
        "$29 per month.",
        "For side projects and prototypes: 10,000 credits, 5 concurrent requests, email support.",
        "10,000 credits every month",
        "Community support",
        "Cancel any time",
    ]


def test_decimal_and_bold_faq_do_not_break_the_split():
    growth = under(PRICING_UNITS, "Growth")
    assert len(growth) == 2
    assert re.search(r"99\.5% uptime SLA\.$", growth[1]["text"])
    faq = texts(under(PRICING_UNITS, "Frequently asked questions"))
    assert faq[0] == "**What counts as a credit?**"
    assert faq[1] == "One credit is one page fetched by `scrape`."


# --- docs page ----------------------------------------------------------------------------

DOCS = fixture("docs")
DOCS_UNITS = segment_units(DOCS)
USAGE_CODE = (
    "import { readBody, BodyTooLargeError } from 'crawlforge-extractors';\n\n"
    "const html = await readBody(response, { maxBytes: 10 * 1024 * 1024 });"
)


def test_docs_units_are_verbatim_slices():
    assert_slice_invariant(DOCS, DOCS_UNITS)


def test_api_name_query_returns_the_code_block_fences_excluded():
    top = rank_units(DOCS_UNITS, "readBody maxBytes")[0]
    assert top["kind"] == "code_block"
    assert top["heading"] == "Usage"
    assert top["text"] == USAGE_CODE
    assert DOCS[top["offset"] : top["offset"] + top["length"]] == top["text"]


def test_three_fence_styles_one_code_block_each():
    blocks = [[u["heading"], u["text"]] for u in DOCS_UNITS if u["kind"] == "code_block"]
    assert blocks == [
        ["Installation", "npm install crawlforge-extractors"],
        ["Usage", USAGE_CODE],
        ["Errors", "BodyTooLargeError: body of 31457280 bytes exceeds the 10485760-byte cap"],
    ]
    assert not any(re.match(r"(```|~~~)", u["text"]) for u in DOCS_UNITS)


def test_list_and_blockquote_markers_are_stripped_by_moving_the_offset():
    all_texts = texts(DOCS_UNITS)
    for expected in (
        "A string decoded with the body's declared charset.",
        "Issue the fetch under your own timeout.",
        "Catch the error and report the cap.",
        "Note: pass the `Response` you already issued, not a URL.",
    ):
        assert expected in all_texts
    assert not any(re.match(r"(?:[-*+]|\d+[.)]|>)\s", t) for t in all_texts)
    item = next(u for u in DOCS_UNITS if u["text"].startswith("Issue the fetch"))
    assert DOCS[item["offset"] - 3 : item["offset"]] == "1. "


def test_abbreviations_do_not_end_a_sentence():
    installation = [u for u in under(DOCS_UNITS, "Installation") if u["kind"] == "sentence"]
    assert texts(installation) == [
        "CrawlForge runs on Node.js 18 or later, e.g. the current LTS.",
        "Version v2.0 removed the legacy client.",
        "Dr. Smith wrote the original parser.",
    ]


def test_headings_label_the_units_that_follow():
    assert DOCS_UNITS[0]["text"] == "Last updated 2026-09-01."
    assert DOCS_UNITS[0]["heading"] is None
    assert not any(u["text"].startswith("#") for u in DOCS_UNITS)
    assert next(u for u in DOCS_UNITS if u["text"].startswith("`readBody` decodes"))["heading"] == "Reading a response body"
    assert [u["kind"] for u in under(DOCS_UNITS, "Errors")] == ["code_block", "sentence", "sentence", "sentence", "sentence"]
    assert DOCS_UNITS[-1]["text"] == "Check the URL."


def test_link_heavy_sentence_stays_verbatim():
    linky = next(u for u in DOCS_UNITS if u["text"].startswith("See the ["))
    assert "[charset notes](https://example.com/docs/charsets)" in linky["text"]
    assert linky["text"].endswith("for the details.")


# --- CJK and Devanagari -------------------------------------------------------------------

CJK = fixture("cjk")
CJK_UNITS = segment_units(CJK)


def test_cjk_units_are_verbatim_slices():
    assert_slice_invariant(CJK, CJK_UNITS)


def test_each_cjk_terminator_or_danda_ends_a_sentence():
    assert texts(under(CJK_UNITS, "价格与方案")) == [
        "专业版每月的价格是 99 美元。", "企业版按年计费，包含专属支持！", "您可以随时取消吗？", "当然可以。",
    ]  # fmt: skip
    assert texts(under(CJK_UNITS, "料金プラン")) == [
        "プロプランの料金は月額99ドルです。", "エンタープライズプランは年額請求となります！", "いつでもキャンセルできますか？",
    ]  # fmt: skip
    assert texts(under(CJK_UNITS, "मूल्य निर्धारण")) == [
        "प्रो योजना की कीमत 99 डॉलर प्रति माह है।", "एंटरप्राइज़ योजना का बिल वार्षिक रूप से आता है।",
    ]  # fmt: skip


def test_offsets_are_string_indexes_not_byte_offsets():
    for unit in CJK_UNITS:
        assert unit["offset"] == CJK.index(unit["text"])
    japanese = next(u for u in CJK_UNITS if u["text"].startswith("プロプラン"))
    assert len(CJK[: japanese["offset"]].encode("utf-8")) != japanese["offset"]


def test_cjk_query_ranks_the_matching_sentence_first():
    assert rank_units(CJK_UNITS, "价格")[0]["text"] == "专业版每月的价格是 99 美元。"
    assert rank_units(CJK_UNITS, "料金")[0]["text"] == "プロプランの料金は月額99ドルです。"
    assert rank_units(CJK_UNITS, "キャンセル")[0]["text"] == "いつでもキャンセルできますか？"
    assert rank_units(CJK_UNITS, "कीमत")[0]["text"] == "प्रो योजना की कीमत 99 डॉलर प्रति माह है।"


# --- segment_units edges ------------------------------------------------------------------


def test_nothing_to_segment():
    assert segment_units("") == []
    assert segment_units("   \n\n\t\n") == []
    assert segment_units(None) == []


def test_windows_line_endings_keep_offsets():
    markdown = "# Title\r\n\r\nFirst line of a sentence\r\ncontinues here. Second one.\r\n\r\n| a | b |\r\n| - | - |\r\n| 1 | 2 |\r\n"
    units = segment_units(markdown)
    assert_slice_invariant(markdown, units)
    assert texts(units) == ["First line of a sentence\r\ncontinues here.", "Second one.", "| a | b |", "| 1 | 2 |"]
    assert all(u["heading"] == "Title" for u in units)


def test_unclosed_fence_swallows_the_rest_as_one_code_block():
    markdown = 'Prose first.\n\n```py\nprint("a")\n\nprint("b")\n'
    units = segment_units(markdown)
    assert_slice_invariant(markdown, units)
    assert [[u["kind"], u["text"]] for u in units] == [["sentence", "Prose first."], ["code_block", 'print("a")\n\nprint("b")']]


def test_empty_fence_one_char_line_and_rules_produce_no_unit():
    markdown = "```\n\n```\n\na\n\n---\n\n* * *\n\n![alt](https://example.com/a.png)\n\n<!-- hidden -->\n"
    assert segment_units(markdown) == []


def test_closing_fence_as_long_as_the_opener_and_same_character():
    markdown = "````\n```\ninner\n```\n````\n\n~~~\n```\n~~~\n"
    units = segment_units(markdown)
    assert_slice_invariant(markdown, units)
    assert texts(units) == ["```\ninner\n```", "```"]


def test_heading_with_closing_hashes_and_lone_hash():
    units = segment_units("## Plans ##\n\nRow one.\n\n#\n\nRow two.")
    assert units[0]["heading"] == "Plans"
    assert units[1]["heading"] is None


def test_question_and_exclamation_end_a_sentence_after_dotted_words():
    assert texts(segment_units("What is Node.js? It is a runtime! Read Dr. Smith, e.g. chapter 2.")) == [
        "What is Node.js?", "It is a runtime!", "Read Dr. Smith, e.g. chapter 2.",
    ]  # fmt: skip


def test_period_inside_quotes_or_brackets_stays_with_the_sentence():
    markdown = 'He said "stop." Then (nothing happened.) Done.'
    units = segment_units(markdown)
    assert_slice_invariant(markdown, units)
    assert texts(units) == ['He said "stop."', "Then (nothing happened.)", "Done."]


def test_nested_blockquote_and_list_markers_are_skipped():
    markdown = "> > - deep item here\n> plain quote line"
    units = segment_units(markdown)
    assert_slice_invariant(markdown, units)
    assert texts(units) == ["deep item here", "plain quote line"]


# --- rank_units ---------------------------------------------------------------------------

CORPUS = segment_units(
    "\n".join([
        "# Plans", "",
        "Starter costs $29 per month and is billed monthly.",
        "Growth is $99 every month, per workspace.",
        "Enterprise pricing is quoted per organisation.", "",
        "## Support", "",
        "Email support answers within a day.",
    ])
)  # fmt: skip


def test_no_query_no_units_no_match_is_empty():
    assert rank_units(CORPUS, "") == []
    assert rank_units(CORPUS, "   ") == []
    assert rank_units(CORPUS, "...") == []
    assert rank_units([], "per month") == []
    assert rank_units(CORPUS, "kubernetes") == []
    assert rank_units(None, "per month") == []


def test_whole_phrase_beats_scattered_terms():
    first, second = rank_units(CORPUS, "per month")[:2]
    assert "$29 per month" in first["text"]
    assert "$99 every month, per workspace" in second["text"]


def test_light_stem_lets_pricing_find_priced_and_prices():
    ranked = rank_units(CORPUS, "pricing")
    assert len(ranked) == 1
    assert ranked[0]["text"].startswith("Enterprise pricing")
    units = segment_units("Priced at $10.\n\nPrices vary.\n\nThe price is fixed.\n\nA pricey option.")
    assert len(rank_units(units, "pricing")) == 3


def test_heading_sharing_a_query_term_boosts_its_units():
    units = segment_units("# Refunds\n\nWe answer within a day.\n\n# Support\n\nWe answer within a day.")
    ranked = rank_units(units, "support answer")
    assert len(ranked) == 2
    assert ranked[0]["heading"] == "Support"
    assert ranked[0]["offset"] > ranked[1]["offset"]
    assert ranked[0]["score"] > ranked[1]["score"]


def test_ties_go_to_the_earlier_offset():
    ranked = rank_units(segment_units("Same text here.\n\nOther words.\n\nSame text here."), "same text")
    assert [u["offset"] for u in ranked] == [0, 31]
    assert ranked[0]["score"] == ranked[1]["score"]


def test_min_score_drops_weak_matches_and_max_units_is_clamped():
    everything = rank_units(CORPUS, "month support")
    assert len(everything) == 3
    strong = rank_units(CORPUS, "month support", min_score=everything[1]["score"])
    assert texts(strong) == [everything[0]["text"]]
    assert len(rank_units(CORPUS, "month support", max_units=2)) == 2
    assert len(rank_units(CORPUS, "month support", max_units=0)) == 1
    assert len(rank_units(CORPUS, "month support", max_units=-4)) == 1
    assert len(rank_units(CORPUS, "month support", max_units=2.9)) == 2
    assert len(rank_units(CORPUS, "month support", max_units="lots")) == 3
    assert len(rank_units(CORPUS, "month support", min_score="x")) == 3


def test_ranked_unit_carries_every_field_plus_a_rounded_score():
    for unit in rank_units(CORPUS, "month"):
        assert sorted(unit) == ["heading", "kind", "length", "offset", "score", "text"]
        assert unit["score"] == round(unit["score"] * 1000) / 1000
        assert unit["score"] > 0


def test_input_units_are_not_mutated_and_results_are_new_objects():
    before = copy.deepcopy(CORPUS)
    ranked = rank_units(CORPUS, "per month")
    assert ranked
    assert not any(any(r is u for u in CORPUS) for r in ranked)
    assert all("score" not in u for u in CORPUS)
    assert CORPUS == before

