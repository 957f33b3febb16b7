"""Magento 2 product pages: the add-to-cart form's product id and that product's own price
box (``data-role="priceBox"``), whose ``finalPrice`` is the selling price and ``oldPrice`` the
list price. The box's ``data-price-amount`` is unrounded (tax applied, 71.910401); the amount
and currency are the ones it shows ("71,91 €"), read with price-parser. Price boxes of related
products carry other ids and are not read."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from price_parser import Price

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.extract.extractors.visible import currency_code

_PRODUCT_PAGE = "catalog-product-view"  # body class of Magento's product controller
_FORM_PRODUCT = './/form[@id="product_addtocart_form"]//input[@name="product"]'


class MagentoExtractor(Extractor):
    name = "magento"
    priority = 75

    def extract(self, page: Page) -> Finding | None:
        if _PRODUCT_PAGE not in page.body_classes or page.tree is None:
            return None
        form_product = page.tree.find(_FORM_PRODUCT)
        product_id = values.text(form_product.get("value")) if form_product is not None else None
        if not product_id:
            return None
        box = next((b for b in page.tree.iterfind('.//*[@data-role="priceBox"]')
                    if b.get("data-product-id") == product_id), None)
        final, old = (_amount(box, kind, page.url) if box is not None else {} for kind in ("finalPrice", "oldPrice"))
        price, listed = final.get("price"), old.get("price")
        platform = values.compact({"product_id": product_id, "price": price, "list_price": listed,
                                   "currency": final.get("currency")})
        return Finding(
            structured_data=values.compact({"price": price, "currency": final.get("currency"),
                                            "list_price": listed if price and listed != price else None}),
            platform_data={"magento": platform},
        )


def _amount(box, kind: str, url: str) -> dict:
    """The price of one ``data-price-type`` in ``box``: as shown, else the data amount to cents."""
    span = box.find(f'.//*[@data-price-type="{kind}"]')
    if span is None:
        return {}
    shown = Price.fromstring(" ".join(span.text_content().split()))
    if shown.amount is not None and shown.amount > 0:
        return {"price": format(shown.amount, "f"), "currency": currency_code(shown.currency, url)}
    try:
        amount = Decimal(span.get("data-price-amount") or "")
    except InvalidOperation:
        return {}
    return {"price": str(amount.quantize(Decimal("0.01"), ROUND_HALF_UP))} if amount.is_finite() and amount > 0 else {}
