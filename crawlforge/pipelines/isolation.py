"""Optional enrichment steps (markdown, highlights, structure, embedded state...) must never
cost the page: a step that raises leaves its fields empty, and the error is on the item
(``enrichment_errors``), in the stats (``enrichment/errors/<step>``) and in the log.
Extractor warnings (a JSON-LD block repaired or skipped...) go on the item
(``extraction_warnings``) and into one log line per page."""

from __future__ import annotations

import functools
import inspect
import logging

from itemadapter import ItemAdapter

logger = logging.getLogger(__name__)
MAX_MESSAGE = 500


def optional_step(step: str):
    """Decorates a pipeline method ``(self, item, ...)``, plain or async, whose owner has
    ``self.stats``: an exception it raises is recorded and the item goes on unchanged by it."""
    def decorate(method):
        if inspect.iscoroutinefunction(method):
            @functools.wraps(method)
            async def run_async(self, item, *args, **kwargs):
                try:
                    return await method(self, item, *args, **kwargs)
                except Exception as error:  # noqa: BLE001 - any bug in an optional step; the page is kept
                    record_error(ItemAdapter(item), self.stats, step, error)
                    return item
            return run_async

        @functools.wraps(method)
        def run(self, item, *args, **kwargs):
            try:
                return method(self, item, *args, **kwargs)
            except Exception as error:  # noqa: BLE001 - any bug in an optional step; the page is kept
                record_error(ItemAdapter(item), self.stats, step, error)
                return item
        return run
    return decorate


def record_error(adapter: ItemAdapter, stats, step: str, error: Exception) -> None:
    message = f"{type(error).__name__}: {error}"[:MAX_MESSAGE]
    logger.error("%s step failed on %s (page kept without it): %s", step, adapter.get("url"), message,
                 exc_info=error)
    stats.inc_value(f"enrichment/errors/{step}")
    if "enrichment_errors" in adapter.field_names():
        adapter["enrichment_errors"] = [*(adapter.get("enrichment_errors") or []),
                                        {"step": step, "message": message}]


def report_warnings(adapter: ItemAdapter, stats, warnings: list[dict]) -> None:
    """``warnings`` as ``{"extractor", "message"}``: onto the item, and one log line."""
    if not warnings:
        return
    if "extraction_warnings" in adapter.field_names():
        adapter["extraction_warnings"] = [*(adapter.get("extraction_warnings") or []), *warnings]
    stats.inc_value("extraction/warnings", len(warnings))
    logger.warning("Extraction warnings on %s: %s", adapter.get("url"),
                   "; ".join(f"{w['extractor']}: {w['message']}" for w in warnings))
