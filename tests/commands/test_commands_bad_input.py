"""A newcomer's second look (issue 44): every command, given what a user mistypes or a service
that is down, exits with an honest code and says so in one line, with no traceback at the
default log level; a bug (any other exception) keeps its traceback."""

from __future__ import annotations

import gzip
import os
import shutil
import socket
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT, TEST_CRAWL_SETTINGS

ALLOW = ["-s", f"CRAWLFORGE_ALLOWED_NETWORKS={TEST_CRAWL_SETTINGS['CRAWLFORGE_ALLOWED_NETWORKS']}"]
PRODUCT = FIXTURES / "demo" / "products" / "ikea_gb_moeckelby_table_jsonld.html"


def scrapy(*args, cwd=ROOT, env=None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})})


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def no_traceback(text: str) -> bool:
    return "Traceback" not in text and "Task exception" not in text


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def binary(tmp_path):
    path = tmp_path / "synthetic-random.bin"
    path.write_bytes(os.urandom(20_000))
    return path


# -- 2. exits that are honest ---------------------------------------------------------------------
@pytest.mark.parametrize(("args", "settings", "message"), [
    ({"documents_dir": "/proc/nope"}, {},
     "site: -a documents_dir: cannot write into '/proc/nope' (No such file or directory)"),
    ({}, {"CRAWLFORGE_ALLOWED_NETWORKS": "notacidr"},
     "site: CRAWLFORGE_ALLOWED_NETWORKS must be CIDRs such as 127.0.0.1/32,10.0.0.0/8 "
     "('notacidr' does not appear to be an IPv4 or IPv6 network)"),
    ({}, {"CRAWLFORGE_ERRORS_FEED": "/proc/nope/errors.jsonl"},
     "site: cannot write CRAWLFORGE_ERRORS_FEED '/proc/nope/errors.jsonl' (No such file or directory)"),
    ({}, {"CRAWLFORGE_PROGRESS_INTERVAL": "abc"}, "site: CRAWLFORGE_PROGRESS_INTERVAL must be a number, not 'abc'"),
])
def test_a_setting_the_crawl_cannot_use_is_one_line_and_exit_2(fixture_server, crawl, args, settings, message):
    result = crawl("site", args={"url": fixture_server.url("/demo/"), **args}, settings=settings)
    assert result.returncode == 2, result.log[-3000:]
    assert last_line(result.log).endswith(f"ERROR: {message}")
    assert no_traceback(result.log) and "Spider opened" not in result.log


def test_a_feed_that_cannot_be_written_stops_the_crawl_before_any_request(fixture_server, tmp_path):
    process = scrapy("crawl", "site", "-a", f"url={fixture_server.url('/demo/')}", "-O", "/proc/nope/z.jsonl",
                     *ALLOW)
    assert process.returncode == 2, process.stderr[-3000:]
    assert last_line(process.stderr).endswith(
        "ERROR: site: cannot write the feed '/proc/nope/z.jsonl' (No such file or directory)")
    assert no_traceback(process.stderr) and "Spider opened" not in process.stderr


def test_a_dead_redis_is_one_line_for_crawl_and_seed(fixture_server, crawl):
    port = closed_port()
    redis_url = f"redis://127.0.0.1:{port}/0"
    said = (f"Redis at {redis_url} cannot be reached (Error 111 connecting to 127.0.0.1:{port}. Connection refused.): "
            "start it, or fix CRAWLFORGE_REDIS_URL")
    result = crawl("site", args={"url": fixture_server.url("/demo/")}, settings={"CRAWLFORGE_REDIS_URL": redis_url})
    assert result.returncode == 1, result.log[-3000:]
    assert last_line(result.log).endswith(f"ERROR: The crawl could not start: {said}")
    assert no_traceback(result.log) and "Engine slot not assigned" not in result.log
    seed = scrapy("seed", "site", fixture_server.url("/demo/"), "-s", f"CRAWLFORGE_REDIS_URL={redis_url}")
    assert (seed.returncode, seed.stdout, seed.stderr) == (1, "", f"scrapy seed: {said}\n")
    no_file = scrapy("seed", "site", "-f", "/nope.txt", "-s", f"CRAWLFORGE_REDIS_URL={redis_url}")
    assert (no_file.returncode, no_file.stdout) == (2, "")
    assert no_file.stderr == ("scrapy seed: cannot read '/nope.txt' as a file of URLs "
                              "([Errno 2] No such file or directory: '/nope.txt')\n")


def test_a_bug_at_start_up_keeps_its_traceback(fixture_server, crawl, tmp_path):
    """A ValueError that is not a bad argument (here a pipeline's own) is not passed off as one."""
    (tmp_path / "buggy_pipeline.py").write_text(
        "class Buggy:\n    @classmethod\n    def from_crawler(cls, crawler):\n"
        "        raise ValueError('a bug, not a bad argument')\n")
    result = crawl("site", args={"url": fixture_server.url("/demo/")},
                   settings={"ITEM_PIPELINES": '{"buggy_pipeline.Buggy": 100}'},
                   env={"PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", str(ROOT))])})
    assert result.returncode == 1, result.log[-3000:]
    assert "The crawl could not start" in result.log and "Traceback" in result.log
    assert last_line(result.log) == "ValueError: a bug, not a bad argument"


# -- 3. commands agree on bad input -------------------------------------------------------------
@pytest.mark.parametrize("command", ["product", "markdown"])
def test_product_and_markdown_refuse_a_missing_or_binary_file_alike(command, binary):
    for target, message in (("nope.html", "nope.html: no such file"),
                            (binary, f"{binary}: not an HTML page (application/octet-stream)")):
        process = scrapy(command, target)
        assert process.returncode == 2, process.stderr[-3000:]
        assert process.stdout == "" and process.stderr.strip().count("\n") == 0
        assert process.stderr.strip().endswith(f"ERROR: {message}")


