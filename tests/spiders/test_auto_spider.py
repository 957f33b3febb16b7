"""`scrapy crawl auto` and `scrapy detect`: each URL goes to the template that claims it, fetched
at the template's own endpoint; API answers are never sent to the browser."""

import asyncio
import subprocess
import sys

import scrapy
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawlforge.commands.detect import explain
from crawlforge.spiders.auto import AutoSpider
from conftest import ROOT

NPM = "https://www.npmjs.com/package/express"
GITHUB = "https://github.com/honojs/hono"
GENERIC = "https://example.com/about"


def start_requests(*urls, tmp_path):
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls) + "\n")
    spider = AutoSpider.from_crawler(get_crawler(AutoSpider), urls_file=str(urls_file))

    async def collect():
        return [request async for request in spider.start()]

    return asyncio.run(collect())


def test_api_template_fetches_its_endpoint_without_the_browser(tmp_path):
    (request,) = start_requests(NPM, tmp_path=tmp_path)
    assert request.url == "https://registry.npmjs.org/express"
    assert request.meta == {"crawlforge_url": NPM, "crawlforge_template": "npm-package", "crawlforge_render": False}


def test_html_template_and_generic_page_keep_their_url_and_may_render(tmp_path):
    github, generic = start_requests(GITHUB, GENERIC, tmp_path=tmp_path)
    assert (github.url, github.meta) == (GITHUB, {"crawlforge_url": GITHUB, "crawlforge_template": "github-repo"})
    assert (generic.url, generic.meta) == (GENERIC, {"crawlforge_url": GENERIC, "crawlforge_template": None})


def test_detect_names_the_template_and_what_it_fetches():
    text, claimed = explain(NPM)
    assert claimed
    assert text.splitlines()[0] == "npm-package: npm Package"
    assert "  fetches https://registry.npmjs.org/express" in text.splitlines()
    assert explain(GENERIC)[1] is False


# --- a template that claims a URL by its shape, or by its site alone, must not keep a page it cannot read

def run_detect(url):
    return subprocess.run([sys.executable, "-m", "scrapy", "detect", url], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_detect_says_a_path_shape_match_is_verified_by_the_template():
    result = run_detect("https://www.apple.com/products/iphone")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "shopify-product: Shopify Product"
    assert "the URL's shape only" in result.stdout
    assert "the template verifies the site" in result.stdout
    assert "scrapy crawl auto -a url='https://www.apple.com/products/iphone'" in result.stdout


def test_detect_names_the_site_template_when_a_site_page_is_not_its_kind():
    for url in ("https://aws.amazon.com/s3/", "https://www.amazon.com/"):
        result = run_detect(url)
        assert result.returncode == 1, (url, result.stdout)
        assert result.stdout.startswith(f"No template claims {url};"), result.stdout
        assert "amazon-product reads this site, but only pages matching" in result.stdout
    product = run_detect("https://www.amazon.com/dp/B08N5WRWNW")
    assert (product.returncode, product.stdout.splitlines()[0]) == (0, "amazon-product: Amazon Product")


def test_auto_reads_a_page_as_generic_when_the_templates_endpoint_fails(fixture_server, crawl):
    # a real non-Shopify product page whose path has the /products/<handle> shape: its .json is a 404
    url = fixture_server.url("/demo/products/ikea_gb_moeckelby_table_jsonld.html")
    result = crawl("auto", args={"url": url})
    assert result.returncode == 0, result.log[-2000:]
    assert result.errors == []
    (item,) = result.items
    assert (item["url"], item["template"]) == (url, None)
    assert "MÖCKELBY" in item["markdown"].upper()
    fallback = item["template_fallback"]
    assert (fallback["template"], fallback["reason"]) == ("shopify-product", "template_fetch_failed")
    assert "ikea_gb_moeckelby_table_jsonld.html.json answered HTTP 404" in fallback["detail"]
    assert result.stats["auto/fallback/shopify-product"] == 1
    assert result.stats["ledger/requested"] == result.stats["ledger/items"] == 1


def test_auto_says_which_template_left_a_url_the_generic_page_cannot_read_either(fixture_server, crawl):
    # the .json answer is JSON, but a product list, not a product: shopify-product rejects it
    url = fixture_server.url("/_paged/templates/shopify/allbirds-collection.json/products/mens")
    result = crawl("auto", args={"url": url})
    assert result.items == []
    (error,) = result.errors
    assert error["url"].startswith(url)  # the ledger names a URL by its first fetch: the template's
    assert error["reason"] == "not_html"
    assert error["detail"].startswith("shopify-product: Not a Shopify product endpoint")
    assert "as a generic page it is not HTML either" in error["detail"]
    assert result.stats["auto/fallback/shopify-product"] == 1


def test_auto_keeps_a_page_its_html_template_rejects_as_the_generic_page():
    # the template read the page URL itself: its answer is the page, so nothing is fetched again
    url = "https://www.amazon.co.uk/dp/B000000000"
    crawler = get_crawler(AutoSpider)
    spider = AutoSpider.from_crawler(crawler, url=url)
    crawler.stats.open_spider()
    request = scrapy.Request(url, meta={"crawlforge_url": url, "crawlforge_template": "amazon-product"})
    body = (ROOT / "fixtures/botwall/amazon_captcha_account-status_amazon_co_uk.html").read_bytes()
    (item,) = spider.parse(HtmlResponse(url, body=body, request=request, headers={"Content-Type": "text/html"}))
    assert (item.url, item.template, item.template_fallback["template"]) == (url, None, "amazon-product")
    assert item.template_fallback["reason"] == "template_rejected"
    assert "captcha interstitial" in item.template_fallback["detail"]
