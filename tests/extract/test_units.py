"""segment_units / rank_units on the upstream highlights fixtures (templates.md §5.7)."""


import pytest

from conftest import ROOT

from crawlforge.extract.units import rank_units, segment_units

FIXTURES = ROOT / "fixtures" / "highlights"


def _read(name: str) -> str:
    return (FIXTURES / f"{name}.md").read_bytes().decode("utf-8")


def _assert_verbatim(markdown: str, units: list[dict]) -> None:
    assert units
    for unit in units:
        assert markdown[unit["offset"] : unit["offset"] + unit["length"]] == unit["text"]
        assert unit["length"] == len(unit["text"])
        assert unit["kind"] in {"sentence", "table_row", "code_block"}


@pytest.mark.parametrize("name", ["pricing", "docs", "cjk"])
def test_every_unit_is_a_verbatim_slice(name):
    markdown = _read(name)
    units = segment_units(markdown)
    _assert_verbatim(markdown, units)
    assert len({u["offset"] for u in units}) == len(units)


def test_pricing_enterprise_query_ranks_enterprise_sentence_then_price_row():
    markdown = _read("pricing")
    ranked = rank_units(segment_units(markdown), "enterprise price per month")
    top, second = ranked[0], ranked[1]
    assert top["text"] == (
        "Enterprise is priced at $499 per month, billed annually, "
        "and includes a dedicated success engineer."
    )
    assert (top["offset"], top["length"], top["heading"], top["kind"]) == (815, 99, "Enterprise", "sentence")
    assert top["score"] == 5.953
    assert second["text"] == "| Price per month | $29 | $99 | $499 |"
    assert (second["offset"], second["kind"], second["heading"]) == (257, "table_row", "Compare plans")
    assert second["score"] == 5.771
    assert [u["offset"] for u in ranked[2:4]] == [479, 662]  # "$29 per month." then "$99 per month."


def test_pricing_table_rows_keep_header_and_drop_delimiter():
    rows = [u for u in segment_units(_read("pricing")) if u["kind"] == "table_row"]
    assert len(rows) == 6
    assert rows[0]["text"] == "| Plan | Starter | Growth | Enterprise |"
    assert rows[0]["heading"] == "Compare plans"
    assert "| --- | --- | --- | --- |" not in [r["text"] for r in rows]


def test_pricing_prose_and_list_items_sit_under_their_plan_heading():
    starter = [u["text"] for u in segment_units(_read("pricing")) if u["heading"] == "Starter"]
    assert starter == [
        "$29 per month.",
        "For side projects and prototypes: 10,000 credits, 5 concurrent requests, email support.",
        "10,000 credits every month",
        "Community support",
        "Cancel any time",
    ]


def test_pricing_decimal_and_bold_faq_question_split_correctly():
    units = segment_units(_read("pricing"))
    growth = [u["text"] for u in units if u["heading"] == "Growth"]
    assert len(growth) == 2 and growth[1].endswith("99.5% uptime SLA.")
    faq = [u["text"] for u in units if u["heading"] == "Frequently asked questions"]
    assert faq[:2] == ["**What counts as a credit?**", "One credit is one page fetched by `scrape`."]


def test_docs_api_query_returns_the_code_block_without_fences():
    markdown = _read("docs")
    top = rank_units(segment_units(markdown), "readBody maxBytes")[0]
    assert top["kind"] == "code_block"
    assert top["heading"] == "Usage"
    assert top["offset"] == 535
    assert top["text"] == (
        "import { readBody, BodyTooLargeError } from 'crawlforge-extractors';\n\n"
        "const html = await readBody(response, { maxBytes: 10 * 1024 * 1024 });"
    )


def test_docs_three_fence_styles_make_one_code_block_each():
    blocks = [(u["heading"], u["text"]) for u in segment_units(_read("docs")) if u["kind"] == "code_block"]
    assert [b[0] for b in blocks] == ["Installation", "Usage", "Errors"]
    assert blocks[0][1] == "npm install crawlforge-extractors"
    assert blocks[2][1] == "BodyTooLargeError: body of 31457280 bytes exceeds the 10485760-byte cap"


def test_docs_list_and_quote_markers_are_skipped_by_moving_the_offset():
    markdown = _read("docs")
    units = segment_units(markdown)
    texts = [u["text"] for u in units]
    assert "Note: pass the `Response` you already issued, not a URL." in texts
    assert "A string decoded with the body's declared charset." in texts
    item = next(u for u in units if u["text"].startswith("Issue the fetch"))
    assert markdown[item["offset"] - 3 : item["offset"]] == "1. "


