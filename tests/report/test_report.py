"""The crawl report's numbers and its self-containment, without a browser."""

import re
import subprocess
import sys

from conftest import ROOT
from crawlforge.report.html import count_ticks, link, render
from crawlforge.report.summary import error_groups, exit_code, summarise, timeline, url_pattern

ITEMS = [
    {"url": "https://a.example/1", "status": 200, "fetched_at": "2026-11-30T00:00:00+00:00",
     "download_latency": 0.5, "template": "github-repo", "template_data": {"name": "hono", "stars": None}},
    {"url": "https://a.example/2", "status": 200, "fetched_at": "2026-11-30T00:00:40+00:00",
     "download_latency": 1.5, "template": "github-repo", "template_data": {"name": "x", "stars": 3}},
    {"url": "https://b.example/1", "status": 203, "fetched_at": "2026-11-30T00:02:00+00:00",
     "download_latency": 4.0, "structured_data": {"meta": {"title": "B"}}},
]
ERRORS = [
    {"url": "https://c.example/w", "stage": "verdict", "reason": "blocked", "vendor": "cloudflare", "status": 403,
     "detail": "cloudflare served a challenge page", "at": "2026-11-30T00:01:10+00:00"},
    {"url": "javascript:alert(1)", "stage": "download", "reason": "timeout", "detail": "<script>x</script>",
     "at": "2026-11-30T00:01:20+00:00"},
]


def test_timeline_buckets_keep_the_chart_under_sixty_bars():
    line = timeline(ITEMS, ERRORS)
    assert line.bucket_seconds == 5  # 120 s at 1 s a bar would be 121 bars
    assert (sum(line.items), sum(line.errors), len(line.starts)) == (3, 2, 25)
    assert line.items[0] == 1 and line.items[8] == 1 and line.items[24] == 1


def test_summary_counts_come_from_the_feeds():
    summary = summarise(ITEMS, ERRORS)
    assert summary.status_codes == {"200": 2, "203": 1, "403": 1}
    assert (summary.reasons, summary.vendors) == ({"blocked": 1, "timeout": 1}, {"cloudflare": 1})
    assert summary.slowest_hosts == [("b.example", 4.0, 1), ("a.example", 1.0, 2)]
    assert summary.fill_rates.groups["github-repo"].filled == {"name": 2, "stars": 1}


def test_worst_pages_are_failures_then_the_least_filled_items():
    worst = summarise(ITEMS, ERRORS).worst_pages
    assert [(p.url, p.outcome, round(p.fill, 2)) for p in worst] == [
        ("https://c.example/w", "blocked", 0.0), ("javascript:alert(1)", "timeout", 0.0),
        ("https://a.example/1", "github-repo", 0.5), ("https://a.example/2", "github-repo", 1.0),
        ("https://b.example/1", "b.example", 1.0)]
    assert worst[2].detail == "empty: stars"


def test_report_is_self_contained_and_escapes_what_the_crawl_brought_back():
    html = render(summarise(ITEMS, ERRORS))
    assert "<script>x</script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert not re.search(r'<script[^>]+src=|<link[^>]+href=|<img[^>]+src=|@import|url\(http', html)
    assert 'href="javascript:' not in html
    hrefs = re.findall(r'href="([^"]+)"', html)
    assert sorted(hrefs) == ["https://a.example/1", "https://a.example/2", "https://b.example/1", "https://c.example/w"]
    for chart_id in ("pages-over-time", "status-codes", "ledger-reasons", "verdict-vendors", "slowest-hosts"):
        assert f'<figure id="{chart_id}"' in html
    # a chart of one bar is a sentence
    assert '<figure id="verdict-vendors" class="small"><figcaption>Block pages by vendor</figcaption>' in html
    assert "cloudflare: <b>1</b> pages" in html


def test_links_only_for_web_urls():
    assert link("https://x.example/?a=1&b=2") == (
        '<a href="https://x.example/?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">'
        "https://x.example/?a=1&amp;b=2</a>")
    assert link("javascript:alert(1)") == "javascript:alert(1)"


def test_count_axes_have_whole_number_ticks():
    assert count_ticks(2) == [0, 1, 2]
    assert count_ticks(20) == [0, 3, 6, 9, 12, 15, 18, 21]


def test_empty_feeds_still_make_a_page():
    html = render(summarise([], []))
    assert "0 items, 0 URLs without an item" in html and html.count("nothing to show") == 4


