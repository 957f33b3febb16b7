"""Records that say what happened (issue 39, points 7 and 8): a 204 is an HTTP answer without
content, a JSON block nested past the reader's bound says so, a start URL with a backslash is
read once, as Scrapy reads it; JSON script blocks wrapped in CDATA are read, and blocks that
are not JSON are counted and logged once a crawl. Real crawls against the fixture server."""

import json
import shutil

from conftest import FIXTURES

ZALANDO = FIXTURES / "structured/product/zalando_ie_versace_jeans_jsonld.html"


def test_a_204_ends_as_no_content_with_its_status(fixture_server, crawl):
    url = fixture_server.url("/_status/204/")
    result = crawl("site", args={"url": url, "follow": 0})
    assert result.items == []
    assert [(e["url"], e["stage"], e["reason"], e["status"]) for e in result.errors] == [
        (url, "http", "no_content", 204)], result.log[-3000:]


def json_script(script_id: str, body: str) -> str:
    return f'<script type="application/json" id="{script_id}">{body}</script>'


def page(title: str, scripts: str) -> str:
    return (f"<html><head><title>{title}</title>{scripts}</head><body><main><h1>{title}</h1>"
            f"<p>{title} is a page whose JSON script blocks the crawl reads for its embedded state.</p>"
            "</main></body></html>")


def test_cdata_wrapped_json_scripts_are_read_and_not_json_is_counted_once(make_server, crawl, tmp_path):
    shutil.copy(ZALANDO, tmp_path / "zalando.html")  # seven application/json blocks in CDATA, one empty
    (tmp_path / "synthetic-not-json-1.html").write_text(page("One", json_script("a", "{oops")))
    (tmp_path / "synthetic-not-json-2.html").write_text(
        page("Two", json_script("b", "not json") + json_script("c", "\n<![CDATA[ {\"wrapped\": true} ]]>\n")))
    server = make_server(tmp_path)
    urls = tmp_path / "urls.txt"
    urls.write_text("".join(server.url(name) + "\n" for name in
                            ("zalando.html", "synthetic-not-json-1.html", "synthetic-not-json-2.html")))
    result = crawl("site", args={"urls_file": urls, "follow": 0})
    items = {item["url"].rsplit("/", 1)[1]: item for item in result.items}
    scripts = {block["id"]: block["data"] for block in items["zalando.html"]["embedded_state"]["json_scripts"]}
    assert len(scripts) == 7, result.log[-3000:]
    assert "priceInfo" in scripts["z-vegas-pdp-props"]["model"]
    assert items["synthetic-not-json-2.html"]["embedded_state"]["json_scripts"] == [{"id": "c", "data": {"wrapped": True}}]
    assert result.stats["embedded_state/not_json_scripts"] == 3  # zalando's empty one, "{oops", "not json"
    assert "not valid JSON" not in result.log  # no warning page by page
    assert result.log.count("is not JSON; skipped (further ones are counted") == 1
    assert not any("not valid JSON" in str(item.get("extraction_warnings")) for item in result.items)


def test_json_nested_past_the_readers_bound_says_so(make_server, crawl, tmp_path):
    deep = "[" * 10_000 + "]" * 10_000
    (tmp_path / "synthetic-deep-next-data.html").write_text(page("Deep", json_script("__NEXT_DATA__", deep)))
    server = make_server(tmp_path)
    result = crawl("site", args={"url": server.url("synthetic-deep-next-data.html"), "follow": 0})
    [item] = result.items
    [warning] = [w["message"] for w in item["extraction_warnings"] if w["extractor"] == "embedded_state"]
    assert warning.startswith('A <script type="application/json" id="__NEXT_DATA__"> block is JSON nested deeper')
    assert "the reader's bound; skipped." in warning and "not valid JSON" not in warning


def test_a_start_url_with_a_backslash_is_read_as_scrapy_fetches_it(fixture_server, crawl):
    # urllib reads the host as example.com (before "@"), Scrapy and browsers as 127.0.0.1
    url = fixture_server.url("/").rstrip("/") + "\\@example.com/"
    result = crawl("site", args={"url": url, "follow": 0})
    fetched = fixture_server.url("/@example.com/")
    assert [(e["url"], e["reason"], e.get("status")) for e in result.errors] == [(fetched, "http_error", 404)], \
        result.log[-3000:]
