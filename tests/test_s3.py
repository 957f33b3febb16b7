"""Feeds and documents to S3: a real S3-compatible server (moto_server on 127.0.0.1) receives the
JSONL feed (FEEDS with an s3:// URI) and one markdown document per page (an s3:// prefix); and
an S3 feed of a crawl killed with SIGKILL and resumed holds every page."""

import hashlib
import json
import re
import signal
import subprocess

import boto3

from conftest import ROOT
from crawlforge.extract.frontmatter import parse_document
from crawlforge.testing.server import generated_page
from services import crawl_command, s3_endpoint, start_crawl  # noqa: F401 - s3_endpoint is a fixture
from test_resume import wait_for_items

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION_NAME": "us-east-1"}
PAGES = ["demo/products/ikea_gb_moeckelby_table_jsonld.html", "demo/news/blog.python.org.html"]


def test_jsonl_feed_and_markdown_documents_land_in_s3(fixture_server, s3_endpoint, tmp_path):
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="testing",
                      aws_secret_access_key="testing", region_name="us-east-1")
    s3.create_bucket(Bucket="harvest")
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join(fixture_server.url(page) for page in PAGES))
    feeds = {"s3://harvest/feeds/%(name)s.jsonl": {"format": "jsonlines"}}
    settings = {**CREDENTIALS, "AWS_ENDPOINT_URL": s3_endpoint, "FEEDS": json.dumps(feeds)}
    command = crawl_command("site", None, {"urls_file": urls, "follow": 0, "documents_dir": "s3://harvest/docs/"},
                            settings)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]

    feed = s3.get_object(Bucket="harvest", Key="feeds/site.jsonl")["Body"].read().decode("utf-8")
    items = [json.loads(line) for line in feed.splitlines()]
    assert sorted(item["url"] for item in items) == sorted(fixture_server.url(page) for page in PAGES)
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket="harvest", Prefix="docs/")["Contents"]]
    assert len(keys) == 2 and all(key.endswith(".md") for key in keys)
    documents = [s3.get_object(Bucket="harvest", Key=key)["Body"].read().decode("utf-8") for key in keys]
    assert {parse_document(text)[0]["url"] for text in documents} == {item["url"] for item in items}
    head = s3.head_object(Bucket="harvest", Key=keys[0])
    assert head["ContentType"] == "text/markdown; charset=utf-8"


def spooled_lines(jobdir) -> int:
    return sum(path.read_bytes().count(b"\n") for path in (jobdir / "feed-spool").glob("*.jsonl"))


class SpoolFile:
    """What ``wait_for_items`` polls: the lines spooled so far."""

    def __init__(self, jobdir):
        self.jobdir = jobdir

    def exists(self) -> bool:
        return (self.jobdir / "feed-spool").exists()

    def read_bytes(self) -> bytes:
        return b"\n" * spooled_lines(self.jobdir)


def test_s3_feed_of_a_killed_and_resumed_crawl_holds_every_page(fixture_server, s3_endpoint, tmp_path):
    total = 60
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="testing",
                      aws_secret_access_key="testing", region_name="us-east-1")
    s3.create_bucket(Bucket="harvest")
    jobdir = tmp_path / "job"
    feeds = {"s3://harvest/feeds/items.jsonl": {"format": "jsonlines"}}
    settings = {**CREDENTIALS, "AWS_ENDPOINT_URL": s3_endpoint, "FEEDS": json.dumps(feeds),
                "JOBDIR": str(jobdir), "CONCURRENT_REQUESTS": 4, "DOWNLOAD_DELAY": 0.05}
    args = {"url": fixture_server.url(f"/_gen/{total}/0")}
    killed, _ = start_crawl("site", tmp_path / "run1", args, settings)
    wait_for_items(SpoolFile(jobdir), 15, killed)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert "Contents" not in s3.list_objects_v2(Bucket="harvest")  # nothing uploaded: it was killed

    resumed, _ = start_crawl("site", tmp_path / "run2", args, settings)
    assert resumed.wait(timeout=180) == 0
    feed = s3.get_object(Bucket="harvest", Key="feeds/items.jsonl")["Body"].read().decode("utf-8")
    items = [json.loads(line) for line in feed.splitlines()]
    urls = [item["url"] for item in items]
    assert set(urls) == {fixture_server.url(f"/_gen/{total}/{i}") for i in range(total)}
    twice = {url for url in urls if urls.count(url) > 1}
    assert twice <= {item["url"] for item in items if item["resumed_refetch"]}  # only the in-flight ones
    assert len(twice) <= 4 * 4
    assert list((jobdir / "feed-spool").glob("*.jsonl"))  # uploaded, and kept for the job's next run


