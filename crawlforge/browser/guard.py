"""What a rendered page may load, enforced in the browser: the ``PagePolicy`` of a crawl applied
to every request, WebSocket and redirect hop a page makes.

Playwright routes the requests of a page (``should_abort``, scrapy-playwright's abort hook),
and a context route catches pages without one. It routes only the first URL of a redirect
chain, so the hops are stopped before they leave by ``crawlforge.browser.proxy`` (the only
way out of the browser); Chromium's own network events are watched too, so a navigation hop
to a refused address ends the render at once, as an ``ssrf_refused`` error naming the hop
(``PageGuard.refusals``), and closes the page. So does a navigation of the page's main frame
that the guard aborts (a script's ``location = ...``, or the first URL itself once Chromium
has decoded its host): Chromium would show its error page (``chrome-error://``) in its place.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from functools import partial

from crawlforge.browser.policy import PagePolicy
from crawlforge.extract.netguard import guard_settings

logger = logging.getLogger(__name__)
NO_POPUPS = "window.open = () => null;"  # a crawl reads the page it asked for, nothing it opens


def page_policy(settings) -> PagePolicy:
    allowed = guard_settings(settings)
    return PagePolicy(
        block_types=frozenset(settings.getlist("CRAWLFORGE_BROWSER_BLOCK_RESOURCES")),
        block_hosts=tuple(h.strip().lower() for h in settings.getlist("CRAWLFORGE_BROWSER_BLOCK_HOSTS")),
        allowed=None if allowed is None else tuple(allowed),
    )


class PageGuard:
    """One crawl's policy in the browser; counts ``browser/aborted/<reason>``."""

    def __init__(self, policy: PagePolicy, stats):
        self.policy = policy
        self.stats = stats
        self.lookups: dict[str, str | None] = {}  # host -> refusal (None: public)
        # request -> future of a render in flight, given why when a hop of its page is refused
        self.refusals: dict = {}
        self.pages: dict = {}  # page -> the request it renders, while it is open

    async def guard_context(self, context) -> None:
        """No ``window.open``; WebSockets; requests of pages without a page route."""
        await context.add_init_script(NO_POPUPS)
        await context.route("**", self.route_unrouted)
        await context.route_web_socket("**", self.route_websocket)

    async def guard_page(self, page, request) -> None:
        """Redirect hops, seen in Chromium's own network events, and the page's navigations
        (SSRF guard on only)."""
        if self.policy.allowed is None:
            return
        self.pages[page] = request
        page.once("close", lambda closed: self.pages.pop(closed, None))
        session = await page.context.new_cdp_session(page)
        session.on("Network.requestWillBeSent", partial(self.vet_redirect, page, request))
        await session.send("Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0})

    async def should_abort(self, playwright_request) -> bool:
        """scrapy-playwright's PLAYWRIGHT_ABORT_REQUEST hook."""
        navigation = playwright_request.is_navigation_request()
        reason = await self.abort_reason(playwright_request.url, playwright_request.resource_type, navigation)
        if reason == "ssrf" and navigation and playwright_request.frame.parent_frame is None:
            self.refuse(self.pages.get(playwright_request.frame.page),
                        f"Refused {playwright_request.url}: the page navigated to a private address")
        return reason is not None

    def refuse(self, request, why: str) -> None:
        """End the render of ``request``, if one is in flight, as refused."""
        if (refusal := self.refusals.get(request)) is not None and not refusal.done():
            refusal.set_result(why)

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
        """Why ``host`` is refused once resolved (cached per crawl); None when public or unknown.
        Chromium resolves the name again itself: a rebinding DNS server can still win that race."""
        if host not in self.lookups:
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
            except OSError:
                return None  # the browser fails to resolve it too
            self.lookups[host] = self.policy.refused(host, sorted({info[4][0] for info in infos}))
        return self.lookups[host]

    async def route_unrouted(self, route, playwright_request) -> None:
        if await self.should_abort(playwright_request):
            await route.abort()
        else:
            await route.continue_()

    async def route_websocket(self, route) -> None:
        if await self.abort_reason(route.url, "websocket", False):
            await route.close(code=1008, reason="refused by crawlforge")
        else:
            route.connect_to_server()

    async def vet_redirect(self, page, request, event: dict) -> None:
        """A redirect hop to a refused address: close the page before its content is read."""
        if "redirectResponse" not in event:
            return
        url, kind = event["request"]["url"], event.get("type", "other").lower()
        if await self.abort_reason(url, kind, True) == "ssrf":
            # said first, ending the render wherever it is: closing the page alone may not end it
            # (a cold browser can answer the hop before the close, or the close can be slow)
            self.refuse(request, f"Refused {url}: a redirect to a private address")
            if not page.is_closed():
                await page.close()
