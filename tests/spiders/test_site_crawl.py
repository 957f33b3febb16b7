"""The whole path by a real crawl: `scrapy crawl site` against the local fixture server."""

from crawlforge.extract.frontmatter import parse_document

DEMO_PAGES = 11  # index.html + the 10 real pages it links to


def test_demo_site_crawl_exports_one_document_per_page(fixture_server, crawl):
    result = crawl("site", args={"url": fixture_server.url("/demo/"), "max_depth": 1})
    assert result.returncode == 0, result.log[-3000:]
    urls = [item["url"] for item in result.items]
    assert len(urls) == len(set(urls)) == DEMO_PAGES
    for item in result.items:
        assert item["markdown"].strip(), item["url"]
        assert "html" not in item
        frontmatter, markdown = parse_document(item["document"])
        assert frontmatter["url"] == item["url"]
        assert frontmatter["processed_at"] and frontmatter["content_length"] > 0
        assert frontmatter["meta"]["title"] == item["title"]
        assert markdown.strip() == item["markdown"].strip()


def test_max_pages_and_max_depth_bound_the_crawl(fixture_server, crawl):
    only_index = crawl("site", args={"url": fixture_server.url("/demo/"), "max_depth": 0})
    assert [item["url"] for item in only_index.items] == [fixture_server.url("/demo/")]
    three = crawl("site", args={"url": fixture_server.url("/demo/"), "max_pages": 3})
    assert len(three.items) == 3


def test_urls_file_and_documents_dir(fixture_server, crawl, tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_text("# two products\n" + fixture_server.url("/demo/products/ikea_gb_moeckelby_table_jsonld.html")
                    + "\n\n" + fixture_server.url("/demo/products/otto_de_kaercher_k3_microdata.html") + "\n")
    documents = tmp_path / "docs"
    result = crawl("site", args={"urls_file": urls, "documents_dir": documents, "follow": 0})
    assert len(result.items) == 2
    written = sorted(documents.glob("*.md"))
    assert len(written) == 2
    assert {parse_document(p.read_text(encoding="utf-8"))[0]["url"] for p in written} == \
        {item["url"] for item in result.items}


def test_broken_pages_never_stop_the_crawl(fixture_server, crawl, tmp_path):
    urls = [
        fixture_server.url("/structured/json-ld/malformed-block.html"),  # invalid JSON-LD, no body text
        fixture_server.url("/_status/200/"),  # empty body
        fixture_server.url("/_headers/Content-Type=text%2Fhtml/sitemaps/sitemap_sitemaps_org.xml.gz"),
        fixture_server.url("/demo/news/blog.python.org.html"),
    ]
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls))
    result = crawl("site", args={"urls_file": urls_file, "follow": 0})
    assert result.returncode == 0
    assert "Traceback" not in result.log, result.log[-3000:]
    # every URL ends exactly once: as an item or as an error record that says why
    ended = [item["url"] for item in result.items] + [error["url"] for error in result.errors]
    assert sorted(ended) == sorted(urls)
    assert fixture_server.url("/demo/news/blog.python.org.html") in [item["url"] for item in result.items]
    reasons = {error["url"]: error for error in result.errors}
    assert reasons[fixture_server.url("/_status/200/")]["stage"] == "validation"
    assert result.stats["structured_data/found/json-ld"] >= 1  # the valid block of the malformed page


def test_each_pages_extractors_run_once_with_more_pages_in_flight_than_any_cache_held(fixture_server, crawl):
    result = crawl("site", args={"url": fixture_server.url("/demo/"), "max_depth": 1},
                   settings={"CONCURRENT_ITEMS": 16})
    assert len(result.items) == DEMO_PAGES > 8
    assert result.stats["page/made/structured_data"] == DEMO_PAGES  # the markdown's product record reads it
    assert result.stats["page/made/page_signature"] == DEMO_PAGES
