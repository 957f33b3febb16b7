"""Speed of the site templates: run each template on its real capture in fixtures/templates
(plus detect over every test URL shape) and print milliseconds per call.

Usage: .venv/bin/python bench/bench_templates.py [ROUNDS]
"""

import sys
import time
from pathlib import Path

from crawlforge.templates import TemplateRegistry

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "templates"
ENTITY_RUNS = [
    ("github-repo", "github-repo-hono.html", "https://github.com/honojs/hono"),
    ("reddit-thread", "reddit-thread.json", "https://www.reddit.com/r/node/comments/1w2lsvx/"),
    ("stackoverflow-question", "stackoverflow-question.json", "https://stackoverflow.com/questions/11227809"),
    ("npm-package", "npm/left-pad.json", "https://registry.npmjs.org/left-pad"),
]
LIST_RUNS = [
    ("shopify-collection", "shopify/allbirds-collection.json", "https://www.allbirds.com/collections/mens/products.json"),
    ("shopify-collection", "shopify/deathwishcoffee-collection.json", "https://deathwishcoffee.com/collections/mugs/products.json"),
]
DETECT_URLS = [url for _, _, url in ENTITY_RUNS + LIST_RUNS] + [
    "https://www.amazon.com/Some-Widget/dp/B01/products/thing",
    "https://news.ycombinator.com/news?p=2",
    "https://example.com/nothing/here",
]


def timed(label: str, rounds: int, call) -> None:
    start = time.perf_counter()
    for _ in range(rounds):
        call()
    print(f"{label:<58} {1000 * (time.perf_counter() - start) / rounds:8.3f} ms/call")


def main(rounds: int) -> None:
    registry = TemplateRegistry()
    for template_id, name, url in ENTITY_RUNS:
        body = (FIXTURES / name).read_text(encoding="utf-8")
        timed(f"run {template_id} ({name})", rounds, lambda: registry.run(template_id, body, url))
    for template_id, name, url in LIST_RUNS:
        body = (FIXTURES / name).read_text(encoding="utf-8")
        timed(f"run_list {template_id} ({name})", rounds, lambda: registry.run_list(template_id, body, url=url))
    timed(f"detect x{len(DETECT_URLS)} URLs", rounds, lambda: [registry.detect(u) for u in DETECT_URLS])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
