"""`scrapy crawl auto` and `scrapy detect`: each URL goes to the template that claims it, fetched
at the template's own endpoint; API answers are never sent to the browser."""

import asyncio

from scrapy.utils.test import get_crawler

from crawlforge.commands.detect import explain
from crawlforge.spiders.auto import AutoSpider

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
