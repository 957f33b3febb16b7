"""The baseline for bench_pipeline.py: follows links and yields one small dict per page,
with none of crawlforge's pipelines."""

import scrapy
from scrapy.linkextractors import LinkExtractor


class BareSpider(scrapy.Spider):
    name = "bare"

    def __init__(self, url, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [url]
        self.links = LinkExtractor()

    async def start(self):
        yield scrapy.Request(self.start_urls[0])

    def parse(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
        for link in self.links.extract_links(response):
            yield response.follow(link.url)