def reachable(total: int, missing: set[int]) -> set[int]:
    """The pages of the ``/_gen/<total>`` site a crawl from page 0 finds when ``missing`` are 404s."""
    found, queue = {0}, [0]
    while queue:
        page = queue.pop()
        if page in missing:
            continue
        for link in map(int, re.findall(rb'href="/_gen/%d/(\d+)"' % total, generated_page(total, page))):
            if link not in found:
                found.add(link)
                queue.append(link)
    return found


class ItemsSpool:
    """What ``wait_for_items`` polls: the spool of one S3 feed."""

    def __init__(self, jobdir, uri: str):
        self.path = jobdir / "feed-spool" / f"{hashlib.sha1(uri.encode()).hexdigest()}.jsonl"

    def exists(self) -> bool:
        return self.path.exists()

    def read_bytes(self) -> bytes:
        return self.path.read_bytes()


def s3_crawl_with_errors(fixture_server, s3_endpoint, tmp_path, kills: list[int]):
    """Crawl a generated site of which some pages are 404s, items and errors to S3 with JOBDIR,
    killed with SIGKILL once the items spool holds each count in ``kills``, then run to its end."""
    total = 123
    missing = set(range(5, total, 10))
    for page in missing:
        fixture_server.failing[f"/_gen/{total}/{page}"] = (404, 1000)
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="testing",
                      aws_secret_access_key="testing", region_name="us-east-1")
    s3.create_bucket(Bucket="harvest")
    jobdir, uri = tmp_path / "job", "s3://harvest/feeds/items.jsonl"
    settings = {**CREDENTIALS, "AWS_ENDPOINT_URL": s3_endpoint, "FEEDS": json.dumps({uri: {"format": "jsonlines"}}),
                "JOBDIR": str(jobdir), "CONCURRENT_REQUESTS": 4, "DOWNLOAD_DELAY": 0.02}
    args = {"url": fixture_server.url(f"/_gen/{total}/0")}
    command = crawl_command("site", None, args, settings)  # the errors feed is named after the S3 feed
    try:
        for run, count in enumerate(kills):
            killed = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_for_items(ItemsSpool(jobdir, uri), count, killed)
            killed.send_signal(signal.SIGKILL)
            killed.wait()
        last = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
        assert last.returncode == 0, last.stderr[-3000:]
    finally:
        for page in missing:
            fixture_server.failing.pop(f"/_gen/{total}/{page}", None)

    def lines(key):
        return [json.loads(line) for line in
                s3.get_object(Bucket="harvest", Key=key)["Body"].read().decode("utf-8").splitlines()]

    items, errors = lines("feeds/items.jsonl"), lines("feeds/items.errors.jsonl")
    pages = reachable(total, missing)
    assert {item["url"] for item in items} == {fixture_server.url(f"/_gen/{total}/{i}") for i in pages - missing}
    assert {error["url"] for error in errors} == {fixture_server.url(f"/_gen/{total}/{i}") for i in missing & pages}
    assert all(error["reason"] == "http_error" and error["status"] == 404 for error in errors)
    urls = [item["url"] for item in items]
    assert {url for url in urls if urls.count(url) > 1} <= {item["url"] for item in items if item["resumed_refetch"]}
    print(f"{len(items)} items for {len(pages - missing)} pages, {len(errors)} errors for {len(missing & pages)} 404s")


def test_s3_items_and_errors_feeds_of_a_crawl_killed_twice_hold_every_page_and_error(
        fixture_server, s3_endpoint, tmp_path):
    s3_crawl_with_errors(fixture_server, s3_endpoint, tmp_path, kills=[25, 70])


def test_s3_items_and_errors_feeds_with_jobdir_hold_every_page_and_error(fixture_server, s3_endpoint, tmp_path):
    s3_crawl_with_errors(fixture_server, s3_endpoint, tmp_path, kills=[])
