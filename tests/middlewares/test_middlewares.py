"""The vetting middlewares, built with Scrapy's test helpers on real fixture bodies."""

import asyncio

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse
from scrapy.robotstxt import ProtegoRobotParser
from scrapy.utils.test import get_crawler

from conftest import CRAWLFORGE_DEFAULTS, ROOT, awaited
from crawlforge import signals
from crawlforge.middlewares.charset import CharsetMiddleware
from crawlforge.middlewares.robotstxt import CrawlDelayMiddleware
from crawlforge.middlewares.sizecap import SizeCapMiddleware
from crawlforge.middlewares.ssrf import GuardedResolver, SsrfGuardMiddleware, SsrfRefusedError
from crawlforge.middlewares.verdict import VerdictMiddleware

FIXTURES = ROOT / "fixtures"
WALLS = FIXTURES / "botwall"
CHARSET = FIXTURES / "charset"


def crawler_with(settings=None, spidercls=Spider):
    crawler = get_crawler(spidercls, settings_dict={**CRAWLFORGE_DEFAULTS, **(settings or {})})
    crawler.stats.open_spider()
    failures = []
    crawler.signals.connect(lambda **kw: failures.append(kw), signal=signals.url_failed, weak=False)
    crawler.failures = failures
    return crawler


def html_response(url, body, status=200, headers=None):
    request = Request(url)
    headers = {"Content-Type": "text/html", **(headers or {})}
    return request, HtmlResponse(url, status=status, body=body, headers=headers, request=request)


# -- charset ----------------------------------------------------------------------------------
def test_charset_corrects_a_wrong_utf8_header_and_records_the_source():
    crawler = crawler_with()
    middleware = CharsetMiddleware.from_crawler(crawler)
    body = (CHARSET / "shift_jis_meta_2ch_top.html").read_bytes()
    request, response = html_response("http://2ch.example/", body, headers={"Content-Type": "text/html; charset=utf-8"})
    assert "２ちゃんねる掲示板へようこそ" not in response.text
    fixed = middleware.process_response(request, response)
    assert "２ちゃんねる掲示板へようこそ" in fixed.text
    assert (request.meta["crawlforge_encoding"], request.meta["crawlforge_encoding_source"]) == ("cp932", "detected")
    assert crawler.stats.get_value("charset/corrected") == 1


def test_charset_keeps_scrapys_encoding_when_it_is_right():
    crawler = crawler_with()
    middleware = CharsetMiddleware.from_crawler(crawler)
    body = (CHARSET / "utf-16le_bom_meta_says_sjis_kcna_co_jp.html").read_bytes()
    request, response = html_response("http://kcna.example/", body)
    assert middleware.process_response(request, response) is response
    assert request.meta["crawlforge_encoding_source"] == "bom"
    assert "조선중앙통신" in response.text


# -- verdict ----------------------------------------------------------------------------------
def test_cloudflare_wall_is_dropped_and_reported_with_vendor():
    crawler = crawler_with()
    middleware = VerdictMiddleware.from_crawler(crawler)
    body = (WALLS / "cloudflare_just_a_moment_oswegony_org.html").read_bytes()
    request, response = html_response("http://oswegony.example/", body, status=503)
    with pytest.raises(IgnoreRequest):
        awaited(middleware.process_response(request, response))
    assert crawler.stats.get_value("verdict/blocked/cloudflare") == 1
    [failure] = crawler.failures
    assert (failure["stage"], failure["reason"], failure["vendor"], failure["status"]) == \
        ("verdict", "blocked", "cloudflare", 503)
    assert 'title "Just a moment..."' in failure["detail"]


def test_blocked_page_goes_to_the_browser_once_when_asked():
    crawler = crawler_with({"CRAWLFORGE_BROWSER_RETRY_BLOCKED": True})
    middleware = VerdictMiddleware.from_crawler(crawler)
    body = (WALLS / "sucuri_access_denied_garfield-county_com.html").read_bytes()
    request, response = html_response("http://g.example/", body)
    retry = awaited(middleware.process_response(request, response))
    assert isinstance(retry, Request) and retry.meta["playwright"] is True and retry.dont_filter
    rendered = HtmlResponse(retry.url, body=body, headers={"Content-Type": "text/html"}, request=retry)
    with pytest.raises(IgnoreRequest):
        awaited(middleware.process_response(retry, rendered))
    assert crawler.failures[0]["vendor"] == "sucuri"


