"""The crawl report of a real crawl, opened in headless Chromium: it renders with no console
error and no network request, its outcome figures and error groups are the feeds', and the
numbers the charts draw are the feed's. The crawl meets a broken section of the site (links to
pages that are gone), as a real site does."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import ROOT

from crawlforge.report.fillrate import FillRates
from crawlforge.report.summary import error_groups

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "tmp" / "artifacts"  # screenshots for people to look at; not committed
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]

PAGES = ["/demo/products/ikea_gb_moeckelby_table_jsonld.html", "/demo/products/otto_de_kaercher_k3_microdata.html",
         "/demo/news/blog.python.org.html", "/demo/articles/v8_dev_blog_standalone_wasm_code.html",
         "/missing.html", "/_status/500/demo/index.html", "/botwall/cloudflare_just_a_moment_oswegony_org.html",
         "/botwall/perimeterx_access_denied_upwork.html"]
BROKEN_SECTION = [f"/demo/archive/2019/post-{i}.html" for i in range(12)]  # answered 404: the files are gone

# every bar pygal draws carries its value and its label
BARS_JS = """id => [...document.querySelectorAll(`#${id} g.series`)].filter(s => s.querySelector('g.bar')).map(serie =>
  [...serie.querySelectorAll('g.bar')].map(bar => [bar.querySelector('desc.x_label')?.textContent,
                                                  Number(bar.querySelector('desc.value').textContent)]))"""


@pytest.fixture(scope="module")
def crawled(fixture_server, tmp_path_factory):
    from conftest import run_crawl

    workdir = tmp_path_factory.mktemp("report")
    urls = workdir / "urls.txt"
    urls.write_text("\n".join(fixture_server.url(path) for path in PAGES + BROKEN_SECTION))
    result = run_crawl("site", workdir / "crawl", args={"urls_file": urls, "follow": 0},
                       settings={"RETRY_TIMES": "0", "CRAWLFORGE_PROGRESS_INTERVAL": "0",
                                 "CRAWLFORGE_STATS_FILE": ""})  # the stats go beside the feed
    result.stats = json.loads((result.workdir / "items.stats.json").read_text())
    assert result.items and result.errors, result.log[-3000:]
    report = workdir / "report.html"
    command = [sys.executable, "-m", "scrapy", "report", str(result.workdir / "items.jsonl"),
               str(result.workdir / "errors.jsonl"), "-o", str(report)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return result, report


@pytest.fixture(scope="module")
def page(crawled, tmp_path_factory):
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("no Chromium at /usr/bin/chromium")
    _, report = crawled
    profile = tmp_path_factory.mktemp("chromium-profile")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 900})
        tab = browser.new_page()
        tab.console_errors, tab.requests = [], []
        tab.on("console", lambda message: message.type == "error" and tab.console_errors.append(message.text))
        tab.on("pageerror", lambda error: tab.console_errors.append(str(error)))
        tab.on("request", lambda request: tab.requests.append(request.url))
        tab.goto(report.as_uri())
        tab.wait_for_load_state("load")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "crawl-report.png"), full_page=True)
        yield tab
        browser.close()


def test_the_report_renders_without_console_errors_or_fetches(page, crawled):
    assert page.console_errors == []
    assert page.requests == [crawled[1].as_uri()]  # the file itself, nothing else
    assert (ARTIFACTS / "crawl-report.png").stat().st_size > 10_000


def test_status_codes_chart_counts_the_feed(page, crawled):
    result, _ = crawled
    expected = Counter(str(row["status"]) for row in result.items + result.errors if row.get("status"))
    [bars] = page.evaluate(BARS_JS, "status-codes")
    assert dict(bars) == expected
    walls = 2  # served with 200, dropped by the verdict
    assert (expected["200"], expected["404"], expected["500"]) == (len(result.items) + walls, 1 + len(BROKEN_SECTION), 1)


def test_ledger_reasons_and_vendors_charts_count_the_error_records(page, crawled):
    result, _ = crawled
    [reasons] = page.evaluate(BARS_JS, "ledger-reasons")
    assert dict(reasons) == Counter(error["reason"] for error in result.errors)
    [vendors] = page.evaluate(BARS_JS, "verdict-vendors")
    assert dict(vendors) == Counter(error["vendor"] for error in result.errors if error.get("vendor"))
    assert set(dict(vendors)) == {"cloudflare", "perimeterx"}


def test_pages_over_time_adds_up_to_the_feed(page, crawled):
    result, _ = crawled
    items, errors = page.evaluate(BARS_JS, "pages-over-time")
    assert sum(value for _, value in items) == len(result.items)
    assert sum(value for _, value in errors) == len(result.errors)


def test_fill_rate_heatmap_shows_each_fields_share_of_items(page, crawled):
    result, _ = crawled
    cells = page.evaluate("""() => [...document.querySelectorAll('#fill-rates .cell')].map(c =>
        [c.dataset.group, c.dataset.field, c.querySelector('b').textContent])""")
    shown = {(group, field): text for group, field, text in cells}
    # two of the four pages are products with a price (IKEA JSON-LD, Otto microdata); all have a title
    assert shown[("127.0.0.1", "structured_data.price")] == "50%"
    assert shown[("127.0.0.1", "meta.title")] == "100%"
    assert len(cells) == len(FillRates.from_items(result.items).groups["127.0.0.1"].filled)


def figures(page) -> dict:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#outcome [data-figure]')]
        .map(d => [d.dataset.figure, d.querySelector('dd').textContent]))""")


