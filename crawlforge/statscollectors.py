"""Scrapy's in-memory stats collector, without the shim Scrapy 2.13+ puts on every attribute
read to warn about the deprecated ``spider`` argument: it makes each ``inc_value`` cost ~4 us
(its own ``self._stats`` read included), and a crawled page counts dozens of stats."""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class StatsCollector(MemoryStatsCollector):
    __getattribute__ = object.__getattribute__
