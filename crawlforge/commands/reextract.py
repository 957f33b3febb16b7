"""``scrapy reextract WARC_FILE... -O items.jsonl``: the crawl that wrote an archive, run again
from it, offline: same spider, same arguments (``-a`` overrides one), the extraction settings
it recorded (``-s`` overrides one), responses served by ``crawlforge.archive.replay``.

A folder stands for the ``*.warc.gz`` files in it. Politeness delays are off (nothing is
fetched); the SSRF guard is off (no name is resolved); no new archive is written.
"""

from __future__ import annotations

import json
from pathlib import Path

from scrapy.exceptions import UsageError
from scrapy.settings import SETTINGS_PRIORITIES

from crawlforge.archive.index import ArchiveError, index_archive
from crawlforge.commands.crawl import Command as CrawlCommand
from crawlforge.middlewares.archive import ARGS_FIELD, SETTINGS_FIELD, SPIDER_FIELD

REPLAY_HANDLER = "crawlforge.archive.replay.ArchiveReplayHandler"
REPLAY_SETTINGS = {
    "DOWNLOAD_HANDLERS": {"http": REPLAY_HANDLER, "https": REPLAY_HANDLER, "ftp": None, "s3": None},
    "ADDONS": {"crawlforge.browser.addon.BrowserAddon": None},  # no browser: rendered pages are archived
    "CRAWLFORGE_ARCHIVE": "",
    "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": True,
    "AUTOTHROTTLE_ENABLED": False,
    "DOWNLOAD_DELAY": 0,
    "CRAWLFORGE_CRAWL_DELAY_ENABLED": False,
    "CRAWLFORGE_RETRY_BACKOFF_BASE": 0,
    "CRAWLFORGE_RETRY_AFTER_MAX": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
}


def archive_files(args: list[str]) -> list[Path]:
    files = []
    for arg in map(Path, args):
        found = sorted(arg.glob("*.warc.gz")) + sorted(arg.glob("*.warc")) if arg.is_dir() else [arg]
        if not found or not all(path.is_file() for path in found):
            raise UsageError(f"reextract: no WARC file at {arg}", print_help=False)
        files += found
    return files


class Command(CrawlCommand):
    def syntax(self):
        return "[options] WARC_FILE_OR_FOLDER..."

    def short_desc(self):
        return "Run the page pipeline of an archived crawl again, offline, from its WARC files"

    def process_options(self, args, opts):
        super().process_options(args, opts)
        if not args:
            raise UsageError("reextract: give the WARC files (or their folder) of a crawl", print_help=False)
        files = archive_files(args)
        try:
            info = index_archive(files[:1]).info
        except ArchiveError as error:
            raise UsageError(f"reextract: {error}", print_help=False) from None
        if SPIDER_FIELD not in info:
            raise UsageError(f"reextract: {files[0]} was not written by a crawlforge crawl", print_help=False)
        self.spider_name = info[SPIDER_FIELD]
        opts.spargs = {**json.loads(info.get(ARGS_FIELD) or "{}"), **opts.spargs}
        cmdline = SETTINGS_PRIORITIES["cmdline"]
        for name, value in json.loads(info.get(SETTINGS_FIELD) or "{}").items():
            if (self.settings.getpriority(name) or 0) < cmdline:
                self.settings.set(name, value, priority="cmdline")
        for name, value in REPLAY_SETTINGS.items():
            self.settings.set(name, value, priority="cmdline")
        self.settings.set("CRAWLFORGE_REPLAY", [str(path) for path in files], priority="cmdline")

    def run(self, args, opts):
        super().run([self.spider_name], opts)
