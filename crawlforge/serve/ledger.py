"""The URL ledger of a served crawl, keeping its error records for the answer: a one-URL crawl
has no errors feed, and its caller wants the record itself (reason, detail, status)."""

from __future__ import annotations

from crawlforge.extensions.ledger import UrlLedger

LEDGER = "crawlforge.extensions.ledger.UrlLedger"
COLLECTING_LEDGER = f"{__name__}.CollectingLedger"


class CollectingLedger(UrlLedger):
    def __init__(self, crawler, feed_uri: str | None):
        super().__init__(crawler, feed_uri)
        self.records: list[dict] = []

    def write(self, record: dict) -> None:
        self.records.append(record)
        super().write(record)


def with_collecting_ledger(extensions: dict) -> dict:
    """The EXTENSIONS setting with the project's ledger swapped for this one, at its place."""
    order = extensions.get(LEDGER, 500)
    return {**extensions, LEDGER: None, COLLECTING_LEDGER: order}
