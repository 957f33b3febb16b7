"""shopify (placeholder)."""
from crawlforge.extract.extractors.base import Extractor


class ShopifyExtractor(Extractor):
    name = "shopify"
    priority = 75

    def extract(self, page):
        return None
