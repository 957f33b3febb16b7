"""Field fill rates in the crawl stats: ``fields/<template>/<field>/filled`` and ``/total`` for
template items, ``fields/<host>/<section.key>/...`` for generic pages (their structured data).

Setting: ``CRAWLFORGE_FILLRATE_ENABLED``. Counting rules: ``crawlforge.report.fillrate``.
"""

from __future__ import annotations

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawlforge.report.fillrate import FillRates


class FillRate:
    def __init__(self, crawler):
        self.crawler = crawler
        self.rates = FillRates()

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("CRAWLFORGE_FILLRATE_ENABLED"):
            raise NotConfigured
        extension = cls(crawler)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        return extension

    def item_scraped(self, item, response=None):
        group = self.rates.add(ItemAdapter(item))
        if group is not None:
            for key, value in self.rates.group_stats(group).items():
                self.crawler.stats.set_value(key, value)
