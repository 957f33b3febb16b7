"""A real ``scrapy serve`` for tests: started as a user would, read back over HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.conftest import TEST_CRAWL_SETTINGS

ROOT = Path(__file__).resolve().parent.parent
# the test crawl settings, and a robots.txt fetched like any page (the SSRF guard lets 127.0.0.1 only)
SERVE_SETTINGS = {**TEST_CRAWL_SETTINGS, "LOG_LEVEL": "WARNING"}


def command(name: str, *options: str, settings: dict | None = None) -> list[str]:
    line = [sys.executable, "-m", "scrapy", name, *options]
    for key, value in {**SERVE_SETTINGS, **(settings or {})}.items():
        line += ["-s", f"{key}={value}"]
    return line


def environment() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


class Served:
    """``scrapy serve --port 0`` in a subprocess; ``base`` is the URL its first line printed."""

    def __init__(self, *options: str, settings: dict | None = None):
        self.process = subprocess.Popen(command("serve", "--port", "0", *options, settings=settings),
                                        cwd=ROOT, env=environment(), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.base = self.process.stdout.readline().strip()
        if not self.base.startswith("http://"):
            raise RuntimeError(f"scrapy serve did not start: {self.stop()[-2000:]}")

    def request(self, path: str, body=None, method: str | None = None, headers: dict | None = None,
                timeout: float = 60) -> tuple[int, dict]:
        """(HTTP status, decoded JSON answer); ``body`` is JSON-encoded unless it is bytes."""
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method or ("POST" if data is not None else "GET"),
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self) -> str:
        """Stop it; its log (stderr)."""
        self.process.terminate()
        try:
            _, log = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, log = self.process.communicate()
        return log
