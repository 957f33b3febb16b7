"""Charset: decode each text response with its real encoding, and say how it was chosen.

Scrapy's TextResponse already follows BOM > header > meta, then tries UTF-8 and cp1252.
This adds what it lacks (crawlforge.extract.charset): detection by charset-normalizer when
nothing is declared or the declaration does not decode the body, and the WHATWG label aliases.
The chosen codec and its source (bom/header/meta/detected/default) go to
``meta["crawlforge_encoding"]`` and ``meta["crawlforge_encoding_source"]`` for the item.
A body that is not text at all (a file format's signature, or the bytes WHATWG MIME sniffing
calls binary), whatever its Content-Type says, ends as ``not_html`` instead of an item of junk;
but a PDF goes on to the spider, which makes a document of it.
"""

from __future__ import annotations

import codecs

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import TextResponse

from crawlforge.extract.charset import choose_charset
from crawlforge.signals import report_failure

# Signatures of binary formats (WHATWG MIME Sniffing, "matching an image/archive/... type pattern")
BINARY_SIGNATURES = {
    b"%PDF-": "PDF", b"\x89PNG\r\n\x1a\n": "PNG", b"GIF87a": "GIF", b"GIF89a": "GIF", b"\xff\xd8\xff": "JPEG",
    b"PK\x03\x04": "ZIP", b"\x1f\x8b\x08": "gzip", b"\x7fELF": "ELF", b"Rar!\x1a\x07": "RAR",
    b"7z\xbc\xaf\x27\x1c": "7-Zip", b"\x00\x00\x01\x00": "ICO", b"OggS\x00": "Ogg", b"\x1aE\xdf\xa3": "WebM",
}
# "Binary data bytes" of WHATWG MIME sniffing: no text has them, except as the odd stray byte
BINARY_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
SNIFF_BYTES = 8192
MAX_BINARY_SHARE = 0.02
WIDE_CODECS = ("utf-16", "utf-32")  # their text is full of NUL bytes


def binary_kind(body: bytes, codec: str) -> str | None:
    """What a body that is not text is (``PDF``, ``binary data``...), or None for text."""
    head = body[:SNIFF_BYTES]
    for signature, kind in BINARY_SIGNATURES.items():
        if head.startswith(signature):
            return kind
    if codecs.lookup(codec).name.startswith(WIDE_CODECS):
        return None
    binary = len(head) - len(head.translate(None, BINARY_BYTES))
    return "binary data" if head and binary / len(head) > MAX_BINARY_SHARE else None


class CharsetMiddleware:
    """Downloader middleware re-decoding text responses whose encoding Scrapy got wrong."""

    def __init__(self, crawler):
        if not crawler.settings.getbool("CRAWLFORGE_CHARSET_ENABLED"):
            raise NotConfigured
        self.crawler = crawler
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_response(self, request, response):
        if not isinstance(response, TextResponse) or not response.body:
            return response
        content_type = response.headers.get(b"Content-Type", b"").decode("latin-1") or None
        codec, source = choose_charset(response.body, content_type)
        kind = binary_kind(response.body, codec)
        if kind == "PDF":
            return response
        if kind:
            detail = f"served as {content_type or 'text'}, but the body is {kind}, not text"
            self.stats.inc_value("charset/not_text")
            report_failure(self.crawler, request, "download", "not_html", detail, status=response.status)
            raise IgnoreRequest(detail)
        request.meta["crawlforge_encoding"] = codec
        request.meta["crawlforge_encoding_source"] = source
        self.stats.inc_value(f"charset/source/{source}")
        if codecs.lookup(codec).name != codecs.lookup(response.encoding).name:
            self.stats.inc_value("charset/corrected")
            response = response.replace(encoding=codec)
        return response
