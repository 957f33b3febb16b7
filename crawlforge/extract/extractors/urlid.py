"""The product id a page's URL carries (``/itm/302474151804``, ``/p/N82E16814487048``) when the
page repeats it outside links: as text, a form field's value or a data attribute. Last resort for
the SKU of a page other readers show to sell a product; its provenance is ``url``."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from crawlforge.extract.extractors.base import Extractor, Finding, Page

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
    """The last id-like token of the URL's path that ``body`` repeats outside a URL."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    for token in reversed(_TOKEN.findall(path)):
        if len(token) <= MAX_LENGTH and sum(c.isdigit() for c in token) >= MIN_DIGITS and _repeated(token, body):
            return token
    return None


def _repeated(token: str, body: str) -> bool:
    return re.search(rf"(?<![\w/.=?&%-]){re.escape(token)}(?![\w/])", body) is not None
