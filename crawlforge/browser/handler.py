"""The browser download handler: scrapy-playwright's, started late, bounded and guarded.

- Playwright and Chromium start on the first request that needs the browser: a crawl that
  renders nothing starts nothing.
- Every request a rendered page makes passes the crawl's ``PageGuard`` (``guard``): blocked
  resource types, ad/tracker hosts, the SSRF guard, popups, redirect hops. With the SSRF guard
  on, Chromium reaches the network only through the ``VettingProxy`` (``proxy``), which vets
  every request, redirect hops included, before it leaves; a refused navigation ends as
  ``ssrf_refused`` with the refused URL. Any other failed navigation, which leaves Chromium's
  own error page (``chrome-error://``) in the page's place, ends as ``browser_error``.
- After ``CRAWLFORGE_BROWSER_RESTART_PAGES`` pages the browser is closed (contexts first) once
  the pages in flight are done, and relaunched by the next page; after a crash likewise.
Stats: ``browser/pages``, ``browser/aborted/<reason>``, ``browser/idle_timeout``,
``browser/restarts``, ``browser/disconnected``, ``browser/page_crashes``, ``browser/popups_closed``.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from playwright._impl._errors import TargetClosedError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from scrapy.exceptions import IgnoreRequest
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler
from twisted.internet.error import TimeoutError

from crawlforge.browser.guard import PageGuard, page_policy
from crawlforge.browser.policy import WAIT_KEY
from crawlforge.browser.proxy import REFUSED_HEADER, VettingProxy
from crawlforge.signals import report_failure

logger = logging.getLogger(__name__)
ERROR_PAGE = "chrome-error:"  # the URL of the page Chromium shows when a navigation fails


class BrowserDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """``DOWNLOAD_HANDLERS`` for http/https when rendering is on; plain requests pass through."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self.crawler = crawler
        self.guard = PageGuard(page_policy(crawler.settings), crawler.stats)
        self.proxy = VettingProxy(self.guard.policy, crawler.stats) if self.guard.policy.allowed is not None else None
        self.abort_request = self.guard.should_abort
        self.restart_after = crawler.settings.getint("CRAWLFORGE_BROWSER_RESTART_PAGES")
        self.start_lock = asyncio.Lock()
        self.started = False
        self.open = asyncio.Event()  # cleared while the browser waits to be restarted
        self.open.set()
        self.in_flight = 0
        self.pages_since_launch = 0
        self.closing_browser = False
        self.closed = False

    @classmethod
    def from_crawler(cls, crawler):
        """One handler, so one browser and one set of bounds, for both http and https."""
        handler = getattr(crawler, "crawlforge_browser_handler", None)
        if handler is None:
            handler = crawler.crawlforge_browser_handler = cls(crawler)
        return handler

    async def close(self) -> None:
        if not self.closed:  # once, though registered for two schemes
            self.closed = True
            await super().close()
            if self.proxy is not None:
                await self.proxy.close()

    async def _maybe_launch_in_thread(self) -> None:
        """Not at engine start: on the first rendered request (``ensure_started``)."""

    async def ensure_started(self) -> None:
        async with self.start_lock:
            if not self.started:
                if self.proxy is not None:  # every launch of the browser goes through it
                    self.config.launch_options["proxy"] = {"server": await self.proxy.start()}
                await self._launch()
                self.started = True

    async def _download_request(self, request, spider=None):
        await self.ensure_started()
        while not self.open.is_set():  # woken waiters re-check: the gate may have closed again
            await self.open.wait()
        self.count_page()
        self.in_flight += 1
        try:
            response = await self.render(request, spider)
        finally:
            self.in_flight -= 1
            if not self.open.is_set() and self.in_flight == 0:
                await self.restart()
        if refused := response.headers.get(REFUSED_HEADER):  # a redirect hop the proxy did not send
            reason = f"Refused {response.url}: {refused.decode('latin-1')}"
            report_failure(self.crawler, request, "ssrf", "ssrf_refused", reason)
            raise IgnoreRequest(reason)
        if response.url.startswith(ERROR_PAGE):  # a navigation of the page failed
            reason = f"Chromium showed its error page in place of {request.url}: a navigation of the page failed"
            report_failure(self.crawler, request, "download", "browser_error", reason)
            raise IgnoreRequest(reason)
        return response

    async def render(self, request, spider):
        """scrapy-playwright's render, ended at once when the guard refuses a hop of its page (an
        ``ssrf_refused`` error, no retry) or when it outlasts its deadline (e.g. stuck on the page
        of a browser that died under it: a timeout, as on the plain path)."""
        refusal = self.guard.refusals[request] = asyncio.get_running_loop().create_future()
        render = asyncio.ensure_future(super()._download_request(request, spider))
        try:
            await asyncio.wait((render, refusal), timeout=self.deadline(request), return_when=asyncio.FIRST_COMPLETED)
        finally:
            del self.guard.refusals[request]
            if refusal.done() or not render.done():  # refused, stuck, or the crawl itself cancelled
                render.cancel()
        await asyncio.wait((render,))  # unwound: its page closed, its listeners removed
        if refusal.done():
            if not render.cancelled():
                render.exception()  # what it raised once refused does not matter
            report_failure(self.crawler, request, "ssrf", "ssrf_refused", refusal.result())
            raise IgnoreRequest(refusal.result())
        if render.cancelled():
            raise TimeoutError(string=f"browser: no answer in {self.deadline(request):.0f} s")
        try:
            return render.result()
        except PlaywrightTimeoutError as exc:
            raise TimeoutError(string=f"browser: {exc.message.splitlines()[0]}") from exc

    async def _apply_page_methods(self, page, request, spider) -> None:
        """The wait of ``meta["crawlforge_wait"]``: for a selector the user named (a page without
        it fails), else for network idle as a best effort (polling pages never go idle)."""
        wait = request.meta.get(WAIT_KEY) or {}
        if wait.get("selector"):
            await page.wait_for_selector(wait["selector"], state="attached", timeout=wait.get("timeout_ms"))
        elif wait:
            try:
                await page.wait_for_load_state("networkidle", timeout=wait.get("timeout_ms"))
            except PlaywrightTimeoutError:
                self.stats.inc_value("browser/idle_timeout")
        await super()._apply_page_methods(page, request, spider)

    def deadline(self, request) -> float:
        """The whole render's limit: Scrapy's download timeout plus the render's own wait, so a
        request can never hang on a browser that is gone (Scrapy's timeout covers plain HTTP only)."""
        download_timeout = request.meta.get("download_timeout", self.crawler.settings.getfloat("DOWNLOAD_TIMEOUT"))
        return download_timeout + self.crawler.settings.getfloat("CRAWLFORGE_RENDER_TIMEOUT")

    def count_page(self) -> None:
        """Counted as a page starts, so a browser serves exactly ``restart_after`` pages."""
        self.stats.inc_value("browser/pages")
        self.pages_since_launch += 1
        if self.restart_after and self.pages_since_launch >= self.restart_after:
            self.open.clear()

    async def restart(self) -> None:
        """Close contexts, then the browser; the next page launches a fresh one."""
        self.closing_browser = True
        try:
            with suppress(TargetClosedError):
                await asyncio.gather(*(w.context.close() for w in list(self.context_wrappers.values())))
            self.context_wrappers.clear()
            if browser := getattr(self, "browser", None):
                del self.browser
                await browser.close()
            self.stats.inc_value("browser/restarts")
            logger.info("Browser restarted after %d pages", self.pages_since_launch)
        finally:
            self.pages_since_launch = 0
            self.closing_browser = False
            self.open.set()

    async def _close(self) -> None:
        self.closing_browser = True
        await super()._close()

    async def _browser_disconnected_callback(self) -> None:
        if self.closing_browser:
            return
        self.stats.inc_value("browser/disconnected")
        logger.warning("Chromium disconnected (crashed or killed); the next page relaunches it")
        self.pages_since_launch = 0
        for wrapper in self.context_wrappers.values():  # dead pages never release their slots:
            for _ in range(self.config.max_pages_per_context):  # wake the requests waiting for one
                wrapper.semaphore.release()
        await super()._browser_disconnected_callback()

    async def _create_browser_context(self, name, context_kwargs, spider=None):
        wrapper = await super()._create_browser_context(name=name, context_kwargs=context_kwargs, spider=spider)
        await self.guard.guard_context(wrapper.context)
        return wrapper

    async def _create_page(self, request, spider):
        page = await super()._create_page(request=request, spider=spider)
        page.on("crash", lambda: self.stats.inc_value("browser/page_crashes"))
        page.on("popup", self.close_popup)
        await self.guard.guard_page(page, request)
        return page

    async def close_popup(self, popup) -> None:
        """A popup opened despite ``NO_POPUPS`` (a link with a target) would run on, unread."""
        self.stats.inc_value("browser/popups_closed")
        await popup.close()