def test_product_of_a_404_says_so_in_one_line_and_exits_1(fixture_server):
    url = fixture_server.url("/missing.html")
    process = scrapy("product", url, *ALLOW)
    assert process.returncode == 1 and no_traceback(process.stderr)
    assert last_line(process.stderr).endswith(f"ERROR: No page from {url}: HTTP 404")


def test_a_gzipped_page_is_read_by_markdown_and_product(tmp_path):
    page = tmp_path / "moeckelby.html.gz"
    page.write_bytes(gzip.compress(PRODUCT.read_bytes()))
    markdown = scrapy("markdown", page)
    assert markdown.returncode == 0, markdown.stderr[-3000:]
    assert markdown.stdout.startswith(f"---\nurl: {page.as_uri()}\n") and "# MÖCKELBY Table" in markdown.stdout
    product = scrapy("product", page)
    assert product.returncode == 0, product.stderr[-3000:]
    assert '"MÖCKELBY Table - oak 235x100 cm"  (json-ld)' in product.stdout


def test_health_refuses_a_baseline_that_is_not_one(tmp_path, binary):
    feed = tmp_path / "items.jsonl"
    feed.write_text('{"url": "https://example.com/", "structured_data": {"meta": {"title": "x"}}}\n')
    process = scrapy("health", feed, "--baseline", binary)
    assert (process.returncode, process.stdout) == (2, "")
    assert process.stderr == (f"scrapy health: {binary}: not a health baseline "
                              "(write one with `scrapy health FEED --save FILE`)\n")


def test_report_refuses_an_output_it_cannot_write(tmp_path):
    feed = tmp_path / "items.jsonl"
    feed.write_text('{"url": "https://example.com/", "status": 200}\n')
    process = scrapy("report", feed, "-o", "/proc/nope/r.html")
    assert (process.returncode, process.stdout) == (2, "")
    assert process.stderr == "scrapy report: cannot write the report '/proc/nope/r.html' (No such file or directory)\n"


def test_detect_refuses_what_is_not_a_url():
    process = scrapy("detect", "notaurl")
    assert (process.returncode, process.stdout) == (2, "")
    assert process.stderr == "scrapy detect: 'notaurl' is not a URL: give an absolute URL such as https://example.com/\n"


# -- 4. no run ends empty or wrong without a word --------------------------------------------------
def test_lastmod_after_reads_relative_days_and_refuses_what_is_not_a_date(fixture_server, crawl):
    index = fixture_server.url("/_sitemap/17/17/index.xml")  # lastmod in January 2026
    bad = crawl("sitemap", args={"url": index, "lastmod_after": "notadate"})
    assert bad.returncode == 2 and no_traceback(bad.log)
    assert last_line(bad.log).endswith("ERROR: sitemap: -a lastmod_after must be a date such as 2026-01-31, "
                                       "today, yesterday or 7d (days ago), not 'notadate'")
    recent = crawl("sitemap", args={"url": index, "lastmod_after": "yesterday"})
    assert recent.returncode == 0 and not recent.items
    assert last_line(recent.log).endswith("WARNING: Crawl finished with no item: 0 items, 0 URLs failed; "
                                          "17 sitemap entries older than lastmod_after skipped; no page was requested")


def test_max_pages_bounds_a_sitemap_crawl(fixture_server, crawl):
    result = crawl("sitemap", args={"url": fixture_server.url("/_sitemap/17/17/index.xml"), "max_pages": 3})
    assert result.returncode == 0 and len(result.items) == 3
    assert last_line(result.log).endswith("INFO: Crawl finished: 3 items, 0 URLs failed")


def test_a_dead_host_is_one_line_a_url_and_its_traceback_only_at_debug(crawl):
    url = f"http://127.0.0.1:{closed_port()}/"
    quiet = crawl("site", args={"url": url}, settings={"RETRY_TIMES": "1"})
    assert quiet.returncode == 1 and no_traceback(quiet.log)
    errors = [line.split("] ", 1)[1] for line in quiet.log.splitlines() if " ERROR: " in line]
    refused = "Connection was refused by other side: 111: Connection refused."
    # robots.txt unreachable: its site is disallowed (RFC 9309), so the page is never asked for
    # and ends with the reason robots.txt met
    assert errors == [f"ERROR: robots.txt could not be fetched for <GET {url}>: {refused}",
                      "ERROR: Crawl failed: no item: 1 URL failed (connection_refused 1)"]
    loud = crawl("site", args={"url": url}, settings={"RETRY_TIMES": "1", "LOG_LEVEL": "DEBUG"})
    assert loud.returncode == 1 and "Traceback" in loud.log


# -- 6. scrapy crawl outside the project folder, as README says ------------------------------------
def test_crawl_runs_outside_the_project_folder_with_the_settings_module(fixture_server, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    outside = scrapy("crawl", "site", cwd=elsewhere)
    assert outside.returncode == 2 and "only available from within a project" in outside.stdout
    env = {"SCRAPY_SETTINGS_MODULE": "crawlforge.settings", "PYTHONPATH": os.environ.get("PYTHONPATH", str(ROOT))}
    done = scrapy("crawl", "site", "-a", f"url={fixture_server.url('/demo/')}", "-a", "max_pages=2", *ALLOW,
                  "-O", "items.jsonl", cwd=elsewhere, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert last_line(done.stderr).endswith("INFO: Crawl finished: 2 items, 0 URLs failed")
    assert len((elsewhere / "items.jsonl").read_text().splitlines()) == 2
    shutil.rmtree(elsewhere)
