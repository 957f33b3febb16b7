"""A big page is worked on in the page thread (crawlforge.pagework), with the same result as on
the reactor: the demo site crawled with every page threaded gives the items of a crawl with none."""

from __future__ import annotations

import re


def comparable(items: list[dict]) -> list[dict]:
    """The items without this run's times."""
    kept = []
    for item in sorted(items, key=lambda item: item["url"]):
        item = {k: v for k, v in item.items() if k not in ("processed_at", "fetched_at", "download_latency")}
        item["document"] = re.sub(r"(?m)^processed_at: .*$", "", item.get("document") or "")
        kept.append(item)
    return kept


def test_pages_worked_on_in_the_thread_give_the_items_of_the_reactor(fixture_server, crawl):
    args = {"url": fixture_server.url("/demo/"), "max_depth": 1}
    threaded = crawl("site", args=args, settings={"CRAWLFORGE_PAGE_THREAD_MIN_CHARS": 1})
    on_reactor = crawl("site", args=args, settings={"CRAWLFORGE_PAGE_THREAD_MIN_CHARS": 0})
    assert threaded.returncode == on_reactor.returncode == 0, threaded.log[-2000:]
    assert len(threaded.items) >= 11
    assert threaded.stats["pagework/threaded"] >= 4 * len(threaded.items)  # verdict, links, 2 pipelines...
    assert "pagework/threaded" not in on_reactor.stats
    assert comparable(threaded.items) == comparable(on_reactor.items)
