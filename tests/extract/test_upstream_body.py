"""Upstream conformance: tests/body.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 0c7d3eba1148c590478ff830376a6d723469edb0 (templates.md §0.1, the
buffered-body cap). Scrapy hands over a buffered body, so ``readBody(response)`` is
``decode_body(body, content_type, max_bytes)`` and streamed chunks are joined bytes. Per API.md
``detect_charset`` answers with the Python codec a browser would use for the label (WHATWG
aliases: Shift_JIS -> cp932, iso-8859-1 -> cp1252, gbk -> gb18030), not the raw label; the
Content-Length check is ``check_size(n, max_bytes, declared=True)``.
"""

import pytest

from crawlforge.extract.charset import (
    DEFAULT_MAX_BODY_BYTES,
    BodyTooLargeError,
    check_size,
    decode_body,
    detect_charset,
)


def text(body: bytes, content_type: str | None = None, **options) -> str:
    return decode_body(body, content_type, **options)["text"]


# --- detectCharset ------------------------------------------------------------------------


def test_prefers_the_content_type_header():
    assert detect_charset(b"", "text/html; charset=Shift_JIS") == "cp932"


def test_header_wins_when_the_document_disagrees():
    assert detect_charset(b'<meta charset="gbk">', "text/html; charset=iso-8859-1") == "cp1252"


def test_sniffs_meta_charset_when_the_header_says_nothing():
    assert detect_charset(b'<!doctype html><html><head><meta charset="gbk">', "text/html") == "gb18030"


def test_reads_the_http_equiv_form():
    body = b'<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'
    assert detect_charset(body) == "cp1252"


def test_ignores_meta_past_the_1024_byte_prescan():
    assert detect_charset(b"<!-- " + b"x" * 1100 + b' --><meta charset="gbk">') == "utf-8"


def test_defaults_to_utf8():
    assert detect_charset(b"<html>") == "utf-8"


# --- readBody decoding --------------------------------------------------------------------

LATIN1_ARGER = bytes([0xC4, 0x72, 0x67, 0x65, 0x72])


def test_decodes_a_non_utf8_body_with_its_declared_charset():
    assert text(LATIN1_ARGER, "text/html; charset=iso-8859-1") == "Ärger"


def test_same_bytes_as_utf8_would_be_corrupted():
    assert LATIN1_ARGER.decode("utf-8", errors="replace") != "Ärger"


def test_unknown_label_falls_back_to_utf8():
    assert text(b"hello", "text/html; charset=not-a-charset") == "hello"


def test_joined_chunks_in_order():
    assert text(b"one " + b"two " + b"three") == "one two three"


def test_multibyte_character_split_across_chunks():
    assert text(bytes([0xE2, 0x82]) + bytes([0xAC])) == "€"


def test_empty_body_is_empty_string():
    assert text(b"") == ""


# --- size cap -----------------------------------------------------------------------------


def test_rejects_on_content_length_without_reading_the_body():
    with pytest.raises(BodyTooLargeError) as caught:
        check_size(5000, 100, declared=True)
    assert (caught.value.size, caught.value.limit) == (5000, 100)


def test_enforces_the_cap_when_content_length_lies():
    with pytest.raises(BodyTooLargeError) as caught:
        decode_body(b"x" * 500, "text/html", max_bytes=100)
    assert caught.value.size > 100


def test_enforces_the_cap_without_content_length():
    with pytest.raises(BodyTooLargeError):
        decode_body(b"x" * 200, max_bytes=100)


def test_enforces_the_cap_on_a_buffered_body():
    with pytest.raises(BodyTooLargeError) as caught:
        decode_body(b"x" * 200, max_bytes=100)
    assert (caught.value.size, caught.value.limit) == (200, 100)


def test_accepts_a_body_exactly_at_the_cap():
    assert len(text(b"x" * 100, max_bytes=100)) == 100


def test_defaults_to_25_mb():
    assert DEFAULT_MAX_BODY_BYTES == 25 * 1024 * 1024
