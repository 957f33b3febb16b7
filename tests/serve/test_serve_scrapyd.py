"""``POST /crawl`` as a scrapyd job (``CRAWLFORGE_API_SCRAPYD_URL``): a real scrapyd with the
project deployed, the demo site crawled and read back through ``GET /crawl/<id>``."""

from __future__ import annotations

import time

from services import scrapyd_url  # noqa: F401 - a fixture
from test_scrapyd import deploy
from tests.serving import Served


def test_crawl_runs_as_a_scrapyd_job(scrapyd_url, fixture_server, tmp_path):
    assert deploy(scrapyd_url).returncode == 0
    served = Served(settings={"CRAWLFORGE_API_SCRAPYD_URL": scrapyd_url, "CRAWLFORGE_API_JOBS_DIR": str(tmp_path / "jobs")})
    try:
        start = fixture_server.url("/demo/index.html")
        status, started = served.request("/crawl", {"url": start, "max_pages": 4})
        assert status == 200 and started["ok"], started
        deadline = time.monotonic() + 120
        while (state := served.request(f"/crawl/{started['id']}")[1])["state"] == "running":
            assert time.monotonic() < deadline, state
            time.sleep(0.5)
    finally:
        log = served.stop()
    assert (state["state"], state["finish_reason"]) == ("finished", "finished"), (state, log[-2000:])
    assert state["counts"]["requested"] == 4
    assert state["counts"]["items"] == len(state["items"]) >= 1
    assert state["items"][0]["url"] == start and state["items"][0]["markdown"]
