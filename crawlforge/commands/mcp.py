"""``scrapy mcp``: the service's tools (scrape, map, crawl, crawl_status, query) as an MCP server
over stdio, for an agent that starts it as a subprocess (README "Serving agents"). Nothing but
the protocol goes to stdout; logs go to stderr. The server ends when its input does."""

from __future__ import annotations

from typing import Any, ClassVar

from scrapy.exceptions import UsageError

from crawlforge.serve.command import ServiceCommand


class Command(ServiceCommand):
    default_settings: ClassVar[dict[str, Any]] = {}

    def short_desc(self) -> str:
        return "Serve the crawl pipeline as MCP tools over stdio"

    def run(self, args, opts):
        if args:
            raise UsageError("scrapy mcp takes options only")

        async def main(service):
            from crawlforge.serve.tools import build_mcp

            await build_mcp(service, log_level="WARNING").run_stdio_async()

        self.run_service(main)
