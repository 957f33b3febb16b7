"""Hostile sites, plain HTTP: every URL of the fault matrix ends with the reason that says what
happened (issue 22, points 4-6), files a spider reads are not pages, and a callback that
raises ends its URL with the exception (issue 20). Real crawls against the fixture server."""

import subprocess
import sys

from conftest import FIXTURES, ROOT, TEST_CRAWL_SETTINGS, read_jsonl
from crawlforge.extract.charset import choose_charset
from crawlforge.middlewares.charset import binary_kind

ARTICLE = "demo/articles/v8_dev_blog_standalone_wasm_code.html"
FAST = {"RETRY_TIMES": 1, "DOWNLOAD_TIMEOUT": 5, "DOWNLOAD_MAXSIZE": 100_000, "DOWNLOAD_WARNSIZE": 0,
        "CRAWLFORGE_RETRY_BACKOFF_BASE": 0.1}


def test_fault_matrix_ends_each_url_with_what_happened(fixture_server, crawl, tmp_path):
    url = fixture_server.url
    urls = {
        "item": url(ARTICLE),
        "redirect_30": url(f"/_redirect/30/{ARTICLE}"),
        "not_modified": url("/_status/304/"),
        "junk": url("/_junk/60000"),
        "no_length": url("/_big_chunked/5000"),
    }
    listing = tmp_path / "urls.txt"
    listing.write_text("\n".join(urls.values()) + "\n")
    result = crawl("site", args={"urls_file": listing, "follow": 0}, settings=FAST)
    reasons = {e["url"]: e["reason"] for e in result.errors}
    assert {name: reasons.get(u, "item") for name, u in urls.items()} == {
        "item": "item", "redirect_30": "redirect_limit", "not_modified": "not_modified",
        "junk": "not_html", "no_length": "item"}, result.log[-3000:]
    assert sorted(i["url"] for i in result.items) == sorted([urls["item"], urls["no_length"]])
    assert result.stats["ledger/requested"] == 5 == result.stats["ledger/items"] + result.stats["ledger/errors"]
    assert "TypeError" not in result.log and "ERROR" not in result.log  # sizecap on UNKNOWN_LENGTH
    junk = next(e for e in result.errors if e["reason"] == "not_html")
    assert "binary data" in junk["detail"] and "text/html" in junk["detail"]
    hops = [e for e in result.errors if e["reason"] == "redirect_limit"][0]
    assert hops["status"] == 302 and hops["url"] == urls["redirect_30"]


def test_binary_sniffing_passes_every_real_html_capture():
    pages = [p for p in FIXTURES.rglob("*") if p.suffix in (".html", ".htm") and p.is_file()]
    assert len(pages) > 100
    assert [p for p in pages if binary_kind(p.read_bytes(), choose_charset(p.read_bytes(), "text/html")[0])] == []
    assert binary_kind(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "utf-8") == "PDF"
    assert binary_kind("<p>héllo</p>".encode("utf-16"), "utf-16") is None


def test_sitemap_and_robots_files_are_not_error_records(fixture_server, crawl):
    result = crawl("sitemap", args={"url": fixture_server.url("/_sitemap/20/10/index.xml")})
    assert len(result.items) == 20
    assert result.errors == []  # the index and its two children were read, not pages
    assert result.stats["ledger/requested"] == 20 == result.stats["ledger/items"]
    site = crawl("site", args={"url": fixture_server.url(ARTICLE), "sitemap": "only"})
    # fixtures/ has no sitemap: robots.txt (read whatever its status) and sitemap.xml answer 404
    assert [(e["url"], e["reason"], e["status"]) for e in site.errors] == [
        (fixture_server.url("/sitemap.xml"), "http_error", 404)] and site.items == []


def test_sitemap_index_chain_stops_at_the_depth_limit(fixture_server, crawl):
    fixture_server.access_log.clear()
    result = crawl("sitemap", args={"url": fixture_server.url("/_sitemap_chain/300/0.xml")},
                   settings={"CRAWLFORGE_SITEMAP_MAX_DEPTH": 5})
    fetched = [e["path"] for e in fixture_server.access_log if e["path"].startswith("/_sitemap_chain/")]
    assert len(fetched) == 6  # the first sitemap and 5 levels below it
    assert result.stats["sitemap/depth_limited"] == 1
    assert result.items == [] and result.errors == []


def linked_page(title: str, links: list[str]) -> str:
    anchors = "".join(f'<p><a href="{link}">{link}</a></p>' for link in links)
    return (f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
            f"<p>{title} is a page of a test site whose other server fails its robots.txt.</p>"
            f"{anchors}</main></body></html>")


