"""``scrapy health FEED [--save FILE] [--baseline FILE]``: field fill rates of a crawl's feed.

``--save`` writes them as the baseline a later crawl is checked against
(``-s CRAWLFORGE_HEALTH_BASELINE=FILE``). The feed itself is checked as ``scrapy crawl`` checks
a crawl, against ``--baseline`` or else the templates' required fields, and exits 3 on an alarm.
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.args import ArgumentError, writable_file
from crawlforge.extensions.health import EXIT_CODE, thresholds_from
from crawlforge.report.feed import read_jsonl
from crawlforge.report.fillrate import FillRates
from crawlforge.report.health import field_alarms, load_baseline, save_baseline

BAD_INPUT = 2


def rates_table(rates: FillRates) -> str:
    lines = []
    for group, counts in sorted(rates.groups.items()):
        lines.append(f"{group} ({counts.items} items)")
        for name in sorted(counts.filled):
            lines.append(f"  {counts.rate(name):5.0%}  {name}")
    return "\n".join(lines) or "no item with fields in the feed"


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "FEED.jsonl [--save FILE] [--baseline FILE]"

    def short_desc(self) -> str:
        return "Field fill rates of a feed; save them as a health baseline or check against one"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--save", metavar="FILE", help="write the fill rates as a health baseline")
        parser.add_argument("--baseline", metavar="FILE", help="check the feed against a saved baseline")

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError()
        try:  # every input is read, and the baseline's folder checked, before anything is printed
            rates = FillRates.from_items(read_jsonl(args[0]))
            baseline = load_baseline(opts.baseline) if opts.baseline else None
            if opts.save:
                writable_file(opts.save, "the baseline")
        except ArgumentError as error:
            print(f"scrapy health: {error}", file=sys.stderr)
            self.exitcode = BAD_INPUT
            return
        print(rates_table(rates))
        if opts.save:
            save_baseline(rates, opts.save)
            print(f"baseline saved to {opts.save}")
        if alarms := field_alarms(rates, baseline, thresholds_from(self.settings)):
            print("health check failed:\n  " + "\n  ".join(alarms))
            self.exitcode = EXIT_CODE
