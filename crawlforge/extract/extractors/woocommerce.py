"""woocommerce (placeholder)."""
from crawlforge.extract.extractors.base import Extractor


class WooCommerceExtractor(Extractor):
    name = "woocommerce"
    priority = 75

    def extract(self, page):
        return None
