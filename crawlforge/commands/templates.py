"""``scrapy templates [--json]``: the site templates this project knows."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawlforge.templates import TemplateRegistry


def clip(text: str, width: int) -> str:
    """At most ``width`` characters, an ellipsis marking a cut, so a table row stays one line."""
    return text if len(text) <= width else text[: width - 1] + "…"


def templates_table(summaries: list[dict]) -> str:
    """Columns padded to their widest cell; optional parameters are marked ``?``."""
    rows = [("ID", "MODE", "DELAY", "PARAMS", "DESCRIPTION")]
    for summary in summaries:
        params = ", ".join(p["name"] + ("" if p.get("required") else "?") for p in summary.get("params", []))
        delay = f"{summary['crawl_delay_seconds']}s" if summary.get("crawl_delay_seconds") else ""
        rows.append((summary["id"], summary["mode"], delay, clip(params, 40), clip(summary["description"] or "", 70)))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join("  ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[4]]) for row in rows)


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def short_desc(self) -> str:
        return "List the site templates (a table, or JSON with --json)"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--json", action="store_true", help="print the registry's list() as JSON")

    def run(self, args, opts):
        summaries = TemplateRegistry().list()
        print(json.dumps(summaries, indent=2, ensure_ascii=False) if opts.json else templates_table(summaries))
