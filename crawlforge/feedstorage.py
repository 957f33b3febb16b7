"""Feed storage that loses nothing on a kill."""

from __future__ import annotations

from pathlib import Path

from scrapy.extensions.feedexport import FileFeedStorage


class DurableFileFeedStorage(FileFeedStorage):
    """Local feeds (a plain or relative path, or ``file://``: ``FEED_STORAGES`` names it for
    both) written unbuffered: each exported item reaches the file at once, so the feed of a
    killed crawl holds every item its frontier counts as done."""

    def open(self, spider):
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open(self.write_mode, buffering=0)
