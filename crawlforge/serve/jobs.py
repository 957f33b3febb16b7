"""Background crawls (``POST /crawl``): the ``site`` spider run in-process as ``scrapy crawl site
-O items.jsonl`` would run it, with a JOBDIR, its items feed, errors feed and stats file in a
folder of its own, read back a page of items at a time while it runs."""

from __future__ import annotations

import json
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from crawlforge.items import utc_now
from crawlforge.serve.errors import BadRequest, ServiceError


@dataclass
class Job:
    id: str
    url: str
    folder: Path
    crawler: object
    task: object
    started_at: str = field(default_factory=utc_now)
    stats: dict | None = None  # the final stats, kept when the crawler is let go

    @property
    def items_feed(self) -> Path:
        return self.folder / "items.jsonl"

    @property
    def errors_feed(self) -> Path:
        return self.folder / "errors.jsonl"

    def done(self, task) -> None:
        self.stats = dict(self.crawler.stats.get_stats())
        self.crawler = None

    def state(self) -> str:
        if not self.task.done():
            return "running"
        return "failed" if self.task.cancelled() or self.task.exception() else "finished"


def read_records(path: Path, offset: int, limit: int) -> tuple[list[dict], int]:
    """Up to ``limit`` whole lines of a JSON lines feed from line ``offset`` (a line still being
    written is left for the next read), and the offset after them."""
    records, index = [], 0
    if not path.exists():
        return records, offset
    with path.open("rb") as feed:
        for line in feed:
            if not line.endswith(b"\n") or len(records) >= limit:
                break
            if index >= offset:
                records.append(json.loads(line))
            index += 1
    return records, offset + len(records)


def counts(stats: dict) -> dict:
    """The ledger's counts so far: every requested URL ends as an item or an error."""
    return {"requested": stats.get("ledger/requested", 0), "items": stats.get("ledger/items", 0),
            "errors": sum(v for k, v in stats.items() if k.startswith("ledger/errors/"))}


class CrawlJobs:
    def __init__(self, runner, spidercls):
        settings = runner.settings
        self.runner, self.spidercls = runner, spidercls
        # a folder of its own is removed when the server exits; a configured one is kept
        self.temporary = None if settings.get("CRAWLFORGE_API_JOBS_DIR") else \
            tempfile.TemporaryDirectory(prefix="crawlforge-crawls-", ignore_cleanup_errors=True)
        self.root = Path(settings.get("CRAWLFORGE_API_JOBS_DIR") or self.temporary.name)
        self.max_running = settings.getint("CRAWLFORGE_API_MAX_CRAWLS")
        self.max_pages = settings.getint("CRAWLFORGE_API_MAX_CRAWL_PAGES")
        self.page_size = settings.getint("CRAWLFORGE_API_PAGE_SIZE")
        self.jobs: dict[str, Job] = {}

    def start(self, options) -> str:
        if options.max_pages > self.max_pages:
            raise BadRequest(f"max_pages: at most {self.max_pages} on this server (CRAWLFORGE_API_MAX_CRAWL_PAGES)")
        if sum(job.state() == "running" for job in self.jobs.values()) >= self.max_running:
            raise ServiceError("busy", f"{self.max_running} crawls are running (CRAWLFORGE_API_MAX_CRAWLS)")
        job_id = uuid.uuid4().hex[:16]
        folder = self.root / job_id
        folder.mkdir(parents=True)
        crawler = self.runner.create_crawler(self.spidercls)
        for name, value in {"JOBDIR": str(folder / "job"),
                            "FEEDS": {str(folder / "items.jsonl"): {"format": "jsonlines", "overwrite": True}},
                            "CRAWLFORGE_ERRORS_FEED": str(folder / "errors.jsonl"),
                            "CRAWLFORGE_STATS_FILE": str(folder / "stats.json")}.items():
            crawler.settings.set(name, value, priority="cmdline")
        task = self.runner.crawl(crawler, **options.spider_arguments())
        job = self.jobs[job_id] = Job(job_id, options.url, folder, crawler, task)
        task.add_done_callback(job.done)
        return job_id

    def status(self, job_id: str, offset: int = 0) -> dict:
        job = self.jobs.get(job_id)
        if job is None:
            raise ServiceError("not_found", f"no crawl with id {job_id!r}")
        stats = job.stats if job.stats is not None else job.crawler.stats.get_stats()
        items, next_offset = read_records(job.items_feed, offset, self.page_size)
        errors, _ = read_records(job.errors_feed, 0, self.page_size)
        status = {"ok": True, "id": job.id, "url": job.url, "state": job.state(), "started_at": job.started_at,
                  "finish_reason": stats.get("finish_reason"), "counts": counts(stats),
                  "offset": offset, "next_offset": next_offset, "items": items, "errors": errors}
        if status["state"] == "failed" and not job.task.cancelled():
            status["detail"] = str(job.task.exception()).splitlines()[0]
        return status
