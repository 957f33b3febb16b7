"""Shared test harness: the local fixture server and real crawls run as ``scrapy crawl``."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from crawlforge import settings as project_settings
from crawlforge.testing.server import FixtureServer

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# crawlforge's own setting defaults (crawlforge/settings.py, where they are kept once), for
# components built in a test from ``get_crawler`` rather than from the project.
CRAWLFORGE_DEFAULTS = {name: value for name, value in vars(project_settings).items() if name.startswith("CRAWLFORGE_")}

# Settings every test crawl runs with: fast, local, and allowed to reach 127.0.0.1 (only).
TEST_CRAWL_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "LOG_LEVEL": "INFO",
    "CRAWLFORGE_RENDER": "never",  # browser tests ask for it with -a render=
    "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32",  # the SSRF guard stays on for everything else
}


@pytest.fixture(scope="session")
def fixture_server():
    """The fixtures/ folder on 127.0.0.1, with every fault mode."""
    server = FixtureServer(FIXTURES).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def local_model():
    """The real model server (``python -m crawlforge.testing.local_model``), started once: its base URL."""
    from crawlforge.testing.local_model import running

    with running(threads=1) as base_url:
        yield base_url


@pytest.fixture
def make_server():
    """``make_server(root)``: a server of its own for a folder a test builds or changes."""
    servers = []

    def start(root) -> FixtureServer:
        servers.append(FixtureServer(root).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def awaited(result):
    """What a pipeline or middleware step returned, run to its end when it is a coroutine (the
    steps that may work on a page in a thread are async; ordinary pages never leave the loop)."""
    return asyncio.run(result) if inspect.iscoroutine(result) else result


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class CrawlResult:
    returncode: int
    items: list[dict]
    errors: list[dict]
    stats: dict
    log: str
    workdir: Path = field(repr=False)


def run_crawl(spider: str, workdir: Path, args: dict | None = None, settings: dict | None = None,
              timeout: float = 180, env: dict | None = None) -> CrawlResult:
    """Run ``scrapy crawl`` in a subprocess, as a user would, and read back what it wrote."""
    workdir.mkdir(parents=True, exist_ok=True)
    items, errors, stats = workdir / "items.jsonl", workdir / "errors.jsonl", workdir / "stats.json"
    command = [sys.executable, "-m", "scrapy", "crawl", spider, "-O", str(items)]
    for name, value in (args or {}).items():
        command += ["-a", f"{name}={value}"]
    merged = {**TEST_CRAWL_SETTINGS, "CRAWLFORGE_STATS_FILE": str(stats),
              "CRAWLFORGE_ERRORS_FEED": str(errors), **(settings or {})}
    for name, value in merged.items():
        command += ["-s", f"{name}={value}"]
    process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                             env={**os.environ, **(env or {})})
    return CrawlResult(
        returncode=process.returncode,
        items=read_jsonl(items),
        errors=read_jsonl(errors),
        stats=json.loads(stats.read_text()) if stats.exists() else {},
        log=process.stderr,
        workdir=workdir,
    )


@pytest.fixture
def crawl(tmp_path):
    """``crawl(spider, args=..., settings=...)`` runs a real crawl in a fresh folder."""
    runs = iter(range(1000))

    def run(spider: str, **kwargs) -> CrawlResult:
        return run_crawl(spider, tmp_path / f"run{next(runs)}", **kwargs)

    return run
