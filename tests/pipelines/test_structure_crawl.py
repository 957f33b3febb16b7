"""The structure pipeline in a real crawl: run twice against the fixture server with one
page's layout changed in between; only that page is reported as structurally changed."""

import json
import shutil

import pytest
from scrapy.utils.test import get_crawler

from conftest import ROOT, awaited
from crawlforge.extract.structure import structure_signature
from crawlforge.pipelines.signature import SignaturePipeline, content_hash, read_baseline

STRUCTURE = ROOT / "fixtures" / "structure"
PAGES = ["dw.com-elephants.html", "dw.com.colonial.html", "dw.com.uncork.html"]


def test_content_hash_prefers_markdown_over_html():
    assert content_hash("# A", "<p>x</p>") == content_hash("# A", "<p>other</p>")
    assert content_hash("", "<p>x</p>") != content_hash("", "<p>other</p>")


def test_baseline_reads_path_and_file_uri_and_skips_records_without_signature(tmp_path):
    feed = tmp_path / "items.jsonl"
    feed.write_text('{"url": "http://a/", "structure_signature": {"tags": ["html"], "depths": {"1": 1}}}\n'
                    '{"url": "http://b/"}\n\n', encoding="utf-8")
    assert list(read_baseline(str(feed))) == ["http://a/"]
    assert list(read_baseline(feed.as_uri())) == ["http://a/"]


def test_pipeline_without_baseline_still_signs_every_item():
    crawler = get_crawler(settings_dict={"CRAWLFORGE_BASELINE": ""})
    crawler.stats.open_spider()
    pipeline = SignaturePipeline.from_crawler(crawler)
    item = {"url": "http://a/", "html": "<html><body><p>a</p></body></html>", "markdown": "a"}
    awaited(pipeline.process_item(item))
    assert item["structure_signature"] == {"tags": ["body", "head", "html", "p"], "depths": {"1": 1, "2": 2, "3": 1}}
    assert item["content_hash"] == content_hash("a", "")
    assert "structure_similarity" not in item
    api_record = {"url": "http://api/", "html": None, "markdown": ""}
    awaited(pipeline.process_item(api_record))
    assert "structure_signature" not in api_record


def test_second_crawl_reports_only_the_redesigned_page(crawl, make_server, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    for name in PAGES:
        shutil.copyfile(STRUCTURE / name, site / name)
    server = make_server(site)
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join(server.url(name) for name in PAGES) + "\n", encoding="utf-8")
    args = {"urls_file": str(urls), "follow": "0"}

    first = crawl("site", args=args)
    assert len(first.items) == 3, first.log[-3000:]
    assert all(item["structure_signature"]["tags"] for item in first.items)
    assert "structure/compared" not in first.stats

    # the same URL now serves a page with another site's layout (a real nationnews.com page)
    shutil.copyfile(STRUCTURE / "nationnews.com-tridents.html", site / "dw.com.uncork.html")
    second = crawl("site", args=args, settings={"CRAWLFORGE_BASELINE": str(first.workdir / "items.jsonl")})
    by_url = {item["url"]: item for item in second.items}
    changed = server.url("dw.com.uncork.html")
    assert by_url[changed]["structure_similarity"] < 0.8
    assert by_url[changed]["content_changed"] is True
    for name in PAGES[:2]:
        assert by_url[server.url(name)]["structure_similarity"] == 1.0
        assert by_url[server.url(name)]["content_changed"] is False
    assert second.stats["structure/compared"] == 3
    assert second.stats["structure/changed"] == 1
    assert second.stats["structure/content_changed"] == 1
    assert second.stats["structure/missing"] == 0
    assert "Structure changed: " + changed in second.log


def test_alert_threshold_is_a_setting(tmp_path):
    # same site, another article: 0.862 similar, a change only under a stricter threshold
    feed = tmp_path / "baseline.jsonl"
    html = (STRUCTURE / "dw.com.colonial.html").read_bytes().decode("utf-8")
    feed.write_text(json.dumps({"url": "http://a/", "structure_signature": structure_signature(html)}) + "\n")
    crawler = get_crawler(settings_dict={"CRAWLFORGE_BASELINE": str(feed), "CRAWLFORGE_STRUCTURE_ALERT": 0.9})
    crawler.stats.open_spider()
    item = {"url": "http://a/", "html": (STRUCTURE / "dw.com.uncork.html").read_bytes().decode("utf-8"),
            "markdown": "x"}
    pipeline = SignaturePipeline.from_crawler(crawler)
    awaited(pipeline.process_item(item))
    pipeline.close_spider()
    assert item["structure_similarity"] == pytest.approx(0.862, abs=0.001)
    assert item["content_changed"] is None  # the baseline record has no content hash
    assert crawler.stats.get_value("structure/changed") == 1
    assert crawler.stats.get_value("structure/missing") == 0
