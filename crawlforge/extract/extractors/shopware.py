"""Shopware 5 product pages: the order number (Shopware's SKU) of the buy box, the
article id and the category, from the storefront's own markup."""

from __future__ import annotations

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page

_DETAIL_PAGE = "is--ctl-detail"  # body class of Shopware 5's product controller


class ShopwareExtractor(Extractor):
    name = "shopware"
    priority = 75

    def extract(self, page: Page) -> Finding | None:
        if _DETAIL_PAGE not in page.body_classes or page.tree is None:
            return None
        details = page.tree.find('.//*[@data-main-ordernumber]')
        buy_box = page.tree.find('.//form[@name="sAddToBasket"]//input[@name="sAdd"]')
        product_id = page.tree.find('.//meta[@itemprop="productID"]')
        platform = values.compact({
            "ordernumber": values.text(details.get("data-main-ordernumber") if details is not None else None)
            or values.text(buy_box.get("value") if buy_box is not None else None),
            "product_id": values.text(product_id.get("content")) if product_id is not None else None,
            "category_id": values.text(details.get("data-category-id")) if details is not None else None,
        })
        if not platform:
            return None
        return Finding(
            structured_data=values.compact({"sku": platform.get("ordernumber")}),
            platform_data={"shopware": platform},
        )
