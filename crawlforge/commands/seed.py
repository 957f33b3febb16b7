"""``scrapy seed SPIDER URL... | -f FILE``: push seed URLs to the Redis queue workers share."""

from __future__ import annotations

import argparse
import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.args import ArgumentError
from crawlforge.spiders.base import read_urls_file


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "SPIDER [URL ...] [-f FILE] [--reset]"

    def short_desc(self) -> str:
        return "Push seed URLs to the Redis queue of a distributed crawl (CRAWLFORGE_REDIS_URL)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-f", "--file", help="a file of URLs, one a line (# comments)")
        parser.add_argument("--reset", action="store_true",
                            help="first delete the spider's seeds, request queue and seen set")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from redis.exceptions import RedisError

        from crawlforge.distributed import unavailable

        try:
            self.push(args, opts)
        except ArgumentError as error:
            print(f"scrapy seed: {error}", file=sys.stderr)
            self.exitcode = 2
        except RedisError as error:
            print(f"scrapy seed: {unavailable(self.settings, error)}", file=sys.stderr)
            self.exitcode = 1

    def push(self, args: list[str], opts: argparse.Namespace) -> None:
        from crawlforge.distributed import connect, redis_keys
        from crawlforge.distributed.seeds import seed_entry

        if not args:
            raise UsageError("give the spider name")
        spider, urls = args[0], args[1:] + (read_urls_file(opts.file) if opts.file else [])
        if spider not in self.spider_names():
            raise UsageError(f"no spider named {spider!r}")
        if not self.settings.get("CRAWLFORGE_REDIS_URL"):
            raise UsageError("set CRAWLFORGE_REDIS_URL (e.g. -s CRAWLFORGE_REDIS_URL=redis://127.0.0.1:6379/0)")
        server, keys = connect(self.settings), redis_keys(spider)
        if opts.reset:
            server.delete(*keys.values())
        if urls:
            server.rpush(keys["seeds"], *(seed_entry(url) for url in urls))
        print(f"{len(urls)} seed URLs pushed to {keys['seeds']} ({server.llen(keys['seeds'])} waiting)")

    def spider_names(self) -> list[str]:
        from scrapy.spiderloader import get_spider_loader
        return get_spider_loader(self.settings).list()
