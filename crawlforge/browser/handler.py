"""The browser download handler: scrapy-playwright's, started late, bounded and guarded.

- Playwright and Chromium start on the first request that needs the browser: a crawl that
  renders nothing starts nothing.
- Every request a rendered page makes passes ``PagePolicy``: image/media/font requests and
  ad/tracker hosts are aborted, and (SSRF guard on) hosts that are or resolve to private
  addresses, WebSockets included. Playwright routes only the first URL of a redirect chain, so a
  hop to a refused address is caught as it starts and ends the render (no item, no content).
- After ``CRAWLFORGE_BROWSER_RESTART_PAGES`` pages the browser is closed (contexts first) once
  the pages in flight are done, and relaunched by the next page; after a crash likewise.
Stats: ``browser/pages``, ``browser/aborted/<reason>``, ``browser/idle_timeout``,
``browser/restarts``, ``browser/disconnected``, ``browser/page_crashes``.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from contextlib import suppress
from functools import partial

from playwright._impl._errors import TargetClosedError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from scrapy.exceptions import IgnoreRequest
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from crawlforge.browser.policy import WAIT_KEY, PagePolicy
from crawlforge.middlewares.ledger import report_failure
from crawlforge.middlewares.ssrf import guard_settings

logger = logging.getLogger(__name__)
REFUSED_KEY = "crawlforge_browser_refused"  # meta: why a render was ended by the SSRF guard


def page_policy(settings) -> PagePolicy:
    allowed = guard_settings(settings)
    return PagePolicy(
        block_types=frozenset(settings.getlist("CRAWLFORGE_BROWSER_BLOCK_RESOURCES")),
        block_hosts=tuple(h.strip().lower() for h in settings.getlist("CRAWLFORGE_BROWSER_BLOCK_HOSTS")),
        allowed=None if allowed is None else tuple(allowed),
    )


class BrowserDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """``DOWNLOAD_HANDLERS`` for http/https when rendering is on; plain requests pass through."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self.crawler = crawler
        self.policy = page_policy(crawler.settings)
        self.abort_request = self.should_abort
        self.restart_after = crawler.settings.getint("CRAWLFORGE_BROWSER_RESTART_PAGES")
        self.start_lock = asyncio.Lock()
        self.started = False
        self.open = asyncio.Event()  # cleared while the browser waits to be restarted
        self.open.set()
        self.in_flight = 0
        self.pages_since_launch = 0
        self.closing_browser = False
        self.lookups: dict[str, str | None] = {}  # host -> refusal (None: public)

    async def _maybe_launch_in_thread(self) -> None:
        """Not at engine start: on the first rendered request (``ensure_started``)."""

    async def ensure_started(self) -> None:
        async with self.start_lock:
            if not self.started:
                await self._launch()
                self.started = True

    async def _download_request(self, request, spider=None):
        await self.ensure_started()
        while not self.open.is_set():  # woken waiters re-check: the gate may have closed again
            await self.open.wait()
        self.count_page()
        self.in_flight += 1
        try:
            return await super()._download_request(request, spider)
        finally:
            self.in_flight -= 1
            if not self.open.is_set() and self.in_flight == 0:
                await self.restart()

    async def _download_request_with_retry(self, request, spider):
        try:
            return await super()._download_request_with_retry(request=request, spider=spider)
        except TargetClosedError:
            if reason := request.meta.get(REFUSED_KEY):  # closed by vet_redirect: no retry
                report_failure(self.crawler, request, "ssrf", "ssrf_refused", reason)
                raise IgnoreRequest(reason) from None
            raise

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

    async def _create_page(self, request, spider):
        page = await super()._create_page(request=request, spider=spider)
        page.on("crash", lambda: self.stats.inc_value("browser/page_crashes"))
        page.on("request", partial(self.vet_redirect, page, request))
        await page.route_web_socket("**", self.route_websocket)
        return page

    # -- what a page may load ------------------------------------------------------------------
    async def should_abort(self, playwright_request) -> bool:
        """PLAYWRIGHT_ABORT_REQUEST, with this crawl's policy."""
        reason = await self.abort_reason(playwright_request.url, playwright_request.resource_type,
                                         playwright_request.is_navigation_request())
        return reason is not None

    async def abort_reason(self, url: str, resource_type: str, navigation: bool) -> str | None:
        reason = self.policy.abort_reason(url, resource_type, navigation)
        if reason is None and (host := self.policy.needs_lookup(url)) and await self.refused_name(host):
            reason = "ssrf"
        if reason:
            self.stats.inc_value(f"browser/aborted/{reason}")
            if reason == "ssrf":
                logger.warning("Browser request to %s refused: not a public address", url)
        return reason

    async def refused_name(self, host: str) -> str | None:
        """Why ``host`` is refused once resolved (cached per crawl); None when public or unknown."""
        if host not in self.lookups:
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
            except OSError:
                return None  # the browser fails to resolve it too
            self.lookups[host] = self.policy.refused(host, sorted({info[4][0] for info in infos}))
        return self.lookups[host]

    async def route_websocket(self, route) -> None:
        if await self.abort_reason(route.url, "websocket", False):
            await route.close(code=1008, reason="refused by crawlforge")
        else:
            route.connect_to_server()

    async def vet_redirect(self, page, request, playwright_request) -> None:
        """A redirect hop to a refused address: close the page before its content is read."""
        if self.policy.allowed is None or playwright_request.redirected_from is None:
            return
        if await self.abort_reason(playwright_request.url, playwright_request.resource_type, True) == "ssrf":
            request.meta[REFUSED_KEY] = f"Refused {playwright_request.url}: a redirect to a private address"
            await page.close()
