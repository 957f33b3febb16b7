"""``scrapy detect URL``: which template claims a URL, and why (or why it was retired). Exit 0
when a template claims it, 1 when none does, 2 when the argument is not a URL a crawl can take."""

from __future__ import annotations

import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.args import ArgumentError
from crawlforge.spiders.base import check_url
from crawlforge.spiders.templates import REGISTRY
from crawlforge.templates import retired_template
from crawlforge.templates.registry import by_shape_only, fetch_url, js_regex_literal

BAD_INPUT = 2


def explain(url: str) -> tuple[str, bool]:
    """(what to print, whether a live template claims the URL)."""
    template = REGISTRY.route(url)
    if template is not None:
        return claim(template, url), True
    if retired := retired_template(url):
        return f"{retired['id']} (retired): {retired['reason']}", False
    lines = [f"No template claims {url}; `scrapy crawl site -a url=...` handles it as a generic page."]
    if site_template := REGISTRY.detect(url):
        lines.append(f"  {site_template.id} reads this site, but only pages matching "
                     f"{js_regex_literal(site_template.page_pattern)}")
    return "\n".join(lines), False


def claim(template, url: str) -> str:
    lines = [f"{template.id}: {template.name}"]
    pattern = js_regex_literal(template.target_pattern)
    fetch = fetch_url(template, url)
    if by_shape_only(template, url):
        lines.append(f"  matched by {pattern}: the URL's shape only, which any site may share")
        lines.append(f"  the template verifies the site from its answer{f' at {fetch}' if fetch != url else ''}; "
                     "`scrapy crawl auto` reads a page it leaves as a generic page")
        lines.append(f"  run it: scrapy crawl auto -a url='{url}'")
        return "\n".join(lines)
    lines.append(f"  matched by {pattern}")
    if fetch != url:
        lines.append(f"  fetches {fetch}")
    lines.append(f"  run it: scrapy crawl {template.id} -a url='{url}'")
    return "\n".join(lines)


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "URL"

    def short_desc(self) -> str:
        return "Show which site template claims a URL, and why"

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError()
        try:
            check_url(args[0])
        except ArgumentError:
            print(f"scrapy detect: {args[0]!r} is not a URL: give an absolute URL such as https://example.com/",
                  file=sys.stderr)
            self.exitcode = BAD_INPUT
            return
        text, claimed = explain(args[0])
        print(text)
        self.exitcode = 0 if claimed else 1