def test_robots_server_error_disallows_the_site_until_asked_again(tmp_path, make_server, crawl):
    a_root, b_root = tmp_path / "a", tmp_path / "b"
    a_root.mkdir(), b_root.mkdir()
    b = make_server(b_root)
    (b_root / "robots.txt").write_text("User-agent: *\nAllow: /\n")
    for name in ("early", "late"):
        (b_root / f"{name}.html").write_text(linked_page(f"B {name}", []))
    b.failing["/robots.txt"] = (500, 2)  # RETRY_TIMES=1: the first fetch and its retry fail
    a = make_server(a_root)
    (a_root / "index.html").write_text(linked_page("A", [b.url("early.html"), "/_slow/3/next.html"]))
    (a_root / "next.html").write_text(linked_page("A next", [b.url("late.html")]))
    result = crawl("site", args={"url": a.url("index.html")},
                   settings={**FAST, "CRAWLFORGE_ROBOTS_RETRY_AFTER": 1.5})
    reasons = {e["url"]: e["reason"] for e in result.errors}
    assert reasons == {b.url("early.html"): "robots_unavailable"}, result.log[-3000:]
    assert "RFC 9309" in result.errors[0]["detail"] and result.errors[0]["status"] == 500
    assert {i["url"] for i in result.items} == {a.url("index.html"), a.url("_slow/3/next.html"), b.url("late.html")}
    b_paths = [e["path"] for e in b.access_log]
    assert b_paths.count("/robots.txt") == 3 and "/early.html" not in b_paths  # asked again later


def test_robots_txt_that_hangs_disallows_its_site(tmp_path, make_server, crawl):
    """RFC 9309 2.3.1.4: an unreachable robots.txt is read as a server error, complete disallow."""
    a_root, b_root = tmp_path / "a", tmp_path / "b"
    a_root.mkdir(), b_root.mkdir()
    a, b = make_server(a_root), make_server(b_root)
    (a_root / "index.html").write_text(linked_page("A", []))
    (b_root / "robots.txt").write_text("User-agent: *\nAllow: /\n")
    (b_root / "page.html").write_text(linked_page("B page", []))
    b.hanging["/robots.txt"] = 3  # past DOWNLOAD_TIMEOUT, on the first fetch and its retry
    listing = tmp_path / "urls.txt"
    listing.write_text(f"{a.url('index.html')}\n{b.url('page.html')}\n")
    result = crawl("site", args={"urls_file": listing, "follow": 0}, settings={**FAST, "DOWNLOAD_TIMEOUT": 1})
    assert [i["url"] for i in result.items] == [a.url("index.html")], result.log[-3000:]
    assert [(e["url"], e["reason"]) for e in result.errors] == [(b.url("page.html"), "robots_unavailable")]
    assert "RFC 9309" in result.errors[0]["detail"] and "robots.txt" in result.errors[0]["detail"]
    assert "/page.html" not in [e["path"] for e in b.access_log]


SPIDER = '''
import scrapy
from crawlforge.spiders.base import CrawlforgeSpider


class Raising(CrawlforgeSpider):
    name = "raising"

    async def start(self):
        for url in self.start_urls:
            yield scrapy.Request(url)

    def parse(self, response):
        if "crash" in response.url:
            yield {"url": response.url, "half": 1 / 0}
        yield self.page_or_failure(response)
'''


def test_a_callback_that_raises_ends_its_url_as_spider_error(fixture_server, tmp_path):
    spider = tmp_path / "raising.py"
    spider.write_text(SPIDER)
    listing = tmp_path / "urls.txt"
    listing.write_text(f"{fixture_server.url(ARTICLE)}\n{fixture_server.url(ARTICLE + '?crash=1')}\n")
    command = [sys.executable, "-m", "scrapy", "runspider", str(spider), "-a", f"urls_file={listing}",
               "-O", str(tmp_path / "out.jsonl")]
    for name, value in TEST_CRAWL_SETTINGS.items():
        command += ["-s", f"{name}={value}"]
    subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    errors = read_jsonl(tmp_path / "out.errors.jsonl")  # named after the items feed
    assert [(e["reason"], e["stage"]) for e in errors] == [("spider_error", "spider")]
    assert errors[0]["detail"] == "ZeroDivisionError: division by zero"
    assert errors[0]["url"] == fixture_server.url(ARTICLE + "?crash=1")
    assert [i["url"] for i in read_jsonl(tmp_path / "out.jsonl")] == [fixture_server.url(ARTICLE)]
