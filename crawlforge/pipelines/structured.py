"""Structured data from the raw HTML, before any cleaning strips the scripts it lives in."""

from __future__ import annotations

import logging

from itemadapter import ItemAdapter

from crawlforge.extract.embedded import embedded_state_of, is_not_json_script
from crawlforge.extract.structured import page_structured_data
from crawlforge.pagework import PageWork
from crawlforge.parsed import item_page
from crawlforge.pipelines.isolation import optional_step, report_warnings

logger = logging.getLogger(__name__)


class StructuredDataPipeline:
    def __init__(self, stats, extractors: list[str], work: PageWork):
        self.stats = stats
        self.extractors = extractors or None
        self.work = work
        self.not_json_logged = False  # a page's JSON script that is not JSON: logged once a crawl

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.stats, crawler.settings.getlist("CRAWLFORGE_STRUCTURED_EXTRACTORS"), PageWork.of(crawler))

    async def process_item(self, item):
        adapter = ItemAdapter(item)
        html, url = adapter.get("html"), adapter["url"]
        if not html:
            return item
        data = await self.work.run(html, page_structured_data, item_page(item, html), adapter.get("final_url") or url,
                                   extractors=self.extractors)
        for error in data.errors:
            logger.warning("Structured-data extractor %s failed on %s: %s",
                           error["extractor"], url, error["message"])
            self.stats.inc_value(f"structured_data/errors/{error['extractor']}")
        for source in data.sources_found:
            self.stats.inc_value(f"structured_data/found/{source}")
        adapter["structured_data"] = data.to_frontmatter()
        adapter["structured_data_provenance"] = data.provenance
        adapter["structured_data_conflicts"] = data.conflicts
        adapter["title"] = adapter["structured_data"].get("meta", {}).get("title")
        warnings = list(data.warnings)
        await self.embedded_state(item, warnings)
        report_warnings(adapter, self.stats, warnings)
        return item

    @optional_step("embedded_state")
    async def embedded_state(self, item, warnings: list[dict]):
        adapter = ItemAdapter(item)
        embedded = await self.work.run(adapter["html"], embedded_state_of, item_page(item, adapter["html"]))
        if embedded["found"]:
            adapter["embedded_state"] = embedded["data"]
            for entry in embedded["found"]:
                self.stats.inc_value(f"embedded_state/found/{entry['name']}")
        if not_json := sum(map(is_not_json_script, embedded["warnings"])):
            self.stats.inc_value("embedded_state/not_json_scripts", not_json)
            if not self.not_json_logged:
                self.not_json_logged = True
                logger.info("A JSON <script> block of %s is not JSON; skipped (further ones are counted "
                            "in embedded_state/not_json_scripts, not logged)", adapter["url"])
        warnings += ({"extractor": "embedded_state", "message": m} for m in embedded["warnings"]
                     if not is_not_json_script(m))
        return item
