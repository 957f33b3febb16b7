"""Feed storages that lose nothing on a kill: local feeds written unbuffered, and S3 feeds
spooled to disk first.

Scrapy writes an S3 feed to a temporary file and uploads it when the feed closes: a killed crawl
uploads nothing, while JOBDIR counts its pages as done, so a resumed crawl never fetches them
again. With JOBDIR, this storage spools the feed into ``JOBDIR/feed-spool/`` instead, unbuffered
(each item is on disk as it is exported, like the local feeds), with the feed's URI beside it.
A resumed crawl appends to the spool of its own URI and uploads it whole at the end; the spool of
any other URI (a killed run's ``%(time)s`` or ``%(batch_id)d`` name) is uploaded to that URI
when the resumed crawl opens its feed. An uploaded spool is deleted. ``FEED_EXPORT_BATCH_ITEM_COUNT``
uploads as the crawl goes, one object per batch, so a kill leaves at most one batch to upload.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from urllib.parse import urlparse

from scrapy.extensions.feedexport import FileFeedStorage, S3FeedStorage

logger = logging.getLogger(__name__)
SPOOL_FOLDER = "feed-spool"


class DurableFileFeedStorage(FileFeedStorage):
    """Local feeds (a plain or relative path, or ``file://``: ``FEED_STORAGES`` names it for
    both) written unbuffered: each exported item reaches the file at once, so the feed of a
    killed crawl holds every item its frontier counts as done."""

    def open(self, spider):
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open(self.write_mode, buffering=0)


class SpooledS3FeedStorage(S3FeedStorage):
    def __init__(self, uri: str, *args, spool_dir: Path | None = None, **kwargs):
        super().__init__(uri, *args, **kwargs)
        self.uri = uri
        self.spool_dir = spool_dir

    @classmethod
    def from_crawler(cls, crawler, uri, *, feed_options=None):
        storage = super().from_crawler(crawler, uri, feed_options=feed_options)
        jobdir = crawler.settings.get("JOBDIR")
        storage.spool_dir = Path(jobdir, SPOOL_FOLDER) if jobdir else None
        return storage

    def spool_path(self, uri: str) -> Path:
        return self.spool_dir / f"{hashlib.sha1(uri.encode()).hexdigest()}.jsonl"

    def open(self, spider):
        if self.spool_dir is None:
            return super().open(spider)
        self.spool_dir.mkdir(parents=True, exist_ok=True)
        self.upload_leftovers()
        path = self.spool_path(self.uri)
        path.with_suffix(".uri").write_text(self.uri, encoding="utf-8")
        if path.exists():
            logger.info("Resuming the S3 feed %s from its spool (%d bytes)", self.uri, path.stat().st_size)
        return path.open("ab", buffering=0)

    def upload_leftovers(self) -> None:
        """Upload what a killed crawl spooled for feeds of other names."""
        for uri_file in sorted(self.spool_dir.glob("*.uri")):
            uri = uri_file.read_text(encoding="utf-8")
            if uri == self.uri:
                continue
            logger.info("Uploading the spooled feed of a killed crawl to %s", uri)
            self.upload(self.spool_path(uri), uri)

    def upload(self, path: Path, uri: str) -> None:
        parsed = urlparse(uri)
        extra = {"ExtraArgs": {"ACL": self.acl}} if self.acl else {}
        if path.exists():
            with path.open("rb") as spooled:
                self.s3_client.upload_fileobj(Bucket=parsed.hostname, Key=parsed.path[1:], Fileobj=spooled, **extra)
            path.unlink()
        path.with_suffix(".uri").unlink(missing_ok=True)

    def _store_in_thread(self, file) -> None:
        if self.spool_dir is None:
            return super()._store_in_thread(file)
        file.close()
        self.upload(self.spool_path(self.uri), self.uri)
