"""shopware (placeholder)."""
from crawlforge.extract.extractors.base import Extractor


class ShopwareExtractor(Extractor):
    name = "shopware"
    priority = 75

    def extract(self, page):
        return None
