"""Real crawls (`scrapy crawl site`) against the fixture server's fault modes: every URL ends as
one item or one error record, walls and oversized bodies never become items, the SSRF guard
fetches nothing private, and every charset capture decodes with and without a header."""

import json
import shutil
import socket

import pytest
from scrapy import Request

from conftest import ROOT

from crawlforge.extract.charset import web_codec

FIXTURES = ROOT / "fixtures"
ARTICLE = "demo/articles/v8_dev_blog_standalone_wasm_code.html"
WALL = "botwall/cloudflare_just_a_moment_oswegony_org.html"
BOMB = "sizecap/gzip_bomb_synthetic.html.gz"
# A robots.txt for this test's server only (not a page): one private folder, a Crawl-delay.
ROBOTS = "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\n"
PLAIN = {"CRAWLFORGE_RENDER": "never"}  # the browser path is tested with the browser issue
FAULT_SETTINGS = {**PLAIN, "RETRY_TIMES": 1, "DOWNLOAD_TIMEOUT": 2, "DOWNLOAD_MAXSIZE": 100_000,
                  "DOWNLOAD_WARNSIZE": 0, "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": False,
                  "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32"}


def urls_file(tmp_path, urls):
    path = tmp_path / "urls.txt"
    path.write_text("\n".join(urls) + "\n")
    return path


def assert_ledger_adds_up(result, expected_urls):
    stats = result.stats
    assert stats["ledger/requested"] == len(expected_urls), result.log[-3000:]
    assert stats["ledger/requested"] == stats["ledger/items"] + stats["ledger/errors"]
    assert len(result.items) == stats["ledger/items"]
    assert len(result.errors) == stats["ledger/errors"]
    ended = {item["url"] for item in result.items} | {error["url"] for error in result.errors}
    assert ended == {Request(url).url for url in expected_urls}  # as Scrapy escapes them


@pytest.fixture
def fault_site(tmp_path, make_server):
    """A server over a small folder: a real article, a real wall, a private copy, a robots.txt."""
    root = tmp_path / "site"
    for rel in (ARTICLE, WALL, BOMB):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / rel, root / rel)
    (root / "private").mkdir()
    shutil.copyfile(FIXTURES / ARTICLE, root / "private" / "page.html")
    (root / "robots.txt").write_text(ROBOTS)
    return make_server(root)


def test_fault_modes_end_as_items_or_error_records(fault_site, crawl, tmp_path):
    url = fault_site.url
    urls = {
        "item": url(ARTICLE),
        "404": url("/missing.html"),
        "500": url(f"/_status/500/{ARTICLE}"),
        "timeout": url(f"/_slow/5/{ARTICLE}"),
        "reset": url(f"/_reset/{ARTICLE}"),
        "loop": url("/_loop/a"),
        "big": url("/_big/250000"),
        "big_chunked": url("/_big_chunked/300000"),
        "gzip_bomb": url(f"/_headers/Content-Encoding=gzip;Content-Type=text%2Fhtml/{BOMB}"),
        "wall": url(WALL),
        "robots": url("/private/page.html"),
    }
    result = crawl("site", args={"urls_file": urls_file(tmp_path, urls.values()), "follow": 0},
                   settings=FAULT_SETTINGS)
    assert result.returncode == 0
    assert_ledger_adds_up(result, urls.values())
    assert [item["url"] for item in result.items] == [urls["item"]]
    errors = {error["url"]: error for error in result.errors}
    reason = {name: errors[u]["reason"] for name, u in urls.items() if u in errors}
    assert reason == {
        "404": "http_error", "500": "http_error", "timeout": "timeout", "reset": "connection",
        "loop": "redirect_loop", "big": "too_large", "big_chunked": "too_large", "gzip_bomb": "too_large",
        "wall": "blocked",
        "robots": "robots_denied",
    }
    assert (errors[urls["404"]]["status"], errors[urls["500"]]["status"]) == (404, 500)
    assert (errors[urls["big"]]["limit"], errors[urls["big"]]["size"]) == (100_000, 250_000)
    assert errors[urls["big_chunked"]]["limit"] == 100_000
    assert errors[urls["big_chunked"]]["size"] > 100_000  # at least this many bytes
    assert errors[urls["gzip_bomb"]]["limit"] == 100_000 < errors[urls["gzip_bomb"]]["size"]
    assert errors[urls["wall"]]["vendor"] == "cloudflare"
    assert result.stats["verdict/blocked/cloudflare"] == 1
    assert result.stats["crawldelay/hosts"] == 1


