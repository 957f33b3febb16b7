"""The crawl report of a real crawl, opened in headless Chromium: it renders with no console
error and no network request, and the numbers the charts draw are the feed's."""

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import ROOT

from crawlforge.report.fillrate import FillRates

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "tmp" / "artifacts"  # screenshots for people to look at; not committed
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]

PAGES = ["/demo/products/ikea_gb_moeckelby_table_jsonld.html", "/demo/products/otto_de_kaercher_k3_microdata.html",
         "/demo/news/blog.python.org.html", "/demo/articles/v8_dev_blog_standalone_wasm_code.html",
         "/missing.html", "/_status/500/demo/index.html", "/botwall/cloudflare_just_a_moment_oswegony_org.html",
         "/botwall/perimeterx_access_denied_upwork.html"]

# every bar pygal draws carries its value and its label
BARS_JS = """id => [...document.querySelectorAll(`#${id} g.series`)].filter(s => s.querySelector('g.bar')).map(serie =>
  [...serie.querySelectorAll('g.bar')].map(bar => [bar.querySelector('desc.x_label')?.textContent,
                                                  Number(bar.querySelector('desc.value').textContent)]))"""


@pytest.fixture(scope="module")
def crawled(fixture_server, tmp_path_factory):
    from conftest import run_crawl

    workdir = tmp_path_factory.mktemp("report")
    urls = workdir / "urls.txt"
    urls.write_text("\n".join(fixture_server.url(path) for path in PAGES))
    result = run_crawl("site", workdir / "crawl", args={"urls_file": urls, "follow": 0},
                       settings={"RETRY_TIMES": "0", "CRAWLFORGE_PROGRESS_INTERVAL": "0"})
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
            viewport={"width": 1200, "height": 900})
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
    assert (expected["200"], expected["404"], expected["500"]) == (len(result.items) + walls, 1, 1)


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


def test_worst_pages_table_links_the_failed_urls_first(page, crawled):
    result, _ = crawled
    links = page.evaluate("() => [...document.querySelectorAll('#worst-pages a')].map(a => a.href)")
    failed = {error["url"] for error in result.errors}
    assert set(links[:len(failed)]) == failed
    assert set(links[len(failed):]) == {item["url"] for item in result.items}
    # then the page with the fewest of its site's fields: the blog post has only meta tags
    assert links[len(failed)].endswith("/demo/news/blog.python.org.html")
