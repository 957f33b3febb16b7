"""crawlforge.extract.charset on real non-UTF-8 captures (fixtures/charset, labels.json)."""

import json

import pytest

from conftest import ROOT

from crawlforge.extract.charset import (
    BodyTooLargeError,
    decode_body,
    detect_charset,
    web_codec,
)

FIXTURES = ROOT / "fixtures" / "charset"
LABELS = json.loads((FIXTURES / "labels.json").read_text())
# One phrase per capture that only the right codec produces.
PHRASES = {
    "euc-jp_xmldecl_aivy_co_jp_feed.xml": "ゲーム三昧な正月",
    "gb2312_meta_baidu_cn_home_2010.html": "百度一下，你就知道",
    "iso-8859-1_meta_winfuture_de_news.html": "Gebühren",
    "koi8-r_xmldecl_newsru_com_feed.xml": "психически нездоровый мужчина",
    "shift_jis_meta_2ch_top.html": "２ちゃんねる掲示板へようこそ",
    "utf-16le_bom_meta_says_sjis_kcna_co_jp.html": "조선중앙통신",
    "windows-1250_meta_rp_pl_polityka.html": "Sejm zagłosował",
    "windows-1252_undeclared_webtv_net.html": "(3 ½ years)",
}


def body_of(name):
    return (FIXTURES / name).read_bytes()


@pytest.mark.parametrize("name", sorted(PHRASES))
@pytest.mark.parametrize("with_header", [True, False])
def test_every_capture_decodes_to_its_true_encoding(name, with_header):
    label = LABELS[name]["encoding"]
    content_type = f"text/html; charset={label}" if with_header else "text/html"
    result = decode_body(body_of(name), content_type)
    assert result["encoding"] == web_codec(label)
    assert PHRASES[name] in result["text"]
    assert "\ufffd" not in result["text"]


def test_bom_beats_a_meta_that_says_shift_jis():
    result = decode_body(body_of("utf-16le_bom_meta_says_sjis_kcna_co_jp.html"), "text/html")
    assert (result["encoding"], result["source"]) == ("utf-16-le", "bom")
    assert not result["text"].startswith("\ufeff")


def test_header_beats_meta_even_when_they_disagree():
    body = body_of("gb2312_meta_baidu_cn_home_2010.html")
    # GB2312 bytes decode cleanly as GB18030 but not as UTF-8: header cp1251 decodes anything.
    assert decode_body(body, "text/html; charset=windows-1251")["source"] == "header"
    assert detect_charset(body, "text/html; charset=windows-1251") == "cp1251"


def test_meta_declaration_is_the_source_without_header():
    result = decode_body(body_of("shift_jis_meta_2ch_top.html"))
    assert (result["encoding"], result["source"]) == ("cp932", "meta")


def test_undeclared_windows_1252_is_detected_not_a_dos_code_page():
    result = decode_body(body_of("windows-1252_undeclared_webtv_net.html"), "text/html")
    assert (result["encoding"], result["source"]) == ("cp1252", "detected")
    assert "Copyright © 1993 - 2013" in result["text"]


def test_meta_past_the_first_1024_bytes_is_ignored_and_detection_decides():
    result = decode_body(body_of("windows-1250_meta_rp_pl_polityka.html"))
    assert (result["encoding"], result["source"]) == ("cp1250", "detected")


def test_declared_utf8_that_fails_to_decode_falls_back_to_detection():
    body = body_of("shift_jis_meta_2ch_top.html")
    result = decode_body(body, "text/html; charset=utf-8")
    assert result["source"] == "detected"
    assert result["encoding"] == "cp932"
    assert PHRASES["shift_jis_meta_2ch_top.html"] in result["text"]


def test_whatwg_aliases():
    assert web_codec("latin1") == "cp1252"
    assert web_codec("ISO-8859-1") == "cp1252"
    assert web_codec("gbk") == "gb18030"
    assert web_codec("Shift_JIS") == "cp932"
    assert web_codec("no-such-charset") is None


def test_ascii_without_declaration_is_utf8_by_default():
    assert decode_body(b"<p>plain</p>") == {"text": "<p>plain</p>", "encoding": "utf-8", "source": "default"}
    assert decode_body(b"") == {"text": "", "encoding": "utf-8", "source": "default"}


def test_unknown_header_label_falls_through_to_the_document():
    result = decode_body(body_of("shift_jis_meta_2ch_top.html"), "text/html; charset=x-bogus")
    assert result["source"] == "meta"


def test_body_over_the_cap_raises_with_limit_and_size():
    body = body_of("shift_jis_meta_2ch_top.html")
    with pytest.raises(BodyTooLargeError) as caught:
        decode_body(body, max_bytes=1000)
    assert (caught.value.limit, caught.value.size) == (1000, len(body))
    assert str(caught.value) == f"Response body too large: {len(body)} bytes exceeds limit of 1000 bytes"
    assert decode_body(body, max_bytes=len(body))["encoding"] == "cp932"  # exactly the cap is fine


@pytest.mark.parametrize("name, codec", [
    ("koi8-r_xmldecl_newsru_com_feed.xml", "cp1251"), ("koi8-r_xmldecl_newsru_com_feed.xml", "cp866"),
    ("shift_jis_meta_2ch_top.html", "euc_jp"), ("shift_jis_meta_2ch_top.html", "iso2022_jp"),
])
def test_real_text_re_encoded_without_declaration_is_detected(name, codec):
    """The capture's text, declarations removed, in another encoding a site might serve it in."""
    text = decode_body(body_of(name))["text"]
    text = text.replace('encoding="koi8-r"', "").replace("charset=Shift_JIS", "")
    result = decode_body(text.encode(codec), "text/html")
    assert (result["encoding"], result["source"]) == (codec, "detected")
    assert result["text"] == text
