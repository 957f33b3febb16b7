"""Resume after a kill: ``-s JOBDIR=DIR`` keeps the frontier in an SQLite file in that folder.

Scrapy's own JOBDIR queue survives Ctrl-C but not SIGKILL: its queue index (``active.json``)
and seen set are written on a clean close, so a killed crawl resumes with nothing. Here every
request is a row (queued, in flight, done) committed as it changes, and a request is done only
when its callback's output was consumed and its items went through the pipelines
(``crawlforge.signals.request_done``, after the feed wrote them), when its download failed for
good (``url_failed``), or when its redirect hop is queued (the hop carries the URL on). Requests in
flight at the kill are fetched again on resume and their items carry ``resumed_refetch: true``:
the killed run's feed may hold them already, so a consumer can drop those duplicates.
"""

from __future__ import annotations

import logging
import pickle
import sqlite3
from pathlib import Path

from scrapy.core.scheduler import BaseScheduler
from scrapy.utils.request import request_from_dict

from crawlforge.signals import request_done, url_failed

logger = logging.getLogger(__name__)

QUEUED, IN_FLIGHT, DONE = 0, 1, 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS frontier (
    fp TEXT PRIMARY KEY, state INTEGER NOT NULL, priority INTEGER NOT NULL,
    seq INTEGER NOT NULL, refetch INTEGER NOT NULL DEFAULT 0, request BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS queued ON frontier (priority DESC, seq) WHERE state = 0;
"""


class Frontier:
    """The rows: every request seen, its state, and the pickled request to fetch."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None)  # autocommit: each change is durable
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # survives a killed process, not a power cut
        self.db.executescript(SCHEMA)
        self.seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM frontier").fetchone()[0]
        self.refetched = self.db.execute(
            "UPDATE frontier SET state = ?, refetch = 1 WHERE state = ?", (QUEUED, IN_FLIGHT)).rowcount
        self.queued = self.db.execute("SELECT COUNT(*) FROM frontier WHERE state = ?", (QUEUED,)).fetchone()[0]

    def add(self, fp: str, priority: int, data: bytes, force: bool) -> bool:
        """False when ``fp`` was seen before (unless ``force``: a retry, ``dont_filter``)."""
        self.seq += 1
        verb = "INSERT OR REPLACE" if force else "INSERT OR IGNORE"
        added = self.db.execute(f"{verb} INTO frontier (fp, state, priority, seq, request) VALUES (?, ?, ?, ?, ?)",
                                (fp, QUEUED, priority, self.seq, data)).rowcount > 0
        self.queued += added
        return added

    def pop(self) -> tuple[bytes, bool] | None:
        row = self.db.execute("SELECT fp, request, refetch FROM frontier WHERE state = ? "
                              "ORDER BY priority DESC, seq LIMIT 1", (QUEUED,)).fetchone()
        if row is None:
            return None
        self.db.execute("UPDATE frontier SET state = ? WHERE fp = ?", (IN_FLIGHT, row[0]))
        self.queued -= 1
        return row[1], bool(row[2])

    def done(self, fp: str) -> None:
        self.db.execute("UPDATE frontier SET state = ? WHERE fp = ?", (DONE, fp))

    def close(self) -> None:
        self.db.close()


class ResumableScheduler(BaseScheduler):
    """The scheduler ``crawlforge.distributed.local_scheduler.Scheduler`` picks when ``JOBDIR`` is set:
    breadth-first by priority, deduplicated by the crawler's request fingerprints."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.path = Path(crawler.settings.get("JOBDIR"), "frontier.sqlite3")
        self.fingerprint = crawler.request_fingerprinter.fingerprint
        self.frontier: Frontier | None = None

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def open(self, spider):
        self.spider = spider
        self.frontier = Frontier(self.path)
        if self.frontier.seq:
            logger.info("Resuming %s: %d requests queued, %d in flight at the last stop are fetched again",
                        self.path, self.frontier.queued, self.frontier.refetched)
        self.crawler.stats.set_value("resume/refetched", self.frontier.refetched)
        self.crawler.signals.connect(self.mark_done, signal=request_done)
        self.crawler.signals.connect(self.download_failed, signal=url_failed)

    def close(self, reason):
        self.frontier.close()

    def has_pending_requests(self) -> bool:
        return self.frontier.queued > 0

    def __len__(self) -> int:
        return self.frontier.queued

    def enqueue_request(self, request) -> bool:
        data = pickle.dumps(request.to_dict(spider=self.spider), protocol=4)
        added = self.frontier.add(self.fingerprint(request).hex(), request.priority, data, request.dont_filter)
        if redirected_from := request.meta.get("redirect_urls"):  # the hop is queued: its source is done
            self.mark_done(request.replace(url=redirected_from[-1]))
        if not added:
            self.crawler.stats.inc_value("dupefilter/filtered")
            return False
        self.crawler.stats.inc_value("scheduler/enqueued/sqlite")
        return True

    def next_request(self):
        popped = self.frontier.pop()
        if popped is None:
            return None
        request = request_from_dict(pickle.loads(popped[0]), spider=self.spider)
        if popped[1]:
            request.meta["crawlforge_refetch"] = True
        self.crawler.stats.inc_value("scheduler/dequeued/sqlite")
        return request

    def mark_done(self, request, **kwargs) -> None:
        self.frontier.done(self.fingerprint(request).hex())

    def download_failed(self, request=None, **kwargs) -> None:
        """A failure reported with its request (the downloader's side) ends that request."""
        if request is not None:
            self.mark_done(request)
