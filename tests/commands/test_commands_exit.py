"""A newcomer's first commands (issue 19): each real command, run as a user runs it, says what
happened and exits with an honest code (README "Exit codes and errors")."""

from __future__ import annotations

import os
import pty
import re
import socket
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone

import pytest

from crawlforge.extract.frontmatter import parse_document
from conftest import ROOT, TEST_CRAWL_SETTINGS

ARTICLE = "demo/news/blog.python.org.html"
PRODUCT = ROOT / "fixtures" / "demo" / "products" / "ikea_gb_moeckelby_table_jsonld.html"


def scrapy(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, **kwargs)


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- 1. the SSRF guard says what it refused and how to allow it ----------------------------------
def test_a_refused_private_address_warns_once_per_host_naming_the_setting(fixture_server, crawl, tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{fixture_server.url(ARTICLE)}\n{fixture_server.url('/demo/')}\n")
    result = crawl("site", args={"urls_file": urls, "follow": 0}, settings={"CRAWLFORGE_ALLOWED_NETWORKS": ""})
    warnings = [line for line in result.log.splitlines() if "WARNING: SSRF guard refused" in line]
    assert len(warnings) == 1, result.log[-3000:]
    assert "127.0.0.1 is not a public address (loopback)" in warnings[0]
    assert "-s CRAWLFORGE_ALLOWED_NETWORKS=127.0.0.1/32" in warnings[0]
    assert result.returncode == 1
    assert last_line(result.log).endswith("Crawl failed: no item: 2 URLs failed (ssrf_refused 2)")


# -- 2. a crawl that produced nothing exits 1 with the reasons ------------------------------------
@pytest.mark.parametrize(("path", "summary"), [
    ("/missing.html", "no item: 1 URL failed (http_error 1)"),
    (None, "no item: 1 URL failed (connection_refused 1)"),
])
def test_a_crawl_with_no_item_and_errors_exits_1_with_a_summary_by_reason(fixture_server, crawl, path, summary):
    url = fixture_server.url(path) if path else f"http://127.0.0.1:{closed_port()}/"
    result = crawl("site", args={"url": url, "follow": 0}, settings={"RETRY_TIMES": "0"})
    assert result.returncode == 1, result.log[-3000:]
    assert last_line(result.log).endswith(f"Crawl failed: {summary}")
    assert not result.items and len(result.errors) == 1


def test_a_template_crawl_that_cannot_fetch_its_api_exits_1(fixture_server, crawl):
    store = fixture_server.base_url.removeprefix("http://")  # the connector asks https:// of it
    result = crawl("shopify-collection", args={"store": store, "collection": "all"}, settings={"RETRY_TIMES": "0"})
    assert result.returncode == 1, result.log[-3000:]
    assert "Crawl failed: no item: 1 URL failed (connection 1)" in last_line(result.log)


def test_a_crawl_with_items_exits_0_even_when_some_urls_failed(fixture_server, crawl, tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{fixture_server.url(ARTICLE)}\n{fixture_server.url('/missing.html')}\n")
    result = crawl("site", args={"urls_file": urls, "follow": 0})
    assert result.returncode == 0, result.log[-3000:]
    assert len(result.items) == len(result.errors) == 1
    assert "Crawl failed" not in result.log


# -- 3. a bad argument or setting: one line, exit 2, no request -----------------------------------
@pytest.mark.parametrize(("args", "settings", "message"), [
    ({"max_pages": "abc"}, {}, "site: -a max_pages must be a whole number, 0 or more, not 'abc'"),
    ({"sitemap": "bogus"}, {}, "site: -a sitemap must be one of never, also, only, not 'bogus'"),
    ({"render": "sometimes"}, {}, "site: -a render must be one of never, auto, always, not 'sometimes'"),
    ({"follow": "maybe"}, {}, "site: -a follow must be one of 1/true/yes/on or 0/false/no/off, not 'maybe'"),
    ({"allow": "("}, {}, "site: -a allow must be a regular expression, not '(' (missing ), unterminated subpattern at position 0)"),
    ({"url": "notaurl"}, {}, "site: -a url must be an absolute URL such as https://example.com/, not 'notaurl'"),
    ({"url": None}, {}, "site: give -a url=URL or -a urls_file=FILE (or seed a Redis crawl)"),
    ({}, {"CRAWLFORGE_MAX_PAGES": "abc"}, "site: CRAWLFORGE_MAX_PAGES must be a whole number, 0 or more, not 'abc'"),
    ({}, {"CRAWLFORGE_MARKDOWN_IMAGES": "sometimes"},
     "site: CRAWLFORGE_MARKDOWN_IMAGES must be one of 1/true/yes/on or 0/false/no/off, not 'sometimes'"),
])
def test_a_bad_argument_is_one_line_and_exit_2_before_any_request(fixture_server, crawl, args, settings, message):
    args = {"url": fixture_server.url("/demo/"), **args}
    result = crawl("site", args={k: v for k, v in args.items() if v is not None}, settings=settings)
    assert result.returncode == 2, result.log[-3000:]
    assert last_line(result.log).endswith(f"ERROR: {message}")
    assert "Traceback" not in result.log and "Task exception" not in result.log
    assert "Spider opened" not in result.log and not result.stats  # no request was made


def test_an_unknown_spider_is_one_line_and_exit_2():
    process = scrapy("crawl", "nosuch")
    assert process.returncode == 2
    assert last_line(process.stderr).endswith("No spider named 'nosuch': `scrapy list` names them")
    assert "Traceback" not in process.stderr


def test_a_spider_argument_beats_the_same_setting_given_with_s(fixture_server, crawl):
    url = fixture_server.url("/demo/products/ikea_gb_moeckelby_table_jsonld.html")
    with_images = crawl("site", args={"url": url, "follow": 0}, settings={"CRAWLFORGE_MARKDOWN_IMAGES": "True"})
    assert "![" in with_images.items[0]["markdown"]
    argument_wins = crawl("site", args={"url": url, "follow": 0, "images": "no"},
                          settings={"CRAWLFORGE_MARKDOWN_IMAGES": "True"})
    assert argument_wins.returncode == 0, argument_wins.log[-3000:]
    assert "![" not in argument_wins.items[0]["markdown"]


# -- 6. commands given a missing, binary or non-HTML input ----------------------------------------
@pytest.fixture
def bad_inputs(tmp_path):
    binary = tmp_path / "synthetic-random.bin"
    binary.write_bytes(os.urandom(200_000))
    pdf = tmp_path / "synthetic-document.pdf"
    pdf.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
    return {"missing": tmp_path / "missing.html", "binary": binary, "pdf": pdf}


@pytest.mark.parametrize(("kind", "message"), [
    ("missing", "missing.html: no such file"),
    ("binary", "synthetic-random.bin: not an HTML page (application/octet-stream)"),
])
def test_markdown_of_a_bad_file_is_one_line_and_exit_2(bad_inputs, kind, message):
    process = scrapy("markdown", bad_inputs[kind])
    assert process.returncode == 2
    assert process.stdout == ""
    assert process.stderr.strip().count("\n") == 0 and process.stderr.strip().endswith(message)


def test_markdown_of_a_pdf_without_pages_exits_2(bad_inputs):
    process = scrapy("markdown", bad_inputs["pdf"])
    assert process.returncode == 2
    assert process.stdout == ""
    assert last_line(process.stderr).endswith("synthetic-document.pdf: the PDF has no pages")


def test_markdown_of_a_url_served_as_pdf_exits_2_and_of_a_404_exits_1(fixture_server):
    allow = ["-s", f"CRAWLFORGE_ALLOWED_NETWORKS={TEST_CRAWL_SETTINGS['CRAWLFORGE_ALLOWED_NETWORKS']}"]
    pdf = scrapy("markdown", fixture_server.url("/_headers/Content-Type=application%2Fpdf/demo/robots.txt"), *allow)
    assert pdf.returncode == 2
    assert last_line(pdf.stderr).endswith("the body has no %PDF- signature, so it is not a PDF")
    missing = scrapy("markdown", fixture_server.url("/missing.html"), *allow)
    assert missing.returncode == 1
    assert last_line(missing.stderr).endswith(f"No page from {fixture_server.url('/missing.html')}: HTTP 404")


def test_markdown_of_a_file_is_the_pipelines_document_with_processed_at_in_utc():
    process = scrapy("markdown", PRODUCT, "--url", "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/")
    assert process.returncode == 0, process.stderr[-3000:]
    frontmatter, markdown = parse_document(process.stdout)
    assert list(frontmatter)[:3] == ["url", "processed_at", "content_length"]
    assert frontmatter["url"] == "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/"
    assert frontmatter["content_length"] == len(PRODUCT.read_bytes())
    processed = datetime.strptime(frontmatter["processed_at"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
    assert abs(datetime.now(timezone.utc) - processed) < timedelta(minutes=2)  # UTC, not local time
    assert frontmatter["structured_data"]["currency"] == "GBP" and "MÖCKELBY" in markdown


@pytest.mark.parametrize("command", ["health", "report"])
@pytest.mark.parametrize(("kind", "message"), [
    ("missing", "missing.html: no such file"),
    ("binary", "synthetic-random.bin: not a JSONL feed (binary data, not UTF-8 text)"),
    ("readme", "README.md: not a JSONL feed (no line is a JSON object)"),
])
def test_health_and_report_of_a_bad_feed_are_one_line_and_exit_2(bad_inputs, tmp_path, command, kind, message):
    path = ROOT / "README.md" if kind == "readme" else bad_inputs[kind]
    process = scrapy(command, path, *(["-o", tmp_path / "r.html"] if command == "report" else []))
    assert process.returncode == 2
    assert process.stderr.strip() == f"scrapy {command}: {path}: {message.split(': ', 1)[1]}"
    assert not (tmp_path / "r.html").exists()


# -- 7. the small things -------------------------------------------------------------------------
def test_a_404_record_does_not_claim_retries_and_a_retried_500_counts_them(fixture_server, crawl, tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{fixture_server.url('/missing.html')}\n{fixture_server.url(f'/_status/500/{ARTICLE}')}\n")
    result = crawl("site", args={"urls_file": urls, "follow": 0}, settings={"RETRY_TIMES": "1"})
    details = {error["status"]: error["detail"] for error in result.errors}
    assert details == {404: "HTTP 404", 500: "HTTP 500 after 1 retry"}


def test_off_a_terminal_a_link_following_crawl_says_done_of_seen(fixture_server, crawl):
    result = crawl("site", args={"url": fixture_server.url("/_gen/30/0")},
                   settings={"CRAWLFORGE_PROGRESS_INTERVAL": "0.2", "DOWNLOAD_DELAY": "0.05",
                             "CONCURRENT_REQUESTS_PER_DOMAIN": "1"})
    lines = [line for line in result.log.splitlines() if "Progress: " in line]
    assert lines, result.log[-3000:]
    assert all(re.search(r"queue \d+, \d+ done of \d+ seen$", line) for line in lines), lines


def test_on_a_terminal_every_bar_frame_ends_with_a_newline(fixture_server, tmp_path):
    """stderr on a pseudo-terminal, as in a shell: no log line may run into the bar."""
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join(fixture_server.url(f"/_slow/0.3/{ARTICLE}?{i}") for i in range(6)))
    settings = {**TEST_CRAWL_SETTINGS, "CRAWLFORGE_PROGRESS_INTERVAL": "0.2", "CONCURRENT_REQUESTS": "1"}
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"urls_file={urls}", "-a", "follow=0",
               "-O", str(tmp_path / "items.jsonl"), *[f"-s{k}={v}" for k, v in settings.items()]]
    leader, follower = pty.openpty()
    chunks: list[bytes] = []

    def read():
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    process = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=follower, timeout=120)
    os.close(follower)
    reader.join(10)
    os.close(leader)
    text = b"".join(chunks).decode("utf-8", "replace")
    assert process.returncode == 0, text[-3000:]
    frames = [line for line in text.split("\n") if "/6 done" in line]
    assert frames, text[-3000:]
    for line in frames:  # a frame is the end of its line: nothing (a log line) runs on after it
        assert re.fullmatch(r"(, ETA \w+)?\r?", line.split("/6 done")[-1]), line
    # the last frame did not swallow the crawl's last lines
    assert "Spider closed (finished)\r\n" in text and text.rstrip().endswith("Crawl finished: 6 items, 0 URLs failed")


def test_bench_markdown_without_pages_prints_usage_and_exits_2(tmp_path):
    process = subprocess.run([sys.executable, "bench/bench_markdown.py", str(tmp_path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert process.returncode == 2
    assert process.stderr.startswith("usage: bench_markdown.py")
    assert f"no pages/ folder in {tmp_path}" in process.stderr and "Traceback" not in process.stderr
