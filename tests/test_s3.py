"""Feeds and documents to S3: a real S3-compatible server (moto_server on 127.0.0.1) receives the
JSONL feed (FEEDS with an s3:// URI) and one markdown document per page (an s3:// prefix); and
an S3 feed of a crawl killed with SIGKILL and resumed holds every page."""

import json
import signal
import subprocess

import boto3

from conftest import ROOT
from crawlforge.extract.frontmatter import parse_document
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
    assert not list((jobdir / "feed-spool").glob("*.jsonl"))  # uploaded, then deleted
