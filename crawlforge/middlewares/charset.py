"""Charset: decode each text response with its real encoding, and say how it was chosen.

Scrapy's TextResponse already follows BOM > header > meta, then tries UTF-8 and cp1252.
This adds what it lacks (crawlforge.extract.charset): detection by charset-normalizer when
nothing is declared or the declaration does not decode the body, and the WHATWG label aliases.
The chosen codec and its source (bom/header/meta/detected/default) go to
``meta["crawlforge_encoding"]`` and ``meta["crawlforge_encoding_source"]`` for the item.
"""

from __future__ import annotations

import codecs

from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse

from crawlforge.extract.charset import choose_charset


class CharsetMiddleware:
    """Downloader middleware re-decoding text responses whose encoding Scrapy got wrong."""

    def __init__(self, crawler):
        if not crawler.settings.getbool("CRAWLFORGE_CHARSET_ENABLED", True):
            raise NotConfigured
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_response(self, request, response):
        if not isinstance(response, TextResponse) or not response.body:
            return response
        content_type = response.headers.get(b"Content-Type", b"").decode("latin-1") or None
        codec, source = choose_charset(response.body, content_type)
        request.meta["crawlforge_encoding"] = codec
        request.meta["crawlforge_encoding_source"] = source
        self.stats.inc_value(f"charset/source/{source}")
        if codecs.lookup(codec).name != codecs.lookup(response.encoding).name:
            self.stats.inc_value("charset/corrected")
            response = response.replace(encoding=codec)
        return response