def test_docs_node_js_eg_decimal_version_and_dr_do_not_end_a_sentence():
    installation = [
        u["text"] for u in segment_units(_read("docs")) if u["heading"] == "Installation" and u["kind"] == "sentence"
    ]
    assert installation == [
        "CrawlForge runs on Node.js 18 or later, e.g. the current LTS.",
        "Version v2.0 removed the legacy client.",
        "Dr. Smith wrote the original parser.",
    ]


def test_docs_headings_label_units_and_are_not_units():
    units = segment_units(_read("docs"))
    assert (units[0]["text"], units[0]["heading"]) == ("Last updated 2026-09-01.", None)
    assert not any(u["text"].startswith("#") for u in units)
    assert [u["kind"] for u in units if u["heading"] == "Errors"] == ["code_block"] + ["sentence"] * 4
    assert units[-1]["text"] == "Check the URL."


def test_cjk_and_devanagari_terminators_split_without_whitespace():
    units = segment_units(_read("cjk"))
    by_heading = lambda h: [u["text"] for u in units if u["heading"] == h]  # noqa: E731
    assert by_heading("价格与方案") == ["专业版每月的价格是 99 美元。", "企业版按年计费，包含专属支持！", "您可以随时取消吗？", "当然可以。"]
    assert by_heading("料金プラン") == [
        "プロプランの料金は月額99ドルです。",
        "エンタープライズプランは年額請求となります！",
        "いつでもキャンセルできますか？",
    ]
    assert by_heading("मूल्य निर्धारण") == [
        "प्रो योजना की कीमत 99 डॉलर प्रति माह है।",
        "एंटरप्राइज़ योजना का बिल वार्षिक रूप से आता है।",
    ]


def test_cjk_offsets_are_string_indexes_not_bytes():
    markdown = _read("cjk")
    units = segment_units(markdown)
    assert [u["offset"] for u in units] == [markdown.index(u["text"]) for u in units]
    japanese = next(u for u in units if u["text"].startswith("プロプラン"))
    assert japanese["offset"] == 66
    assert len(markdown[:66].encode("utf-8")) != 66


@pytest.mark.parametrize(
    "query, expected",
    [
        ("价格", "专业版每月的价格是 99 美元。"),
        ("料金", "プロプランの料金は月額99ドルです。"),
        ("キャンセル", "いつでもキャンセルできますか？"),
        ("कीमत", "प्रो योजना की कीमत 99 डॉलर प्रति माह है।"),
    ],
)
def test_cjk_query_matches_by_bigrams(query, expected):
    assert rank_units(segment_units(_read("cjk")), query)[0]["text"] == expected


# Sentence and block rules on small inputs.


def test_nothing_to_segment():
    assert segment_units("") == []
    assert segment_units("   \n\n\t\n") == []
    assert segment_units(None) == []


def test_windows_line_endings_stay_inside_a_joined_paragraph():
    markdown = "# Title\r\n\r\nFirst line of a sentence\r\ncontinues here. Second one.\r\n\r\n| a | b |\r\n| - | - |\r\n| 1 | 2 |\r\n"
    units = segment_units(markdown)
    _assert_verbatim(markdown, units)
    assert [u["text"] for u in units] == [
        "First line of a sentence\r\ncontinues here.",
        "Second one.",
        "| a | b |",
        "| 1 | 2 |",
    ]
    assert {u["heading"] for u in units} == {"Title"}


def test_unclosed_fence_swallows_the_rest():
    units = segment_units('Prose first.\n\n```py\nprint("a")\n\nprint("b")\n')
    assert [(u["kind"], u["text"]) for u in units] == [
        ("sentence", "Prose first."),
        ("code_block", 'print("a")\n\nprint("b")'),
    ]


def test_empty_fence_one_char_line_rule_image_and_comment_make_no_unit():
    markdown = "```\n\n```\n\na\n\n---\n\n* * *\n\n![alt](https://example.com/a.png)\n\n<!-- hidden -->\n"
    assert segment_units(markdown) == []


def test_closing_fence_needs_same_character_and_length():
    units = segment_units("````\n```\ninner\n```\n````\n\n~~~\n```\n~~~\n")
    assert [u["text"] for u in units] == ["```\ninner\n```", "```"]


def test_heading_closing_hashes_and_lone_hash():
    units = segment_units("## Plans ##\n\nRow one.\n\n#\n\nRow two.")
    assert [u["heading"] for u in units] == ["Plans", None]