def test_errors_are_grouped_by_reason_and_url_pattern_with_examples():
    errors = [{"url": f"https://w.example/Articles/{i}.html", "reason": "http_404", "detail": "HTTP 404"}
              for i in range(7)]
    errors += [{"url": "https://w.example/a.html", "reason": "http_404", "detail": "HTTP 404"},
               {"url": "https://w.example/Articles/x", "reason": "timeout", "detail": "t"},
               {"url": "https://api.example/v1/x", "reason": "template_rejected", "template": "npm-package"}]
    groups = error_groups(errors)
    assert [(g.reason, g.pattern, g.count) for g in groups] == [
        ("http_404", "w.example/Articles/", 7), ("http_404", "w.example/", 1),
        ("template_rejected", "npm-package", 1), ("timeout", "w.example/Articles/", 1)]
    assert groups[0].share == 0.7 and len(groups[0].examples) == 3
    assert url_pattern({"url": "https://h.example/"}) == "h.example/"
    html = render(summarise([], errors), errors=errors)
    assert 'data-reason="http_404" data-pattern="w.example/Articles/" data-count="7"' in html
    assert html.count("<tr><td><a href") == 10  # every record behind the details


def test_outcome_figures_and_verdict_come_from_feeds_and_stats():
    stats = {"ledger/requested": 6, "downloader/response_bytes": 3 * 1024 * 1024, "health/alarms": 1,
             "health/messages": ["site: field 'price' fill rate fell from 100% (2/2) to 0% (0/2)"],
             "start_time": "2026-11-30T00:00:00+00:00", "finish_time": "2026-11-30T00:02:00+00:00",
             "llm/calls": 2, "llm/tokens/prompt": 900, "llm/tokens/completion": 100}
    summary = summarise(ITEMS, ERRORS, stats)
    outcome = summary.outcome
    assert (outcome.requested, outcome.items, outcome.errors, outcome.exit_code) == (6, 3, 2, 3)
    assert (outcome.duration_seconds, outcome.pages_per_minute, outcome.llm_tokens) == (120, 2.5, 1000)
    html = render(summary)
    assert '<div data-figure="bytes"><dt>downloaded</dt><dd>3.0 MB</dd></div>' in html
    assert "Health check failed" in html and "fell from 100% (2/2) to 0% (0/2)" in html
    assert "exit code 3" in html
    assert exit_code(0, 4, []) == 1 and exit_code(2, 4, None) == 0
    assert "no stats file: health not known" in render(summarise(ITEMS, ERRORS))


def test_a_long_tail_of_broken_links_is_one_row_a_reason(fixture_server, crawl, tmp_path):
    """40 broken links in 40 folders beside a broken section of 12: two rows, not 41; the tail's
    URLs are behind a <details>, and every bar of the charts carries its number."""
    urls = tmp_path / "urls.txt"
    paths = ["/demo/news/blog.python.org.html", "/demo/articles/v8_dev_blog_standalone_wasm_code.html"]
    paths += [f"/gone/section-{i}/page.html" for i in range(40)] + [f"/demo/archive/post-{i}.html" for i in range(12)]
    urls.write_text("\n".join(fixture_server.url(path) for path in paths))
    result = crawl("site", args={"urls_file": urls, "follow": 0}, settings={"RETRY_TIMES": "0"})
    assert (len(result.items), len(result.errors)) == (2, 52), result.log[-3000:]
    report = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "scrapy", "report", result.workdir / "items.jsonl",
                           result.workdir / "errors.jsonl", "-o", report], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{report}: 2 items, 52 errors\n", "")
    html = report.read_text()
    section = html[html.index('<section id="error-groups">'):html.index("</section>", html.index('id="error-groups"'))]
    rows = re.findall(r"<tr (?:class=\"tail\" )?data-(?:reason|tail)=\"([^\"]+)\"[^>]*data-count=\"(\d+)\"", section)
    assert rows == [("http_error", "12"), ("http_error", "40")]
    assert "<td>40 more URLs in 40 folders</td>" in section and "<td>HTTP 404</td>" in section
    tail = section[section.index('<tr class="tail"'):section.index("</tr>", section.index('<tr class="tail"'))]
    assert tail.count('href="') == 40 and "<details><summary>40 folders</summary>" in tail
    statuses = html[html.index('<figure id="status-codes"'):html.index("</figure>", html.index('id="status-codes"'))]
    assert set(re.findall(r'class="value">(\d+)<', statuses)) == {"2", "52"}  # pygal draws each twice
