"""The product id a page's URL carries (``/itm/302474151804``, ``/p/N82E16814487048``, or a
code parameter: ``?sku=SS24-SD-3.0``) when the page repeats it outside its own links: as text, a
form field's value, a data attribute, or another URL's parameter value (``?Item=N82E...``: a
link to rate or review this item). Last resort for the SKU of a page other readers show to sell a
product; its provenance is ``url``. Parameter names: ``words/url_code_parameters.txt``."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.extract.words import phrases

MIN_DIGITS = 5  # fewer: a year, a size or a page number
MAX_LENGTH = 24
_TOKEN = re.compile(r"[A-Za-z0-9]+")


class UrlIdExtractor(Extractor):
    name = "url"
    priority = 5

    def extract(self, page: Page) -> Finding | None:
        if "sku" in page.found or "price" not in page.found:
            return None  # named already, or no product on sale
        body = page.html[page.head_end:] if page.head_end < len(page.html) else page.html
        code = url_id(page.url, body)
        return Finding(structured_data={"sku": code}) if code else None


def url_id(url: str, body: str) -> str | None:
    """The value of a code parameter of the URL, else the last id-like token of its path, that
    ``body`` repeats (not as a path or a slug: a link to the page itself)."""
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query)
    except ValueError:
        return None
    names = phrases("url_code_parameters")
    for name, value in query:
        if name.lower() in names and 2 < len(value) <= MAX_LENGTH and any(c.isdigit() for c in value) \
                and _repeated(value, body):
            return value
    for token in reversed(_TOKEN.findall(parts.path)):
        if len(token) <= MAX_LENGTH and sum(c.isdigit() for c in token) >= MIN_DIGITS and _repeated(token, body):
            return token
    return None


def _repeated(token: str, body: str) -> bool:
    return re.search(rf"(?<![\w/.?&%-]){re.escape(token)}(?![\w/])", body) is not None
