"""Verdict: a bot wall or an error placeholder never becomes an item.

Every HTML response is read by ``crawlforge.extract.verdict.document_verdict``:
- a challenge/block page (any status) is counted in ``verdict/blocked/<vendor>``, reported to the
  ledger with vendor and evidence, and dropped; with ``CRAWLFORGE_BROWSER_RETRY_BLOCKED`` it is
  first retried once through the browser (``meta["playwright"]``);
- an empty document or an app shell is marked ``meta["crawlforge_needs_browser"] = True`` and
  passes on, for the browser path to render;
- an error-titled placeholder or app error message served with a 2xx status is dropped as
  ``error_page`` (``CRAWLFORGE_VERDICT_DROP_ERROR_PAGES``);
- an HTTP error status without a vendor is left to Scrapy's retry and HttpError handling.
Opt out per request with ``meta["crawlforge_skip_verdict"] = True``.
"""

from __future__ import annotations

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse

from crawlforge.extract.verdict import document_verdict, needs_browser, parsed_page_doc
from crawlforge.pagework import PageWork
from crawlforge.parsed import carrying_page
from crawlforge.signals import report_failure

NEEDS_BROWSER_KEY = "crawlforge_needs_browser"


def read_page(page, url: str, status: int, rendered: bool) -> tuple[dict, dict]:
    """The page as the verdict reads it (a long page's first paragraphs: no rule reads more), and
    the verdict."""
    doc = parsed_page_doc(page, url, status, whole_text=False)
    context = {"fetcher": "the browser" if rendered else "scrapy", "rendered": rendered}
    return doc, document_verdict(doc, context, page)


class VerdictMiddleware:
    """Downloader middleware applying the block-page verdict to HTML responses."""

    def __init__(self, crawler):
        settings = crawler.settings
        if not settings.getbool("CRAWLFORGE_VERDICT_ENABLED"):
            raise NotConfigured
        self.crawler = crawler
        self.drop_error_pages = settings.getbool("CRAWLFORGE_VERDICT_DROP_ERROR_PAGES")
        self.browser_retry = settings.getbool("CRAWLFORGE_BROWSER_RETRY_BLOCKED")
        self.work = PageWork.of(crawler)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    async def process_response(self, request, response):
        if not isinstance(response, HtmlResponse) or request.meta.get("crawlforge_skip_verdict"):
            return response
        rendered = bool(request.meta.get("playwright"))
        response = carrying_page(response)  # the page every later stage is given
        doc, verdict = await self.work.run(response.text, read_page, response.page, response.url,
                                           response.status, rendered)
        if blocked := verdict.get("blocked"):
            return self.blocked(request, response, blocked, verdict["error"], rendered)
        if needs_browser(doc, response.page) or (not doc["title"] and not doc["text"]):
            request.meta[NEEDS_BROWSER_KEY] = True
            self.crawler.stats.inc_value("verdict/needs_browser")
            return response
        if not verdict["success"] and response.status < 300 and self.drop_error_pages:
            self.drop(request, response, "error_page", verdict["error"])
        return response

    def blocked(self, request, response, blocked: dict, error: str, rendered: bool):
        self.crawler.stats.inc_value(f"verdict/blocked/{blocked['vendor']}")
        if self.browser_retry and not rendered:
            self.crawler.stats.inc_value("verdict/browser_retry")
            retry = request.replace(dont_filter=True)
            retry.meta["playwright"] = True
            return retry
        self.drop(request, response, "blocked", error, vendor=blocked["vendor"])
        return None

    def drop(self, request, response, reason: str, detail: str, **extra):
        self.crawler.stats.inc_value(f"verdict/dropped/{reason}")
        report_failure(self.crawler, request, "verdict", reason, detail, status=response.status, **extra)
        raise IgnoreRequest(detail)
