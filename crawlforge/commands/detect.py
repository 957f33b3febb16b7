"""``scrapy detect URL``: which template claims a URL, and why (or why it was retired)."""

from __future__ import annotations

from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.templates import TemplateRegistry, retired_template
from crawlforge.templates.registry import fetch_url, js_regex_literal


def explain(url: str) -> tuple[str, bool]:
    """(what to print, whether a live template claims the URL)."""
    registry = TemplateRegistry()
    template = registry.detect(url)
    if template is not None:
        fetch = fetch_url(template, url)
        lines = [f"{template.id}: {template.name}",
                 f"  matched by {js_regex_literal(template.target_pattern)}"]
        if fetch != url:
            lines.append(f"  fetches {fetch}")
        lines.append(f"  run it: scrapy crawl {template.id} -a url='{url}'")
        return "\n".join(lines), True
    if retired := retired_template(url):
        return f"{retired['id']} (retired): {retired['reason']}", False
    return f"No template claims {url}; `scrapy crawl site -a url=...` handles it as a generic page.", False


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
        text, claimed = explain(args[0])
        print(text)
        self.exitcode = 0 if claimed else 1
