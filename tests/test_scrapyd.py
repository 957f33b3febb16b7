"""scrapyd: a real scrapyd on 127.0.0.1, the project deployed with `scrapyd-deploy env` (the
scrapy.cfg target reading $SCRAPYD_URL), a crawl scheduled through schedule.json, its feed read."""

import json
import os
import shutil
import subprocess
import time
from urllib.parse import urlencode
from urllib.request import urlopen

from conftest import ROOT, read_jsonl
from services import VENV_BIN, scrapyd_url  # noqa: F401 - scrapyd_url is a fixture


def api(base: str, endpoint: str, data: list[tuple[str, str]] | None = None) -> dict:
    body = urlencode(data).encode() if data is not None else None
    with urlopen(f"{base}/{endpoint}", data=body, timeout=30) as response:
        answer = json.loads(response.read())
    assert answer["status"] == "ok", answer
    return answer


def wait_finished(base: str, job: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(j["id"] == job for j in api(base, "listjobs.json?project=crawlforge")["finished"]):
            return
        time.sleep(0.5)
    raise AssertionError(f"job {job} did not finish")


def deploy(scrapyd_url: str) -> subprocess.CompletedProcess:
    """`scrapyd-deploy env`; the setup.py and build/ it leaves in the project are removed again
    (a stray setup.py would change what `pip install -e .` builds)."""
    leftovers = [path for path in (ROOT / "setup.py", ROOT / "build") if not path.exists()]
    try:
        return subprocess.run([str(VENV_BIN / "scrapyd-deploy"), "env", "--version", "r1"], cwd=ROOT,
                              capture_output=True, text=True, timeout=180,
                              env={**os.environ, "SCRAPYD_URL": scrapyd_url + "/"})
    finally:
        for path in leftovers:
            shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)


def test_deploy_schedule_and_read_the_jobs_feed(fixture_server, scrapyd_url, tmp_path):
    deployed = deploy(scrapyd_url)
    assert deployed.returncode == 0, deployed.stderr[-2000:]
    assert "site" in api(scrapyd_url, "listspiders.json?project=crawlforge")["spiders"]

    feed = tmp_path / "items.jsonl"
    page = fixture_server.url("/demo/news/blog.python.org.html")
    job = api(scrapyd_url, "schedule.json", [
        ("project", "crawlforge"), ("spider", "site"), ("url", page), ("follow", "0"),
        ("setting", "FEEDS=" + json.dumps({feed.as_uri(): {"format": "jsonlines"}})),
        ("setting", "AUTOTHROTTLE_ENABLED=False"), ("setting", "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS=True"),
    ])["jobid"]
    wait_finished(scrapyd_url, job)
    items = read_jsonl(feed)
    assert [item["url"] for item in items] == [page]
    assert items[0]["markdown"].strip()

    # a job that produced nothing: its log ends with the crawl command's summary line
    failed = api(scrapyd_url, "schedule.json", [
        ("project", "crawlforge"), ("spider", "site"), ("url", fixture_server.url("/missing.html")),
        ("follow", "0"), ("setting", "AUTOTHROTTLE_ENABLED=False"),
        ("setting", "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS=True"),
    ])["jobid"]
    wait_finished(scrapyd_url, failed)
    log = (tmp_path / "scrapyd" / "logs" / "crawlforge" / "site" / f"{failed}.log").read_text()
    assert log.strip().splitlines()[-1].endswith("Crawl failed: no item: 1 URL failed (http_error 1)")
