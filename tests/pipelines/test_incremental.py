"""Incremental recrawls against a real server: conditional requests from Scrapy's HTTP cache
(RFC2616 policy: ETag / Last-Modified, 304), `-a since=FEED` marking `content_changed`,
`-a skip_unchanged=1` dropping unchanged pages, and deltafetch skipping pages already exported."""

import shutil

from conftest import FIXTURES

PAGES = ["news/anarc.at.cdpath.html", "news/blog.python.org.html", "products/otto_de_kaercher_k3_microdata.html"]


def copy_pages(root):
    for page in PAGES:
        (root / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / "demo" / page, root / page)


def test_recrawl_revalidates_marks_and_skips_unchanged_pages(make_server, crawl, tmp_path):
    root = tmp_path / "site"
    copy_pages(root)
    server = make_server(root)
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join(server.url(f"/_etag/{page}") for page in PAGES))
    args = {"urls_file": urls, "follow": 0}
    cache = {"HTTPCACHE_ENABLED": "True", "HTTPCACHE_DIR": str(tmp_path / "cache")}
    first = crawl("site", args=args, settings=cache)
    assert len(first.items) == 3
    since = first.workdir / "items.jsonl"

    # the site changes one page between the runs
    changed = root / PAGES[0]
    changed.write_bytes(changed.read_bytes().replace(b"CDPATH", b"CDPATH and friends"))
    server.access_log.clear()
    second = crawl("site", args={**args, "since": since}, settings=cache)
    by_page = {item["url"].split("/_etag/")[1]: item for item in second.items}
    assert {page: by_page[page]["content_changed"] for page in PAGES} == {
        PAGES[0]: True, PAGES[1]: False, PAGES[2]: False}
    conditional = [e for e in server.access_log if e["path"].startswith("/_etag/")]
    assert len(conditional) == 3 and all("If-None-Match" in e["headers"] for e in conditional)
    # two answered 304 and came from the cache, the changed one came again in full
    assert (second.stats["httpcache/revalidate"], second.stats["httpcache/invalidate"]) == (2, 1)

    third = crawl("site", args={**args, "since": first.workdir / "items.jsonl", "skip_unchanged": 1}, settings=cache)
    assert [item["url"] for item in third.items] == [server.url(f"/_etag/{PAGES[0]}")]
    assert third.stats["incremental/unchanged_skipped"] == 2


def test_deltafetch_skips_pages_exported_by_an_earlier_run(fixture_server, crawl, tmp_path):
    args = {"url": fixture_server.url("/demo/"), "max_depth": 1}
    settings = {"DELTAFETCH_ENABLED": "True", "DELTAFETCH_DIR": str(tmp_path / "deltafetch")}
    first = crawl("site", args=args, settings=settings)
    assert len(first.items) == 11 and first.stats["deltafetch/stored"] == 11
    second = crawl("site", args=args, settings=settings)
    assert [item["url"] for item in second.items] == [fixture_server.url("/demo/")]  # start URLs always
    assert second.stats["deltafetch/skipped"] == 10
