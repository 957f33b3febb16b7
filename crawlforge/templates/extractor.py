"""A site template's own fields (amazon-product and the like) as a structured-data extractor,
when the page's URL is one the template is routed, and it reads the page itself (not an API
endpoint). The template is the one implementation; this reads its record as product fields,
with provenance ``template:<id>``. A template that rejects the page (a captcha) is a warning.
It lives here, above ``crawlforge.extract``, which names it in its registry by path only."""

from __future__ import annotations

from functools import lru_cache

from price_parser import Price

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.extract.extractors.shown import currency_code
from crawlforge.templates.base import TemplateError
from crawlforge.templates.registry import TemplateRegistry, fetch_url

FIELDS = {  # product field <- the first template record key present
    "product_name": ("title", "name"),
    "brand": ("brand",),
    "sku": ("sku", "asin"),  # Amazon's ASIN is the listing's own identifier
    "product_description": ("description",),
}


class TemplateExtractor(Extractor):
    name = "template"
    priority = 40

    def extract(self, page: Page) -> Finding | None:
        template = _registry().route(page.url)
        if template is None or fetch_url(template, page.url) != page.url:
            return None
        try:
            record = _registry().run(template.id, page.html, page.url)["data"]
        except TemplateError as exc:
            return Finding(warnings=[f"{template.id}: {exc}"])
        fields = product_fields(record, page.url) if isinstance(record, dict) else {}
        if not fields.keys() & {"price", "sku", "availability"}:
            return None  # not a product template's record
        return Finding(structured_data=fields, source=f"template:{template.id}")


def product_fields(record: dict, url: str) -> dict:
    """The record's product fields, each on its own: a page without a price still has its name,
    its identifier and its stock."""
    shown = Price.fromstring(str(record.get("price") or ""))
    amount = format(shown.amount, "f") if shown.amount is not None and shown.amount > 0 else None
    currency = values.currency(record.get("currency")) or currency_code(shown.currency, url)
    state = values.availability(record.get("availability")) or None
    state = state if state in values.STATES else values.stock_phrase(record.get("availability"))
    images = record.get("images")
    fields = {field: next((values.text(record[k]) for k in keys if values.text(record.get(k))), None)
              for field, keys in FIELDS.items()}
    return values.compact({
        **fields, "price": amount, "currency": currency if amount else None,
        "availability": state,
        "image": images[0] if isinstance(images, list) and images and isinstance(images[0], str) else None,
    })


@lru_cache(maxsize=1)
def _registry() -> TemplateRegistry:
    return TemplateRegistry()
