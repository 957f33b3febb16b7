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
from crawlforge.extract.extractors.visible import currency_code
from crawlforge.templates.base import TemplateError
from crawlforge.templates.registry import TemplateRegistry, fetch_url

FIELDS = {  # product field <- the first template record key present
    "product_name": ("title", "name"),
    "brand": ("brand",),
    "sku": ("sku",),
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
        if not isinstance(record, dict) or not record.get("price"):
            return None  # not a product template, or no price on this page
        return Finding(structured_data=product_fields(record, page.url), source=f"template:{template.id}")


def product_fields(record: dict, url: str) -> dict:
    shown = Price.fromstring(str(record["price"]))
    amount = format(shown.amount, "f") if shown.amount is not None and shown.amount > 0 else None
    currency = values.currency(record.get("currency")) or currency_code(shown.currency, url)
    state = values.availability(record.get("availability"))
    images = record.get("images")
    fields = {field: next((values.text(record[k]) for k in keys if values.text(record.get(k))), None)
              for field, keys in FIELDS.items()}
    return values.compact({
        **fields, "price": amount, "currency": currency if amount else None,
        "availability": state if state in values.STATES else None,
        "image": images[0] if isinstance(images, list) and images and isinstance(images[0], str) else None,
    })


@lru_cache(maxsize=1)
def _registry() -> TemplateRegistry:
    return TemplateRegistry()
