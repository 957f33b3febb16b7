"""Real services for the harvesting tests: redis-server, moto_server (S3) and scrapyd, each
started on a free 127.0.0.1 port by a fixture and stopped after it; and crawls run in the
background (``start_crawl``) so a test can run two at once or kill one."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, TEST_CRAWL_SETTINGS

VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"{process.args[0]} did not listen on {port}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def service(command: list[str], port: int, log: Path, **kwargs) -> subprocess.Popen:
    """Start a server that logs to ``log`` and wait until it listens on ``port``."""
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, **kwargs)
    try:
        wait_for_port(port, process)
    except Exception:
        stop(process)
        raise
    return process


def tool(name: str) -> str:
    """An executable from the venv (moto_server, scrapyd) or the system (redis-server)."""
    path = VENV_BIN / name
    found = str(path) if path.exists() else shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed (make test installs it)")
    return found


@pytest.fixture
def redis_url(tmp_path):
    """A fresh redis-server without persistence; its URL."""
    port = free_port()
    process = service([tool("redis-server"), "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                       "--appendonly", "no", "--dir", str(tmp_path)], port, tmp_path / "redis.log")
    yield f"redis://127.0.0.1:{port}/0"
    stop(process)


@pytest.fixture
def s3_endpoint(tmp_path):
    """moto_server, an S3-compatible server; its endpoint URL (any key and secret work)."""
    port = free_port()
    process = service([tool("moto_server"), "-H", "127.0.0.1", "-p", str(port)], port, tmp_path / "moto.log")
    yield f"http://127.0.0.1:{port}"
    stop(process)


@pytest.fixture
def scrapyd_url(tmp_path):
    """scrapyd with its eggs, logs and items in ``tmp_path/scrapyd``; its URL."""
    port, home = free_port(), tmp_path / "scrapyd"
    home.mkdir()
    (home / "scrapyd.conf").write_text(
        f"[scrapyd]\nbind_address = 127.0.0.1\nhttp_port = {port}\neggs_dir = {home / 'eggs'}\n"
        f"logs_dir = {home / 'logs'}\nitems_dir =\ndbs_dir = {home / 'dbs'}\nmax_proc = 2\npoll_interval = 0.5\n")
    process = service([tool("scrapyd")], port, tmp_path / "scrapyd.log", cwd=home)
    yield f"http://127.0.0.1:{port}"
    stop(process)


def crawl_command(spider: str, items: Path | None, args: dict | None = None,
                  settings: dict | None = None) -> list[str]:
    """``scrapy crawl`` as conftest's ``run_crawl`` runs it, appending to ``items`` (``-o``);
    without ``items``, the FEEDS setting says where items go."""
    command = [sys.executable, "-m", "scrapy", "crawl", spider] + (["-o", f"{items}:jsonlines"] if items else [])
    for name, value in (args or {}).items():
        command += ["-a", f"{name}={value}"]
    for name, value in {**TEST_CRAWL_SETTINGS, **(settings or {})}.items():
        command += ["-s", f"{name}={value}"]
    return command


def start_crawl(spider: str, workdir: Path, args: dict | None = None, settings: dict | None = None,
                env: dict | None = None) -> tuple[subprocess.Popen, Path]:
    """A crawl running in the background; its process and its feed's path."""
    workdir.mkdir(parents=True, exist_ok=True)
    items = workdir / "items.jsonl"
    settings = {"CRAWLFORGE_STATS_FILE": str(workdir / "stats.json"), **(settings or {})}
    process = subprocess.Popen(crawl_command(spider, items, args, settings), cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=(workdir / "log.txt").open("wb"),
                               env={**os.environ, **(env or {})})
    return process, items