def test_question_and_exclamation_end_sentences_after_dotted_words():
    units = segment_units("What is Node.js? It is a runtime! Read Dr. Smith, e.g. chapter 2.")
    assert [u["text"] for u in units] == ["What is Node.js?", "It is a runtime!", "Read Dr. Smith, e.g. chapter 2."]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Pi is 3.14 exactly. Next.", ["Pi is 3.14 exactly.", "Next."]),
        ("Ask Mr. Brown about it. Then go.", ["Ask Mr. Brown about it.", "Then go."]),
        ("Sent by J. Smith today. Done.", ["Sent by J. Smith today.", "Done."]),
        ("Bring pens, paper etc. to class. Ok.", ["Bring pens, paper etc. to class.", "Ok."]),
        ("Wait... what?! Really.", ["Wait...", "what?!", "Really."]),
        ("He said \"stop.\" Then (nothing happened.) Done.", ['He said "stop."', "Then (nothing happened.)", "Done."]),
    ],
)
def test_ascii_sentence_rules(text, expected):
    assert [u["text"] for u in segment_units(text)] == expected


def test_nested_quote_and_list_markers_are_skipped():
    units = segment_units("> > - deep item here\n> plain quote line")
    assert [u["text"] for u in units] == ["deep item here", "plain quote line"]


def test_astral_characters_keep_python_offsets():
    markdown = "😀 Emoji first. Then this one."
    units = segment_units(markdown)
    assert [(u["offset"], u["text"]) for u in units] == [(0, "😀 Emoji first."), (15, "Then this one.")]


# Ranking rules.

_CORPUS = segment_units(
    "# Plans\n\nStarter costs $29 per month and is billed monthly.\n"
    "Growth is $99 every month, per workspace.\nEnterprise pricing is quoted per organisation.\n\n"
    "## Support\n\nEmail support answers within a day."
)


def test_no_query_or_no_match_gives_empty():
    for query in ["", "   ", "...", "kubernetes"]:
        assert rank_units(_CORPUS, query) == []
    assert rank_units([], "per month") == []
    assert rank_units(None, "per month") == []


def test_whole_phrase_beats_scattered_terms():
    first, second = rank_units(_CORPUS, "per month")[:2]
    assert "$29 per month" in first["text"]
    assert "$99 every month, per workspace" in second["text"]


def test_light_stem_matches_pricing_priced_prices():
    assert [u["text"] for u in rank_units(_CORPUS, "pricing")] == ["Enterprise pricing is quoted per organisation."]
    units = segment_units("Priced at $10.\n\nPrices vary.\n\nThe price is fixed.\n\nA pricey option.")
    assert [u["text"] for u in rank_units(units, "pricing")] == ["Priced at $10.", "Prices vary.", "The price is fixed."]


def test_heading_term_boosts_units_at_half_weight():
    units = segment_units("# Refunds\n\nWe answer within a day.\n\n# Support\n\nWe answer within a day.")
    ranked = rank_units(units, "support answer")
    assert [u["heading"] for u in ranked] == ["Support", "Refunds"]
    assert ranked[0]["score"] > ranked[1]["score"]


def test_ties_go_to_earlier_offset():
    units = segment_units("Same text here.\n\nOther words.\n\nSame text here.")
    ranked = rank_units(units, "same text")
    assert [u["offset"] for u in ranked] == [0, 31]
    assert ranked[0]["score"] == ranked[1]["score"]


def test_min_score_and_max_units_clamping():
    every = rank_units(_CORPUS, "month support")
    assert len(every) == 3
    assert [u["text"] for u in rank_units(_CORPUS, "month support", min_score=every[1]["score"])] == [every[0]["text"]]
    assert len(rank_units(_CORPUS, "month support", max_units=2)) == 2
    assert len(rank_units(_CORPUS, "month support", max_units=0)) == 1
    assert len(rank_units(_CORPUS, "month support", max_units=-4)) == 1
    assert len(rank_units(_CORPUS, "month support", max_units=2.9)) == 2
    assert len(rank_units(_CORPUS, "month support", max_units="lots")) == 3
    assert len(rank_units(_CORPUS, "month support", min_score="x")) == 3
    assert len(rank_units(_CORPUS, "month support", min_score=-1)) == 3  # no zero scores


def test_ranked_units_are_new_dicts_with_rounded_score():
    before = [dict(u) for u in _CORPUS]
    ranked = rank_units(_CORPUS, "per month")
    assert _CORPUS == before
    assert all(set(u) == {"text", "kind", "offset", "length", "heading", "score"} for u in ranked)
    assert all(round(u["score"], 3) == u["score"] > 0 for u in ranked)
    assert not any(r is u for r in ranked for u in _CORPUS)


def test_unknown_rank_option_is_refused():
    with pytest.raises(TypeError, match="maxUnits"):
        rank_units(_CORPUS, "month", maxUnits=2)
