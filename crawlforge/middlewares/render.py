"""Rendering: which requests go through the browser (``CRAWLFORGE_RENDER``, ``-a render=``).

- ``never``: none, and the browser is not even loaded (``crawlforge.browser.addon``);
- ``auto`` (default): pages are fetched plainly; a response the verdict middleware marks as an
  empty JS shell (``meta["crawlforge_needs_browser"]``) is re-requested once through the browser.
  Challenge pages are retried through the browser by the verdict middleware itself
  (``CRAWLFORGE_BROWSER_RETRY_BLOCKED``, which the add-on turns on in ``auto``);
- ``always``: every page request; robots.txt, sitemaps and other files stay plain
  (``crawlforge.browser.policy.renderable``).
Every browser request waits for the load event, then for network idle (a page that never
goes idle is taken as it is when the time is up), or for ``CRAWLFORGE_RENDER_WAIT_FOR`` (a CSS
selector, ``-a wait_for=``), within ``CRAWLFORGE_RENDER_TIMEOUT``. Opt a request out with
``meta["crawlforge_render"] = False``. Stats: ``browser/requests``, ``browser/escalated``.
"""

from __future__ import annotations

from scrapy.exceptions import NotConfigured

from crawlforge.browser.policy import RENDER_KEY, WAIT_KEY, render_mode, renderable
from crawlforge.middlewares.verdict import NEEDS_BROWSER_KEY


class RenderMiddleware:
    """Downloader middleware choosing the browser path; placed just below the verdict's."""

    def __init__(self, crawler):
        settings = crawler.settings
        self.mode = render_mode(settings.get("CRAWLFORGE_RENDER"))
        if self.mode == "never":
            raise NotConfigured
        self.crawler = crawler
        self.wait_for = (settings.get("CRAWLFORGE_RENDER_WAIT_FOR") or "").strip()
        self.timeout_ms = settings.getfloat("CRAWLFORGE_RENDER_TIMEOUT") * 1000

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_request(self, request):
        meta = request.meta
        if self.mode == "always" and "playwright" not in meta and renderable(request.url, meta):
            meta["playwright"] = True
        if meta.get("playwright"):
            self.prepare(meta)

    def prepare(self, meta: dict) -> None:
        """The wait and the timeout of one page (a request's own values win)."""
        meta.setdefault("playwright_page_goto_kwargs", {"wait_until": "load", "timeout": self.timeout_ms})
        meta.setdefault(WAIT_KEY, {"selector": self.wait_for or None, "timeout_ms": self.timeout_ms})
        # routes (the resource blocking and the SSRF guard) do not see service-worker requests
        meta.setdefault("playwright_context_kwargs", {"service_workers": "block"})
        self.crawler.stats.inc_value("browser/requests")

    def process_response(self, request, response):
        meta = request.meta
        if (self.mode != "auto" or meta.get("playwright") or not meta.get(NEEDS_BROWSER_KEY)
                or meta.get(RENDER_KEY) is False):
            return response
        self.crawler.stats.inc_value("browser/escalated")
        retry = request.replace(dont_filter=True)
        retry.meta.pop(NEEDS_BROWSER_KEY)
        retry.meta["playwright"] = True
        return retry
