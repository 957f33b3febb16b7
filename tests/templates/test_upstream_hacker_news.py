"""Upstream conformance: tests/hacker-news-front-page.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 3a289f4984fc8698afba48d2f791ccc16e03be81 (the newest stored version: comment
labels read as counts, R15): the hacker-news-front-page template on the upstream's story rows.
"""

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()


def row(story_id: str, title: str, score: str, comments: str) -> str:
    return f"""
  <tr class="athing" id="{story_id}">
    <td class="title"><span class="titleline"><a href="https://example.test/{story_id}">{title}</a>
      <span class="sitebit comhead"><a href="from?site=example.test">example.test</a></span></span></td>
  </tr>
  <tr><td class="subtext">
    <span class="score" id="score_{story_id}">{score}</span> by <a class="hnuser">someone</a>
    <span class="age"><a href="item?id={story_id}">5 minutes ago</a></span> |
    <a href="item?id={story_id}">{comments}</a>
  </td></tr>"""


def run(html: str) -> dict:
    body = f"<html><body><table>{html}</table></body></html>"
    return REGISTRY.run("hacker-news-front-page", body, "https://news.ycombinator.com/newest")["data"]


def test_point_and_points_both_become_bare_numbers():
    data = run(row("1", "Fresh story", "1 point", "discuss") + row("2", "Older story", "3 points", "2 comments"))
    assert len(data["stories"]) == 2
    assert data["stories"][0]["score"] == "1"
    assert data["stories"][1]["score"] == "3"
    assert data["stories"][0]["comments"] == "0"
    assert data["stories"][1]["comments"] == "2"


def test_story_with_no_score_reports_null():
    assert run(row("3", "Hiring", "", ""))["stories"][0]["score"] is None
