"""Feed storages that lose nothing on a kill: local feeds written unbuffered, and S3 feeds
spooled to disk first.

Scrapy writes an S3 feed to a temporary file and uploads it when the feed closes: a killed crawl
uploads nothing, while JOBDIR counts its pages as done, so a resumed crawl never fetches them
again. With JOBDIR, this storage spools each feed (the items feed and the errors feed alike) into
its own file in ``JOBDIR/feed-spool/``, unbuffered (each item is on disk as it is exported, like
the local feeds), with the feed's URI beside it. Every run of the job appends to the spool of its
URI and uploads it whole when the feed closes, so the object holds what every run exported; the
spool stays with the job. A spool of another URI that an earlier run did not upload whole (a
killed run's ``%(time)s`` or ``%(batch_id)d`` name) is uploaded to that URI when a feed opens.
``FEED_EXPORT_BATCH_ITEM_COUNT`` uploads as the crawl goes, one object per batch, so a kill
leaves at most one batch to upload.
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
        """Upload what an earlier run spooled and did not upload whole, for feeds of other names.

        A spool of another name may be a feed of this run too (the errors feed, a feed opened
        later): it is uploaded as it stands and kept, so that feed appends to it and uploads
        it whole when it closes."""
        for uri_file in sorted(self.spool_dir.glob("*.uri")):
            uri = uri_file.read_text(encoding="utf-8")
            path = self.spool_path(uri)
            if uri != self.uri and path.exists() and path.stat().st_size != self.uploaded_size(path):
                logger.info("Uploading the spooled feed of an earlier run to %s", uri)
                self.upload(path, uri)

    @staticmethod
    def uploaded_size(path: Path) -> int | None:
        marker = path.with_suffix(".uploaded")
        return int(marker.read_text()) if marker.exists() else None

    def upload(self, path: Path, uri: str) -> None:
        """Upload the whole spool, which stays: the job's next run appends to it."""
        parsed = urlparse(uri)
        extra = {"ExtraArgs": {"ACL": self.acl}} if self.acl else {}
        with path.open("rb") as spooled:
            size = path.stat().st_size
            self.s3_client.upload_fileobj(Bucket=parsed.hostname, Key=parsed.path[1:], Fileobj=spooled, **extra)
        path.with_suffix(".uploaded").write_text(str(size))

    def _store_in_thread(self, file) -> None:
        if self.spool_dir is None:
            return super()._store_in_thread(file)
        file.close()
        self.upload(self.spool_path(self.uri), self.uri)
