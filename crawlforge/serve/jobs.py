"""Background crawls (``POST /crawl``): the ``site`` spider run as ``scrapy crawl site -O
items.jsonl`` would run it, its items feed, errors feed and stats file in a folder of its own,
read back a page of items at a time while it runs. In the server's process with a JOBDIR, or,
with ``CRAWLFORGE_API_SCRAPYD_URL``, as a scrapyd job of the deployed project (which must see
``CRAWLFORGE_API_JOBS_DIR``: the same machine, or a shared folder)."""

from __future__ import annotations

import asyncio
import json
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

from scrapy.settings import SETTINGS_PRIORITIES

from crawlforge.items import utc_now
from crawlforge.serve.errors import BadRequest, ServiceError

# settings a served crawl takes from the server's own, not from the command line
SERVER_ONLY = ("EXTENSIONS", "LOG_LEVEL", "LOGSTATS_INTERVAL", "STATS_DUMP", "CRAWLFORGE_PROGRESS_INTERVAL")


@dataclass
class Job:
    id: str
    url: str
    folder: Path
    crawler: object = None  # in-process: until it ends
    task: object = None
    started_at: str = field(default_factory=utc_now)
    stats: dict | None = None  # in-process: the final stats, kept when the crawler is let go

    def feed(self, name: str) -> Path:
        return self.folder / name

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
    """The ledger's counts: every requested URL ends as an item or an error."""
    return {"requested": stats.get("ledger/requested", 0), "items": stats.get("ledger/items", 0),
            "errors": sum(v for k, v in stats.items() if k.startswith("ledger/errors/"))}


def feed_settings(folder: Path) -> dict:
    return {"FEEDS": {str(folder / "items.jsonl"): {"format": "jsonlines", "overwrite": True}},
            "CRAWLFORGE_ERRORS_FEED": str(folder / "errors.jsonl"),
            "CRAWLFORGE_STATS_FILE": str(folder / "stats.json")}


class CrawlJobs:
    """Crawls in the server's process."""

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

    def check(self, options) -> None:
        if options.max_pages > self.max_pages:
            raise BadRequest(f"max_pages: at most {self.max_pages} on this server (CRAWLFORGE_API_MAX_CRAWL_PAGES)")

    async def start(self, options) -> str:
        self.check(options)
        if sum(job.state() == "running" for job in self.jobs.values()) >= self.max_running:
            raise ServiceError("busy", f"{self.max_running} crawls are running (CRAWLFORGE_API_MAX_CRAWLS)")
        job_id = uuid.uuid4().hex[:16]
        folder = self.root / job_id
        folder.mkdir(parents=True)
        crawler = self.runner.create_crawler(self.spidercls)
        for name, value in {"JOBDIR": str(folder / "job"), **feed_settings(folder)}.items():
            crawler.settings.set(name, value, priority="cmdline")
        task = self.runner.crawl(crawler, **options.spider_arguments())
        job = self.jobs[job_id] = Job(job_id, options.url, folder, crawler, task)
        task.add_done_callback(job.done)
        return job_id

    def job(self, job_id: str) -> Job:
        if (job := self.jobs.get(job_id)) is None:
            raise ServiceError("not_found", f"no crawl with id {job_id!r}")
        return job

    async def progress(self, job: Job) -> tuple[str, dict]:
        """(state, stats so far)."""
        return job.state(), job.stats if job.stats is not None else job.crawler.stats.get_stats()

    async def status(self, job_id: str, offset: int = 0) -> dict:
        job = self.job(job_id)
        state, stats = await self.progress(job)
        items, next_offset = read_records(job.feed("items.jsonl"), offset, self.page_size)
        errors, _ = read_records(job.feed("errors.jsonl"), 0, self.page_size)
        status = {"ok": True, "id": job.id, "url": job.url, "state": state, "started_at": job.started_at,
                  "finish_reason": stats.get("finish_reason"), "counts": counts(stats),
                  "offset": offset, "next_offset": next_offset, "items": items, "errors": errors}
        if state == "failed" and job.task is not None and not job.task.cancelled():
            status["detail"] = str(job.task.exception()).splitlines()[0]
        return status


class ScrapydJobs(CrawlJobs):
    """Crawls scheduled on scrapyd (``schedule.json``), followed with ``listjobs.json``. The
    settings the server was given on its command line go with each job."""

    def __init__(self, runner, spidercls, url: str):
        super().__init__(runner, spidercls)
        settings = runner.settings
        self.url = url.rstrip("/")
        self.project = settings.get("CRAWLFORGE_API_SCRAPYD_PROJECT")
        self.settings = {name: value for name, value in settings.items()
                         if settings.getpriority(name) == SETTINGS_PRIORITIES["cmdline"]
                         and name not in SERVER_ONLY and not name.startswith("CRAWLFORGE_API_")}

    async def call(self, endpoint: str, data: list[tuple[str, str]] | None = None) -> dict:
        def fetch():
            body = urlencode(data).encode() if data is not None else None
            with urlopen(f"{self.url}/{endpoint}", data=body, timeout=30) as response:
                return json.loads(response.read())

        try:
            answer = await asyncio.to_thread(fetch)
        except OSError as error:
            raise ServiceError("scrapyd_error", f"scrapyd at {self.url} did not answer ({error})") from None
        if answer.get("status") != "ok":
            raise ServiceError("scrapyd_error", f"scrapyd: {answer.get('message', answer)}".splitlines()[0])
        return answer

    async def start(self, options) -> str:
        self.check(options)
        folder = self.root / uuid.uuid4().hex[:16]
        folder.mkdir(parents=True)
        settings = {**self.settings, **feed_settings(folder)}
        data = [("project", self.project), ("spider", self.spidercls.name), *options.spider_arguments().items()]
        data += [("setting", f"{name}={json.dumps(value) if isinstance(value, (dict, list)) else value}")
                 for name, value in settings.items()]
        job_id = (await self.call("schedule.json", data))["jobid"]
        self.jobs[job_id] = Job(job_id, options.url, folder)
        return job_id

    async def progress(self, job: Job) -> tuple[str, dict]:
        listed = await self.call(f"listjobs.json?project={self.project}")
        state = next((name for name in ("pending", "running", "finished")
                      if any(entry["id"] == job.id for entry in listed.get(name, ()))), "failed")
        stats_file = job.feed("stats.json")
        if state == "finished" and stats_file.exists():
            return state, json.loads(stats_file.read_text())
        items = sum(1 for _ in job.feed("items.jsonl").open("rb")) if job.feed("items.jsonl").exists() else 0
        errors = sum(1 for _ in job.feed("errors.jsonl").open("rb")) if job.feed("errors.jsonl").exists() else 0
        state = "running" if state == "pending" else state
        return state, {"ledger/requested": items + errors, "ledger/items": items, "ledger/errors/any": errors}


def crawl_jobs(runner, spidercls):
    """Scrapyd jobs when ``CRAWLFORGE_API_SCRAPYD_URL`` names one, else crawls in-process."""
    if url := runner.settings.get("CRAWLFORGE_API_SCRAPYD_URL"):
        return ScrapydJobs(runner, spidercls, url)
    return CrawlJobs(runner, spidercls)