def public_name_for_loopback():
    """A host name (not 'localhost') that resolves to a loopback address here, if any."""
    name = socket.gethostname()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        return None
    return name if address.startswith("127.") else None


def test_ssrf_guard_fetches_nothing_private(fixture_server, crawl, tmp_path):
    port = fixture_server.server_address[1]
    attacks = [f"http://{host}:{port}/{ARTICLE}" for host in (
        "127.0.0.1", "2130706433", "0x7f000001", "0177.0.0.1", "0x7f.1", "127.1", "[::1]",
        "[::ffff:127.0.0.1]", "localhost", "LOCALHOST.", "app.localhost")]
    attacks += ["http://169.254.169.254/latest/meta-data/", "http://[::ffff:a9fe:a9fe]/latest/",
                "http://2852039166/latest/", "http://10.0.0.1/", "http://192.168.0.1/",
                "http://[fd00:ec2::254]/", "http://metadata.google.internal/computeMetadata/v1/"]
    if name := public_name_for_loopback():
        attacks.append(f"http://{name}:{port}/{ARTICLE}")
    fixture_server.access_log.clear()
    result = crawl("site", args={"urls_file": urls_file(tmp_path, attacks), "follow": 0},
                   settings={**PLAIN, "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": False, "CRAWLFORGE_ALLOWED_NETWORKS": "",
                             "DOWNLOAD_TIMEOUT": 3})
    assert fixture_server.access_log == []
    assert result.items == []
    assert_ledger_adds_up(result, attacks)
    assert {error["reason"] for error in result.errors} == {"ssrf_refused"}
    assert result.stats["ssrf/refused"] == len(attacks)


def test_ssrf_guard_refuses_a_redirect_to_the_metadata_service(fixture_server, crawl, tmp_path):
    targets = ["http://169.254.169.254/latest/meta-data/iam/", "http://[::ffff:169.254.169.254]/",
               "http://0xa9fea9fe/", "http://10.1.2.3/"]
    urls = [fixture_server.url(f"/_redirect_to?url={target}") for target in targets]
    result = crawl("site", args={"urls_file": urls_file(tmp_path, urls), "follow": 0},
                   settings={**PLAIN, "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": False,
                             "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32", "DOWNLOAD_TIMEOUT": 3})
    assert_ledger_adds_up(result, urls)
    assert [error["reason"] for error in result.errors] == ["ssrf_refused"] * len(urls)
    assert all("is not a public address" in error["detail"] for error in result.errors)


CHARSET_LABELS = json.loads((FIXTURES / "charset" / "labels.json").read_text())
PHRASES = {
    "euc-jp_xmldecl_aivy_co_jp_feed.xml": "ゲーム三昧な正月",
    "gb2312_meta_baidu_cn_home_2010.html": "百度一下，你就知道",
    "iso-8859-1_meta_winfuture_de_news.html": "Gebühren",
    "koi8-r_xmldecl_newsru_com_feed.xml": "психически нездоровый мужчина",
    "shift_jis_meta_2ch_top.html": "２ちゃんねる掲示板へようこそ",
    "utf-16le_bom_meta_says_sjis_kcna_co_jp.html": "조선중앙통신",
    "windows-1250_meta_rp_pl_polityka.html": "Sejm zagłosował",
    "windows-1252_undeclared_webtv_net.html": "(3 ½ years)",
}


def test_charset_captures_decode_with_and_without_a_charset_header(fixture_server, crawl, tmp_path):
    cases = {}
    for name, label in ((n, CHARSET_LABELS[n]["encoding"]) for n in sorted(PHRASES)):
        cases[fixture_server.url(f"/_charset/{label}/charset/{name}")] = name
        cases[fixture_server.url(f"/_headers/Content-Type=text%2Fhtml/charset/{name}")] = name
    result = crawl("site", args={"urls_file": urls_file(tmp_path, cases), "follow": 0},
                   settings={**PLAIN, "CRAWLFORGE_EXPORT_HTML": True})
    assert_ledger_adds_up(result, cases)
    assert len(result.items) == len(cases), result.errors
    for item in result.items:
        name = cases[item["url"]]
        assert item["encoding"] == web_codec(CHARSET_LABELS[name]["encoding"]), item["url"]
        assert PHRASES[name] in item["html"], item["url"]
        assert item["encoding_source"] == expected_source(name, with_header="/_charset/" in item["url"])


def expected_source(name: str, with_header: bool) -> str:
    """BOM > header > a declaration in the first 1024 bytes > detection."""
    if "_bom_" in name:
        return "bom"
    if with_header:
        return "header"
    return "detected" if name.startswith(("windows-1250", "windows-1252")) else "meta"
