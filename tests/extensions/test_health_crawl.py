"""The health check in real template crawls: a field the site stopped sending fails the crawl."""

import json
import shutil
import subprocess
import sys

from conftest import FIXTURES, ROOT

COLLECTION = FIXTURES / "templates" / "shopify" / "deathwishcoffee-collection.json"


def serve_collection(make_server, folder, drop_field=None):
    """The real collection served as a storefront pages it; ``drop_field`` is the fault case."""
    folder.mkdir(exist_ok=True)
    shutil.copyfile(COLLECTION, folder / "collection.json")
    if drop_field:
        data = json.loads(COLLECTION.read_text(encoding="utf-8"))
        for product in data["products"]:
            del product[drop_field]
        (folder / "collection.json").write_text(json.dumps(data), encoding="utf-8")
    return make_server(folder).url("/_paged/collection.json/collections/all")


def save_baseline(feed, path):
    command = [sys.executable, "-m", "scrapy", "health", str(feed), "--save", str(path)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return path


def test_a_field_removed_on_the_second_run_fails_it_and_an_unchanged_rerun_passes(make_server, crawl, tmp_path):
    url = serve_collection(make_server, tmp_path / "site")
    good = crawl("shopify-collection", args={"url": url})
    assert good.returncode == 0, good.log[-3000:]
    assert good.stats["fields/shopify-collection/vendor/filled"] == 2
    baseline = save_baseline(good.workdir / "items.jsonl", tmp_path / "baseline.json")
    with_baseline = {"CRAWLFORGE_HEALTH_BASELINE": baseline}

    broken = crawl("shopify-collection", args={"url": serve_collection(make_server, tmp_path / "site2", "vendor")},
                   settings=with_baseline)
    assert len(broken.items) == 2  # the crawl itself went fine: only the extraction broke
    assert broken.returncode == 3
    message = "shopify-collection: field 'vendor' fill rate fell from 100% (2/2) to 0% (0/2)"
    assert broken.stats["health/messages"] == [message]
    assert broken.log.count(message) == 1  # said once, by the health check; the last line points to it
    assert broken.log.strip().splitlines()[-1].endswith(
        "ERROR: Crawl failed its health check (1 alarm above): 2 items, 0 URLs failed")

    again = crawl("shopify-collection", args={"url": url}, settings=with_baseline)
    assert again.returncode == 0, again.log[-3000:]
    assert again.stats["health/alarms"] == 0
    assert "health check failed" not in again.log


def test_without_a_baseline_a_required_field_gone_fails_the_crawl(make_server, crawl, tmp_path):
    result = crawl("shopify-collection", args={"url": serve_collection(make_server, tmp_path / "s", "title")})
    assert result.returncode == 3
    assert result.stats["health/messages"] == [
        "shopify-collection: required field 'title' is empty in 100% of items (2/2; allowed 20%)"]