def test_normal_page_passes_untouched():
    crawler = crawler_with()
    middleware = VerdictMiddleware.from_crawler(crawler)
    body = (FIXTURES / "botwall" / "normal" / "lwn_net_weekly_edition_2015-03-26_tables.html").read_bytes()
    request, response = html_response("http://lwn.example/", body)
    passed = awaited(middleware.process_response(request, response))
    assert (passed.url, passed.status, passed.body) == (response.url, response.status, response.body)
    assert passed.text is passed.page.html and passed.page.html == response.text  # its page, for the spider
    assert "crawlforge_needs_browser" not in request.meta and crawler.failures == []


def test_empty_shell_is_marked_for_the_browser_and_passes():
    crawler = crawler_with()
    middleware = VerdictMiddleware.from_crawler(crawler)
    request, response = html_response("http://app.example/", (WALLS / "upstream" / "empty-shell.html").read_bytes())
    assert awaited(middleware.process_response(request, response)).body == response.body
    assert request.meta["crawlforge_needs_browser"] is True


def test_error_titled_placeholder_with_200_is_dropped():
    crawler = crawler_with()
    middleware = VerdictMiddleware.from_crawler(crawler)
    request, response = html_response("http://shop.example/", (WALLS / "upstream" / "soft-error.html").read_bytes())
    with pytest.raises(IgnoreRequest):
        awaited(middleware.process_response(request, response))
    assert crawler.failures[0]["reason"] == "error_page"


def test_verdict_can_be_switched_off():
    with pytest.raises(NotConfigured):
        VerdictMiddleware.from_crawler(crawler_with({"CRAWLFORGE_VERDICT_ENABLED": False}))


# -- SSRF -------------------------------------------------------------------------------------
def fake_dns(table):
    async def resolve(host):
        return table[host]
    return resolve


def ssrf_guard(settings=None, dns=None):
    crawler = crawler_with(settings)
    return crawler, SsrfGuardMiddleware(crawler, resolve=fake_dns(dns or {}))


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8000/", "http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/",
    "http://127.1/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:a9fe:a9fe]/", "http://10.0.0.1/", "http://192.168.1.1/", "http://localhost:8080/",
    "http://metadata.google.internal/", "http://0.0.0.0/",
])
def test_guard_refuses_private_hosts_in_every_notation(url):
    crawler, guard = ssrf_guard()
    with pytest.raises(IgnoreRequest):
        asyncio.run(guard.process_request(Request(url)))
    assert crawler.failures[0]["reason"] == "ssrf_refused"
    assert crawler.stats.get_value("ssrf/refused") == 1


def test_guard_refuses_a_name_that_resolves_to_loopback():
    crawler, guard = ssrf_guard(dns={"innocent.example": ["127.0.0.1"]})
    with pytest.raises(IgnoreRequest, match=r"innocent.example \(127.0.0.1\) is not a public address"):
        asyncio.run(guard.process_request(Request("http://innocent.example/")))


def test_guard_lets_public_names_and_allowed_networks_through():
    crawler, guard = ssrf_guard({"CRAWLFORGE_ALLOWED_NETWORKS": ["127.0.0.1/32"]},
                                dns={"example.com": ["93.184.216.34"]})
    assert asyncio.run(guard.process_request(Request("http://example.com/"))) is None
    assert asyncio.run(guard.process_request(Request("http://127.0.0.1:8000/"))) is None
    with pytest.raises(IgnoreRequest):
        asyncio.run(guard.process_request(Request("http://127.0.0.2/")))
    assert asyncio.run(guard.process_request(Request("data:text/plain,hi"))) is None


def test_guard_is_off_when_private_networks_are_allowed():
    with pytest.raises(NotConfigured):
        SsrfGuardMiddleware.from_crawler(crawler_with({"CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": True}))


