"""What ``scrapy serve`` and ``scrapy mcp`` share: the project's settings made quiet for a
long-running process, the service on the command's crawler process, and the reactor run until a
signal (or, for stdio, the end of the input)."""

from __future__ import annotations

import asyncio
import logging

from scrapy.commands import ScrapyCommand
from scrapy.settings import SETTINGS_PRIORITIES

from crawlforge.serve.ledger import with_collecting_ledger
from crawlforge.serve.service import Service

logger = logging.getLogger(__name__)
# Per-request crawls would each log their settings, components and stats at INFO, and a
# progress line: a server keeps to warnings unless -L asks for more.
QUIET = {"LOG_LEVEL": "WARNING", "LOGSTATS_INTERVAL": 0, "STATS_DUMP": False, "CRAWLFORGE_PROGRESS_INTERVAL": 0}


class ServiceCommand(ScrapyCommand):
    requires_project = True

    def process_options(self, args, opts):
        super().process_options(args, opts)
        for name, value in QUIET.items():
            if (self.settings.getpriority(name) or 0) < SETTINGS_PRIORITIES["cmdline"]:
                self.settings.set(name, value, priority="cmdline")
        if opts.loglevel is not None:
            self.settings.set("LOG_LEVEL", opts.loglevel, priority="cmdline")
        extensions = self.settings.getdict("EXTENSIONS")
        self.settings.set("EXTENSIONS", with_collecting_ledger(extensions), priority="cmdline")

    def run_service(self, main) -> None:
        """Run ``main(service)`` on the reactor's loop until the process is told to stop."""
        service = Service(self.crawler_process)
        task = asyncio.get_event_loop().create_task(main(service))
        task.add_done_callback(self.main_done)
        self.crawler_process.start(stop_after_crawl=False)

    def main_done(self, task) -> None:
        from twisted.internet import reactor

        if not task.cancelled() and (error := task.exception()) is not None:
            logger.error("The server stopped: %s", error, exc_info=error)
            self.exitcode = 1
        if reactor.running:
            reactor.stop()