def test_the_header_says_the_crawls_outcome(page, crawled):
    result, _ = crawled
    shown = figures(page)
    assert shown["requested"] == str(result.stats["ledger/requested"]) == str(len(PAGES + BROKEN_SECTION))
    assert (shown["items"], shown["errors"]) == (str(len(result.items)), str(len(result.errors)))
    for reason, count in Counter(error["reason"] for error in result.errors).items():
        assert shown[f"reason-{reason}"] == str(count)
    assert shown["blocked"] == "2"
    assert shown["bytes"].endswith(("KB", "MB"))
    assert float(shown["pages-per-minute"]) > 0
    # 16 of 20 URLs failed: the health check raised its alarm, and the crawl exited 3; the report says so
    verdict = page.inner_text("#verdict")
    assert result.returncode == 3 and f"exit code {result.returncode}" in verdict
    assert "Health check failed" in verdict and result.stats["health/messages"][0] in verdict


def test_errors_are_grouped_by_reason_and_section(page, crawled):
    result, _ = crawled
    rows = page.evaluate("""() => [...document.querySelectorAll('#error-groups tr[data-reason]')].map(r =>
        [r.dataset.reason, r.dataset.pattern, Number(r.dataset.count), r.querySelectorAll('a').length])""")
    expected = [[g.reason, g.pattern, g.count, len(g.examples)] for g in error_groups(result.errors)]
    assert rows == expected
    # the broken section is one row of 12, shown with three examples, not 12 rows
    assert rows[0] == [rows[0][0], "127.0.0.1/demo/archive/", 12, 3]
    assert sum(row[2] for row in rows) == len(result.errors)
    every = page.evaluate("() => [...document.querySelectorAll('#all-errors a')].map(a => a.href)")
    assert sorted(every) == sorted(error["url"] for error in result.errors)


def test_one_bar_charts_are_sentences(page):
    text = page.inner_text("#slowest-hosts")
    assert "127.0.0.1" in text and page.query_selector("#slowest-hosts svg") is None


def test_least_filled_pages_are_items(page, crawled):
    result, _ = crawled
    links = page.evaluate("() => [...document.querySelectorAll('#worst-pages a')].map(a => a.href)")
    assert set(links) == {item["url"] for item in result.items}
    # first the page with the fewest of its site's fields: the blog post has only meta tags
    assert links[0].endswith("/demo/news/blog.python.org.html")
