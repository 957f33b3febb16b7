"""Without a browser: which requests are rendered, what a rendered page may load, how the
add-on sets a crawl up, and when the render middleware escalates."""

from __future__ import annotations

import sys

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from crawlforge.args import apply_arguments
from crawlforge.browser import addon as addon_module
from crawlforge.browser.addon import HANDLER, BrowserAddon
from crawlforge.browser.chromium import ChromiumNotFoundError, find_chromium
from crawlforge.browser.policy import PagePolicy, render_mode, renderable
from crawlforge.extract.netguard import parse_networks
from crawlforge.middlewares.render import RenderMiddleware
from crawlforge.middlewares.verdict import NEEDS_BROWSER_KEY

POLICY = PagePolicy(block_types=frozenset({"image", "media", "font"}), block_hosts=("doubleclick.net",),
                    allowed=tuple(parse_networks(["127.0.0.1/32"])))


def test_render_mode_accepts_the_three_modes_only():
    assert [render_mode(v) for v in ("never", " AUTO ", "always", None)] == ["never", "auto", "always", "auto"]
    with pytest.raises(ValueError, match="never, auto, always"):
        render_mode("sometimes")


def test_always_keeps_robots_sitemaps_and_files_plain():
    assert renderable("https://example.com/shop/item-1", {})
    assert renderable("https://example.com/index.html", {})
    assert not renderable("https://example.com/robots.txt", {})
    assert not renderable("https://example.com/sitemap-1.xml.gz", {})
    assert not renderable("https://example.com/feed.json", {})
    assert not renderable("https://example.com/page", {"crawlforge_render": False})


def test_images_fonts_media_and_trackers_are_aborted_but_not_the_page():
    assert POLICY.abort_reason("https://example.com/a.png", "image", False) == "resource/image"
    assert POLICY.abort_reason("https://example.com/f.woff2", "font", False) == "resource/font"
    assert POLICY.abort_reason("https://example.com/app.css", "stylesheet", False) is None
    assert POLICY.abort_reason("https://ad.doubleclick.net/x.js", "script", False) == "host"
    assert POLICY.abort_reason("https://notdoubleclick.net/x.js", "script", False) is None
    assert POLICY.abort_reason("https://ad.doubleclick.net/", "document", True) is None
    assert POLICY.abort_reason("data:image/png;base64,AAAA", "image", False) is None


def test_private_addresses_are_refused_unless_allowed():
    assert POLICY.abort_reason("http://169.254.169.254/latest/meta-data/", "fetch", False) == "ssrf"
    assert POLICY.abort_reason("http://0x7f.2:8080/", "document", True) == "ssrf"  # 127.0.0.2
    assert POLICY.abort_reason("http://localhost/", "xhr", False) == "ssrf"
    assert POLICY.abort_reason("http://127.0.0.1:8080/api", "fetch", False) is None  # allow-listed
    assert POLICY.abort_reason("ws://10.0.0.5/socket", "websocket", False) == "ssrf"
    guard_off = PagePolicy(allowed=None)
    assert guard_off.abort_reason("http://169.254.169.254/", "fetch", False) is None


def test_names_are_resolved_before_the_guard_passes_them():
    assert POLICY.needs_lookup("https://intranet.example/api") == "intranet.example"
    assert POLICY.needs_lookup("https://93.184.215.14/") is None
    assert PagePolicy(allowed=None).needs_lookup("https://intranet.example/") is None
    assert "not a public address (private)" in POLICY.refused("intranet.example", ["93.184.215.14", "10.1.2.3"])
    assert POLICY.refused("example.com", ["93.184.215.14"]) is None


def test_a_configured_chromium_that_is_missing_is_an_error():
    assert find_chromium(sys.executable) == sys.executable
    with pytest.raises(ChromiumNotFoundError, match="/nowhere/chromium"):
        find_chromium("/nowhere/chromium")


def addon_settings(spider_args: dict | None = None, **overrides) -> Settings:
    settings = Settings()
    settings.setmodule("crawlforge.settings", priority="project")
    settings.update(overrides, priority="cmdline")
    apply_arguments(spider_args or {}, settings)  # what the spider's from_crawler does, before the add-on
    BrowserAddon().update_settings(settings)
    return settings


def test_never_loads_no_browser_handler():
    settings = addon_settings({"render": "never"}, CRAWLFORGE_CHROMIUM_PATH=sys.executable)
    assert HANDLER not in settings.getdict("DOWNLOAD_HANDLERS").values()
    assert settings.get("CRAWLFORGE_RENDER") == "never"
    assert settings.getbool("CRAWLFORGE_BROWSER_RETRY_BLOCKED") is False


def test_auto_installs_the_handler_with_the_chromium_found():
    settings = addon_settings({"wait_for": "#app h1"}, CRAWLFORGE_CHROMIUM_PATH=sys.executable)
    assert settings.getdict("DOWNLOAD_HANDLERS") == {"http": HANDLER, "https": HANDLER}
    assert settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")["executable_path"] == sys.executable
    assert settings.get("CRAWLFORGE_RENDER_WAIT_FOR") == "#app h1"
    assert settings.getbool("CRAWLFORGE_BROWSER_RETRY_BLOCKED") is True  # walls get the browser too


def test_without_chromium_auto_falls_back_and_always_stops(monkeypatch):
    monkeypatch.setattr(addon_module, "find_chromium", lambda configured: None)
    settings = addon_settings({"render": "auto"})
    assert settings.get("CRAWLFORGE_RENDER") == "never"
    assert HANDLER not in settings.getdict("DOWNLOAD_HANDLERS").values()
    with pytest.raises(ChromiumNotFoundError, match="render=always"):
        addon_settings({"render": "always"})


def render_middleware(mode: str, **settings) -> RenderMiddleware:
    crawler = get_crawler(settings_dict={"CRAWLFORGE_RENDER": mode, **settings})
    crawler.stats.open_spider()
    return RenderMiddleware.from_crawler(crawler)


def test_auto_re_requests_a_js_shell_once_through_the_browser():
    middleware = render_middleware("auto")
    request = Request("https://example.com/app", meta={NEEDS_BROWSER_KEY: True})
    response = HtmlResponse(request.url, body=b"<div id=root></div><script src=a.js></script>", request=request)
    retry = middleware.process_response(request, response)
    assert isinstance(retry, Request) and retry.dont_filter
    assert retry.meta["playwright"] is True and NEEDS_BROWSER_KEY not in retry.meta
    retry.meta[NEEDS_BROWSER_KEY] = True  # still a shell once rendered: kept, not re-requested
    assert middleware.process_response(retry, response) is response
    plain = Request("https://example.com/article")
    assert middleware.process_response(plain, HtmlResponse(plain.url, body=b"<p>text</p>")).url == plain.url
    assert middleware.crawler.stats.get_value("browser/escalated") == 1


def test_always_renders_pages_with_the_wait_and_timeout():
    middleware = render_middleware("always", CRAWLFORGE_RENDER_WAIT_FOR="main", CRAWLFORGE_RENDER_TIMEOUT=5)
    page, robots = Request("https://example.com/page"), Request("https://example.com/robots.txt")
    middleware.process_request(page)
    middleware.process_request(robots)
    assert page.meta["playwright"] is True and "playwright" not in robots.meta
    assert page.meta["playwright_page_goto_kwargs"] == {"wait_until": "load", "timeout": 5000.0}
    assert page.meta["crawlforge_wait"] == {"selector": "main", "timeout_ms": 5000.0}


def test_never_switches_the_render_middleware_off():
    with pytest.raises(NotConfigured):
        render_middleware("never")