def test_guarded_resolver_refuses_private_answers_at_connect_time():
    resolver = GuardedResolver(reactor=None, cache_size=0, timeout=1, allowed=[])
    with pytest.raises(SsrfRefusedError):
        resolver._vet("10.1.2.3", "rebind.example")
    assert resolver._vet("93.184.216.34", "example.com") == "93.184.216.34"


# -- size cap ---------------------------------------------------------------------------------
def test_declared_oversize_is_reported_with_limit_and_size():
    crawler = crawler_with({"DOWNLOAD_MAXSIZE": 1000})
    cap = SizeCapMiddleware.from_crawler(crawler)
    request = Request("http://big.example/")
    cap.process_request(request)
    cap.headers_received(headers={}, body_length=5000, request=request)
    cap.process_exception(request, Exception("cancelled"))
    [failure] = crawler.failures
    assert (failure["reason"], failure["limit"], failure["size"]) == ("too_large", 1000, 5000)


def test_streamed_oversize_counts_bytes_received():
    crawler = crawler_with()
    cap = SizeCapMiddleware.from_crawler(crawler)
    request = Request("http://big.example/", meta={"download_maxsize": 100})
    cap.process_request(request)
    for _ in range(3):
        cap.bytes_received(data=b"x" * 60, request=request)
    cap.process_exception(request, Exception("cancelled"))
    assert (crawler.failures[0]["limit"], crawler.failures[0]["size"]) == (100, 120)
    assert "at least 120 bytes" in crawler.failures[0]["detail"]


def test_response_over_the_cap_from_any_handler_is_dropped():
    crawler = crawler_with({"DOWNLOAD_MAXSIZE": 100})
    cap = SizeCapMiddleware.from_crawler(crawler)
    request, response = html_response("http://big.example/", b"<p>" + b"x" * 200 + b"</p>")
    with pytest.raises(IgnoreRequest):
        cap.process_response(request, response)
    small_request, small = html_response("http://small.example/", b"<p>x</p>")
    assert cap.process_response(small_request, small) is small


# -- Crawl-delay ------------------------------------------------------------------------------
def parsed_robots(crawler, body):
    return ProtegoRobotParser.from_crawler(crawler, body)


def test_crawl_delay_from_robots_is_capped():
    crawler = crawler_with({"CRAWLFORGE_MAX_CRAWL_DELAY": 10, "USER_AGENT": "crawlforge"})
    middleware = CrawlDelayMiddleware.from_crawler(crawler)
    middleware.robots_parsed(parsed_robots(crawler, b"User-agent: *\nCrawl-delay: 3\n"), Request("http://a.example/x"))
    middleware.robots_parsed(parsed_robots(crawler, b"User-agent: *\nCrawl-delay: 600\n"), Request("http://b.example/"))
    assert middleware.least_delay(Request("http://a.example/page")) == 3
    assert middleware.least_delay(Request("http://b.example/page")) == 10
    assert crawler.stats.get_value("crawldelay/capped") == 1
    assert middleware.least_delay(Request("http://c.example/")) == 0


def test_template_and_request_delays_raise_the_least_delay():
    from crawlforge.spiders.templates import LeverPostingsSpider  # a template asking for 1 s

    crawler = crawler_with(spidercls=LeverPostingsSpider)
    middleware = CrawlDelayMiddleware.from_crawler(crawler)
    assert middleware.least_delay(Request("http://jobs.example/")) == 1
    request = Request("http://jobs.example/", meta={"crawlforge_crawl_delay": 2.5})
    assert middleware.least_delay(request) == 2.5


def test_guard_refuses_literal_hosts_as_soon_as_they_are_scheduled():
    crawler, guard = ssrf_guard()
    with pytest.raises(IgnoreRequest):
        guard.request_scheduled(Request("http://[::ffff:169.254.169.254]/latest/"))
    guard.request_scheduled(Request("http://example.com/"))  # names wait for DNS, at download
    assert [f["reason"] for f in crawler.failures] == ["ssrf_refused"]
