"""The archive (issue 21): a real crawl of the fixture site writes WARC files that warcio, a tool
nobody here wrote, checks and indexes; ``scrapy reextract`` runs the page pipeline again from
them, offline, and gives the crawl's items; the writer rotates files and a cut file stays
readable up to its last complete record."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from conftest import FIXTURES, ROOT, read_jsonl
from services import s3_endpoint  # noqa: F401 - a fixture
from crawlforge.archive.index import ArchiveError, index_archive, read_record
from crawlforge.archive.warc import ArchiveWriter, Exchange

WARCIO = str(Path(sys.executable).parent / "warcio")
FETCH_TIME_FIELDS = ("fetched_at", "download_latency")


def records(folder: Path) -> list:
    """(type, target URI, payload digest, record) of every record, in order."""
    out = []
    for path in sorted(folder.glob("*.warc.gz")):
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                headers = record.rec_headers
                out.append((record.rec_type, headers.get_header("WARC-Target-URI"), dict(headers.headers),
                            record.http_headers, record.content_stream().read()))
    return out


def items_digest(items: list[dict]) -> str:
    """The items without the times of this run: processed_at in the document, fetch times."""
    kept = []
    for item in sorted(items, key=lambda item: item["url"]):
        item = {k: v for k, v in item.items() if k not in FETCH_TIME_FIELDS}
        if "document" in item:
            item["document"] = re.sub(r"(?m)^processed_at: .*$", "", item["document"])
        kept.append(item)
    return hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()


def reextract(files: list, workdir: Path, *options: str) -> subprocess.CompletedProcess:
    workdir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "scrapy", "reextract", *map(str, files), "-O", str(workdir / "items.jsonl"),
               "-s", f"CRAWLFORGE_STATS_FILE={workdir / 'stats.json'}",
               "-s", f"CRAWLFORGE_ERRORS_FEED={workdir / 'errors.jsonl'}", *options]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)


def warcio(*args) -> subprocess.CompletedProcess:
    return subprocess.run([WARCIO, *map(str, args)], capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def archived_crawl(fixture_server, tmp_path_factory):
    """The demo site crawled two links deep with the archive on, plus a 404 and a redirect."""
    from conftest import run_crawl
    workdir = tmp_path_factory.mktemp("archived")
    urls = workdir / "urls.txt"
    urls.write_text("\n".join([fixture_server.url("/demo/"), fixture_server.url("/_status/404/demo/index.html"),
                               fixture_server.url("/_redirect/1/markdown/lemire.me.json.html")]))
    result = run_crawl("site", workdir / "crawl", args={"urls_file": urls, "max_depth": 1,
                                                       "archive": workdir / "warc"})
    assert result.returncode == 0, result.log[-3000:]
    return result, workdir / "warc"


def test_every_fetched_url_has_its_request_and_response_records(archived_crawl, fixture_server):
    result, folder = archived_crawl
    written = records(folder)
    assert written[0][0] == "warcinfo"
    responses = [uri for kind, uri, *_ in written if kind == "response"]
    requests = [uri for kind, uri, *_ in written if kind == "request"]
    assert sorted(responses) == sorted(requests)  # each response with the request that got it
    assert len(responses) == result.stats["response_received_count"] + result.stats.get(
        "downloader/response_status_count/302", 0)
    for item in result.items:
        assert item["final_url"] in responses
    assert fixture_server.url("/robots.txt") in responses
    assert fixture_server.url("/_redirect/1/markdown/lemire.me.json.html") in responses  # the hop
    assert result.stats["archive/records"] == len(written) - 1  # all but the warcinfo


def test_error_pages_are_archived_with_their_status_and_body(archived_crawl, fixture_server):
    _, folder = archived_crawl
    url = fixture_server.url("/_status/404/demo/index.html")
    [(_, _, fields, http, body)] = [r for r in records(folder) if r[0] == "response" and r[1] == url]
    assert http.get_statuscode() == "404"
    assert body == (FIXTURES / "demo" / "index.html").read_bytes()
    assert fields["WARC-Payload-Digest"].startswith("sha1:")
    request = next(r for r in records(folder) if r[0] == "request" and r[1] == url)
    assert request[2]["WARC-Concurrent-To"] == fields["WARC-Record-ID"]
    assert (request[3].protocol, request[3].statusline) == ("GET", "/_status/404/demo/index.html HTTP/1.1")


def test_warcio_check_and_index_read_the_archive(archived_crawl):
    _, folder = archived_crawl
    files = sorted(folder.glob("*.warc.gz"))
    check = warcio("check", "-v", *files)
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
    assert "digest pass" in check.stdout and "fail" not in check.stdout
    index = warcio("index", "-f", "warc-type,warc-target-uri", *files)
    assert index.returncode == 0
    assert sum('"response"' in line for line in index.stdout.splitlines()) >= 12


def test_reextract_gives_the_crawls_items_offline(archived_crawl, tmp_path):
    result, folder = archived_crawl
    done = reextract([folder], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    items = read_jsonl(tmp_path / "items.jsonl")
    assert len(items) == len(result.items) >= 11
    assert items_digest(items) == items_digest(result.items)
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["archive/replay/unused"] == 0 and "archive/replay/missing" not in stats
    assert stats["ledger/requested"] == stats["ledger/items"] + stats["ledger/errors"] == result.stats["ledger/requested"]
    assert sorted(e["url"] for e in read_jsonl(tmp_path / "errors.jsonl")) == sorted(e["url"] for e in result.errors)


def test_reextract_accounts_for_urls_the_archive_lacks(archived_crawl, tmp_path):
    _, folder = archived_crawl
    done = reextract(sorted(folder.glob("*.warc.gz")), tmp_path, "-a", "max_depth=2",
                     "-s", "CRAWLFORGE_HEALTH_ENABLED=False")  # most URLs missing would be an alarm
    assert done.returncode == 0, done.stderr[-3000:]
    errors = read_jsonl(tmp_path / "errors.jsonl")
    missing = [e for e in errors if e["reason"] == "not_archived"]
    assert missing and all("is not in the archive" in e["detail"] for e in missing)
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["archive/replay/missing"] == len(missing)
    assert stats["ledger/requested"] == stats["ledger/items"] + stats["ledger/errors"]


def test_reextract_refuses_a_file_that_is_not_an_archive(tmp_path):
    bogus = tmp_path / "notes.warc.gz"
    bogus.write_text("not a web archive\n")
    done = reextract([bogus], tmp_path / "out")
    assert done.returncode == 2
    assert "reextract:" in done.stderr and "Traceback" not in done.stderr


def test_compressed_responses_are_archived_as_served(fixture_server, crawl, tmp_path):
    gz = "sitemaps/sitemap_sitemaps_org.xml.gz"
    url = fixture_server.url(f"/_headers/Content-Encoding=gzip;Content-Type=text%2Fhtml/{gz}")
    result = crawl("site", args={"url": url, "follow": 0, "archive": tmp_path / "warc"})
    assert result.returncode == 0, result.log[-3000:]
    [response] = [r for r in records(tmp_path / "warc") if r[0] == "response" and r[1] == url]
    raw = (FIXTURES / gz).read_bytes()
    assert response[3].get_header("Content-Encoding") == "gzip"
    assert response[2]["WARC-Payload-Digest"] == "sha1:" + _base32_sha1(raw)
    check = warcio("check", *sorted((tmp_path / "warc").glob("*.warc.gz")))
    assert check.returncode == 0, check.stdout


def _base32_sha1(data: bytes) -> str:
    import base64
    return base64.b32encode(hashlib.sha1(data).digest()).decode()


def exchange(n: int, size: int = 20_000) -> Exchange:
    body = random.Random(n).randbytes(size)  # does not compress: sizes are predictable
    return Exchange(url=f"http://example.org/page/{n}", status=200,
                    headers=[("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")], body=body)


def test_files_rotate_at_the_size_limit_each_with_its_warcinfo(tmp_path):
    writer = ArchiveWriter(tmp_path, "test", max_bytes=8_000, info={"crawlforge-spider": "site"})
    for n in range(20):
        writer.write_exchange(exchange(n))
    writer.close()
    assert len(writer.files) > 3
    index = index_archive(writer.files)
    assert len(index) == 20 and not index.truncated
    for path in writer.files:
        with path.open("rb") as stream:
            kinds = [record.rec_type for record in ArchiveIterator(stream)]
        assert kinds[0] == "warcinfo" and kinds[1:] == ["response", "request"] * (len(kinds) // 2)
    archived = read_record(index.records[("http://example.org/page/7", False)][0])
    assert archived.body == exchange(7).body
    assert ("Transfer-Encoding", "chunked") in archived.headers  # stored renamed: the body is not chunked
    assert warcio("check", *writer.files).returncode == 0


def test_a_file_cut_mid_record_is_read_up_to_its_last_complete_record(tmp_path):
    writer = ArchiveWriter(tmp_path, "cut", max_bytes=10**9, info={})
    for n in range(10):
        writer.write_exchange(exchange(n))
    writer.close()
    [path] = writer.files
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 5_000])  # the last response record loses its end
    index = index_archive([path])
    assert len(index) == 9 and index.truncated == [str(path)]
    assert ("http://example.org/page/9", False) not in index.records
    assert read_record(index.records[("http://example.org/page/8", False)][0]).body == exchange(8).body


def test_a_file_that_is_not_warc_is_refused_in_one_line(tmp_path):
    bogus = tmp_path / "x.warc.gz"
    bogus.write_bytes(b"\x00garbage" * 10)
    with pytest.raises(ArchiveError, match="not a WARC file"):
        index_archive([bogus])


@pytest.mark.browser
def test_a_rendered_page_is_archived_as_its_dom_and_reextracted_without_a_browser(make_server, crawl, tmp_path):
    from crawlforge.browser.chromium import find_chromium
    if find_chromium() is None:
        pytest.skip("needs Debian's chromium (make test installs it)")
    server = make_server(FIXTURES)
    url = server.url("browser/synthetic_js_article.html")
    result = crawl("site", args={"url": url, "render": "auto", "follow": 0, "archive": tmp_path / "warc"},
                   settings={"CRAWLFORGE_RENDER_TIMEOUT": "4"})
    assert result.returncode == 0, result.log[-3000:]
    [item] = result.items
    assert item["rendered"] is True
    written = records(tmp_path / "warc")
    [plain] = [r for r in written if r[0] == "response" and r[1] == url]
    [dom] = [r for r in written if r[0] == "conversion"]
    assert dom[2]["WARC-Refers-To"] == plain[2]["WARC-Record-ID"]
    assert b"<title>Rendered by JavaScript</title>" in dom[4] and b"<title>Loading" in plain[4]
    done = reextract([tmp_path / "warc"], tmp_path / "again", "-s", "CRAWLFORGE_CHROMIUM_PATH=/nonexistent")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "scrapy-playwright" not in done.stderr
    assert items_digest(read_jsonl(tmp_path / "again" / "items.jsonl")) == items_digest(result.items)


def test_kill_9_leaves_the_archive_readable_up_to_the_last_complete_record(fixture_server, tmp_path):
    import signal
    import time
    from services import start_crawl
    folder = tmp_path / "warc"
    process, _ = start_crawl("site", tmp_path / "crawl",
                             args={"url": fixture_server.url("/_gen/400/0"), "archive": folder},
                             settings={"CONCURRENT_REQUESTS": "2", "DOWNLOAD_DELAY": "0.02"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and sum(p.stat().st_size for p in folder.glob("*.warc.gz")) < 40_000:
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    files = sorted(folder.glob("*.warc.gz"))
    index = index_archive(files)
    assert len(index) > 20
    pages = [locations[0] for (url, _), locations in index.records.items() if "/_gen/" in url]
    assert len(pages) > 20
    for location in pages:
        archived = read_record(location)
        assert archived.status == 200 and archived.body.rstrip().endswith(b"</html>")


@pytest.mark.s3
def test_archive_files_land_under_an_s3_prefix(fixture_server, s3_endpoint, tmp_path):
    import boto3
    from services import crawl_command
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="testing",
                      aws_secret_access_key="testing", region_name="us-east-1")
    s3.create_bucket(Bucket="harvest")
    settings = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION_NAME": "us-east-1",
                "AWS_ENDPOINT_URL": s3_endpoint, "CRAWLFORGE_ARCHIVE_MAX_BYTES": "20000"}
    command = crawl_command("site", tmp_path / "items.jsonl",
                            {"url": fixture_server.url("/demo/"), "max_depth": 1, "archive": "s3://harvest/warc/"},
                            settings)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket="harvest", Prefix="warc/")["Contents"]]
    assert len(keys) > 1 and all(key.endswith(".warc.gz") for key in keys)  # rotated, every file sent
    local = []
    for key in keys:
        local.append(tmp_path / key.rsplit("/", 1)[1])
        local[-1].write_bytes(s3.get_object(Bucket="harvest", Key=key)["Body"].read())
    index = index_archive(sorted(local))
    urls = {url for url, _ in index.records}
    assert {item["final_url"] for item in read_jsonl(tmp_path / "items.jsonl")} <= urls


@pytest.mark.s3
def test_an_s3_archive_of_a_killed_crawl_is_uploaded_when_it_resumes(fixture_server, s3_endpoint, tmp_path):
    import signal
    import time

    import boto3
    from services import start_crawl
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="testing",
                      aws_secret_access_key="testing", region_name="us-east-1")
    s3.create_bucket(Bucket="harvest")
    jobdir = tmp_path / "job"
    settings = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION_NAME": "us-east-1",
                "AWS_ENDPOINT_URL": s3_endpoint, "JOBDIR": str(jobdir), "CONCURRENT_REQUESTS": "2",
                "DOWNLOAD_DELAY": "0.02"}
    args = {"url": fixture_server.url("/_gen/120/0"), "archive": "s3://harvest/warc/"}
    killed, _ = start_crawl("site", tmp_path / "run1", args=args, settings=settings)
    spool = jobdir / "archive-spool"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and sum(p.stat().st_size for p in spool.glob("*.warc.gz")) < 20_000:
        time.sleep(0.1)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert "Contents" not in s3.list_objects_v2(Bucket="harvest")  # the killed run's file was still open

    resumed, _ = start_crawl("site", tmp_path / "run2", args=args, settings=settings)
    assert resumed.wait(timeout=180) == 0
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket="harvest", Prefix="warc/")["Contents"]]
    assert len(keys) == 2  # the killed run's file and the resumed run's
    local = []
    for key in keys:
        local.append(tmp_path / key.rsplit("/", 1)[1])
        local[-1].write_bytes(s3.get_object(Bucket="harvest", Key=key)["Body"].read())
    urls = {url for url, _ in index_archive(sorted(local)).records}
    assert {fixture_server.url(f"/_gen/120/{i}") for i in range(120)} <= urls
    assert not list(spool.glob("*.warc.gz"))  # uploaded, then deleted


def test_an_archive_folder_that_cannot_be_made_is_a_bad_argument(fixture_server, crawl, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = crawl("site", args={"url": fixture_server.url("/demo/"), "archive": blocker / "warc"})
    assert result.returncode == 2
    assert "-a archive: cannot write WARC files into" in result.log
    assert "Traceback" not in result.log


def test_a_record_the_writer_cannot_write_is_logged_and_the_response_goes_on(tmp_path, caplog):
    """The archive's folder replaced by a file mid-crawl: the writer fails on its next file;
    the response passes on unchanged, the failure is logged and counted."""
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.test import get_crawler

    from crawlforge.middlewares.archive import ArchiveMiddleware
    from crawlforge.spiders.site import SiteSpider

    crawler = get_crawler(SiteSpider, {"CRAWLFORGE_ARCHIVE": str(tmp_path / "warc"), "CRAWLFORGE_ARCHIVE_MAX_BYTES": 1})
    crawler.spider = SiteSpider.from_crawler(crawler, url="http://example.org/")
    crawler.stats.open_spider()
    middleware = ArchiveMiddleware.from_crawler(crawler)
    request = Request("http://example.org/a")
    first = middleware.process_response(request, HtmlResponse(request.url, body=b"<p>a</p>", request=request))
    shutil.rmtree(tmp_path / "warc")
    (tmp_path / "warc").write_text("now a file")
    request = Request("http://example.org/b")
    response = HtmlResponse(request.url, body=b"<p>b</p>", request=request)
    with caplog.at_level(logging.ERROR):
        assert middleware.process_response(request, response) is response and first.url.endswith("/a")
        asyncio.run(middleware.spider_closed(crawler.spider))
    assert crawler.stats.get_value("archive/records") == 2
    assert crawler.stats.get_value("archive/errors") == 2
    assert "Could not archive the response of http://example.org/b" in caplog.text
