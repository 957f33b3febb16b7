"""The baseline for bench_pipeline.py: follows links and yields one small dict per page,
with none of crawlforge's pipelines. Its stats go to the file ``-a stats=PATH`` names, without
crawlforge's stats extension, so that it also runs outside the project, on Scrapy's defaults."""

import json

import scrapy
from scrapy.linkextractors import LinkExtractor


class BareSpider(scrapy.Spider):
    name = "bare"

    def __init__(self, url, stats, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [url]
        self.stats_path = stats
        self.links = LinkExtractor()

    async def start(self):
        yield scrapy.Request(self.start_urls[0])

    def parse(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
        for link in self.links.extract_links(response):
            yield response.follow(link.url)

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        # the stats are final only after every spider_closed handler ran
        crawler.signals.connect(spider.write_stats, signal=scrapy.signals.engine_stopped)
        return spider

    def write_stats(self):
        with open(self.stats_path, "w") as file:
            json.dump(self.crawler.stats.get_stats(), file, default=str)
