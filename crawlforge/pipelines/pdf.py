"""PDF items (``crawlforge.spiders.base.pdf_item``) get their markdown, ``page_type: pdf`` and
``pdf`` metadata from ``crawlforge.extract.pdf``, in a worker thread of their own.

Reading a PDF costs a tenth of a second a page and more: on the reactor thread a long one
would stop every download and timer of the crawl. One thread, so two PDFs are never parsed at
once; ``CRAWLFORGE_PDF_MAX_PAGES`` and ``CRAWLFORGE_PDF_TIME_LIMIT`` bound the work on one file
(the pages read by then are kept, and a warning says so). A PDF that gives no document ends as
an error record (``not_pdf``, ``pdf_encrypted``, ``pdf_error``) and its item is dropped.
Stats: ``pdf/documents``, ``pdf/pages``, ``pdf/failed/<reason>``.
"""

from __future__ import annotations

import logging

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from crawlforge import signals
from crawlforge.extract.pdf import PdfProblem, read_pdf
from crawlforge.pipelines.isolation import report_warnings


class PdfPipeline:
    def __init__(self, crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self.max_pages = crawler.settings.getint("CRAWLFORGE_PDF_MAX_PAGES")
        self.time_limit = crawler.settings.getfloat("CRAWLFORGE_PDF_TIME_LIMIT")
        self.pool: ThreadPool | None = None
        # pdfminer logs each object of a broken file it skips: a PDF's one outcome is its record
        logging.getLogger("pdfminer").setLevel(logging.ERROR)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def close_spider(self):
        if self.pool is not None:
            self.pool.stop()

    async def process_item(self, item):
        body = getattr(item, "_body", None)
        if body is None:
            return item  # an HTML page
        adapter = ItemAdapter(item)
        url = adapter.get("final_url") or adapter["url"]
        try:
            document = await self.in_thread(read_pdf, body, self.max_pages, self.time_limit)
        except PdfProblem as problem:
            self.stats.inc_value(f"pdf/failed/{problem.reason}")
            self.crawler.signals.send_catch_log(signals.url_failed, url=url, stage="pdf", reason=problem.reason,
                                                detail=problem.detail)
            raise DropItem(f"No document for {url}: {problem.detail}") from None
        adapter["markdown"] = document.markdown
        adapter["page_type"] = "pdf"
        adapter["pdf"] = document.metadata
        report_warnings(adapter, self.stats, [{"extractor": "pdf", "message": w} for w in document.warnings])
        self.stats.inc_value("pdf/documents")
        self.stats.inc_value("pdf/pages", document.pages_read)
        return item

    async def in_thread(self, function, *args):
        from twisted.internet import reactor  # noqa: PLC0415 - imported early it would install the default one

        if self.pool is None:
            self.pool = ThreadPool(1, 1, "crawlforge-pdf")
            self.pool.start()
        return await maybe_deferred_to_future(deferToThreadPool(reactor, self.pool, function, *args))
