"""``highlights``: the units of each page's markdown that answer the crawl's query, verbatim
with offsets (``-a query=...`` or ``CRAWLFORGE_QUERY``)."""

from __future__ import annotations

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from crawlforge.extract.units import rank_units, segment_units
from crawlforge.pipelines.isolation import optional_step


class HighlightsPipeline:
    def __init__(self, crawler):
        settings = crawler.settings
        self.query = (settings.get("CRAWLFORGE_QUERY") or "").strip()
        if not self.query:
            raise NotConfigured  # off without a query (-a query=... or CRAWLFORGE_QUERY); bare: no warning
        self.max_units = settings.getint("CRAWLFORGE_HIGHLIGHTS_MAX_UNITS")
        self.min_score = settings.getfloat("CRAWLFORGE_HIGHLIGHTS_MIN_SCORE")
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    @optional_step("highlights")
    def process_item(self, item):
        adapter = ItemAdapter(item)
        markdown = adapter.get("markdown")
        if not markdown:
            return item  # records from APIs (jobs, collection entries) carry no markdown
        units = segment_units(markdown)
        highlights = rank_units(units, self.query, self.max_units, min_score=self.min_score)
        adapter["highlights"] = highlights
        self.stats.inc_value("highlights/pages")
        self.stats.inc_value("highlights/units", len(highlights))
        if not highlights:
            self.stats.inc_value("highlights/no_match")
        return item
