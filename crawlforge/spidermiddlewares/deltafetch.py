"""scrapy-deltafetch for Scrapy 2.19: skip requests to pages that gave items in earlier runs."""

from __future__ import annotations

import logging
import time

from itemadapter import is_item
from scrapy import Request
from scrapy_deltafetch.middleware import DeltaFetch as UpstreamDeltaFetch

logger = logging.getLogger(__name__)


class DeltaFetch(UpstreamDeltaFetch):
    """scrapy-deltafetch 2.1.0 only has a sync ``process_spider_output``, which Scrapy 2.19
    refuses for async spider output, and counts stats with the deprecated ``spider=``. Same
    settings (``DELTAFETCH_ENABLED``, ``DELTAFETCH_DIR``, ``DELTAFETCH_RESET``) and meta keys
    (``deltafetch_key``, ``deltafetch_enabled``); start requests are always fetched."""

    def seen(self, element, response) -> bool:
        """Records pages that gave an item; True for a request to such a page (to drop)."""
        if isinstance(element, Request):
            if self._get_key(element) in self.db and self._is_enabled_for_request(element):
                logger.debug("Ignoring already visited: %s", element)
                self.stats.inc_value("deltafetch/skipped")
                return True
        elif is_item(element):
            self.db[self._get_key(response.request)] = str(time.time())
            self.stats.inc_value("deltafetch/stored")
        return False

    def process_spider_output(self, response, result):
        return (element for element in result if not self.seen(element, response))

    async def process_spider_output_async(self, response, result):
        async for element in result:
            if not self.seen(element, response):
                yield element
