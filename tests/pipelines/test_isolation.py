"""Optional enrichment steps never cost the page (crawlforge.pipelines.isolation), and what
extractors notice reaches the item and the log."""

import json

ARTICLE = "/demo/news/blog.python.org.html"


def test_a_failing_optional_step_keeps_the_page_with_the_error_on_it(fixture_server, crawl, tmp_path):
    url = fixture_server.url(ARTICLE)
    baseline = tmp_path / "synthetic-corrupt-baseline.jsonl"  # a hand-edited feed: the signature is a string
    baseline.write_text(json.dumps({"url": url, "structure_signature": "not a signature"}) + "\n")
    result = crawl("site", args={"url": url, "follow": 0}, settings={"CRAWLFORGE_BASELINE": str(baseline)})
    assert result.returncode == 0, result.log[-3000:]
    [item] = result.items
    assert item["markdown"] and item["document"]  # the page is whole but for the step that failed
    assert item["enrichment_errors"] == [
        {"step": "structure", "message": "AttributeError: 'str' object has no attribute 'get'"}]
    assert result.stats["enrichment/errors/structure"] == 1
    assert "structure step failed on " + url in result.log
    assert not result.errors


def test_extractor_warnings_reach_the_item_and_one_log_line_per_page(fixture_server, crawl):
    url = fixture_server.url("/demo/apps/nuxt3_nuxt_data_omr_com.html")
    result = crawl("site", args={"url": url, "follow": 0})
    lines = [line for line in result.log.splitlines() if "Extraction warnings on " in line]
    assert len(lines) == 1, result.log[-3000:]
    message = "__NUXT__ is present but assigned an empty object"
    assert f"embedded_state: {message}" in lines[0]
    [item] = result.items
    assert [w["extractor"] for w in item["extraction_warnings"]] == ["embedded_state"]
    assert item["extraction_warnings"][0]["message"].startswith(message)
    assert result.stats["extraction/warnings"] == 1
