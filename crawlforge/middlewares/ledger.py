"""The downloader side of the URL ledger: every download that fails for good is reported.

Placed first in DOWNLOADER_MIDDLEWARES, its ``process_exception`` runs after every other
middleware's, so a failure it sees was not retried. The ledger extension
(``crawlforge.extensions.ledger``) keeps the first specific reason it hears for a URL; this
middleware's generic reasons (``dns``, ``timeout``...) fill in where no component said more.
A 204 or 205 answer to a page request ends it here as ``no_content``: the status says there is
no page, which the spider would otherwise read as a page without content.
"""

from __future__ import annotations

from scrapy import exceptions as scrapy_errors
from scrapy.exceptions import IgnoreRequest
from twisted.internet import error as net
from twisted.web.client import ResponseFailed, ResponseNeverReceived

from crawlforge.extensions.ledger import ID_KEY, NOT_PAGE_KEY
from crawlforge.signals import report_failure

# (exception types, reason) in the order they are tried: Scrapy's own download errors, then
# the Twisted ones they wrap in some handlers.
FAILURE_REASONS = (
    ((scrapy_errors.CannotResolveHostError, net.DNSLookupError), "dns"),
    ((scrapy_errors.DownloadTimeoutError, net.TimeoutError, net.TCPTimedOutError), "timeout"),
    ((scrapy_errors.DownloadConnectionRefusedError, net.ConnectionRefusedError), "connection_refused"),
    ((scrapy_errors.ResponseDataLossError,), "data_loss"),
    ((scrapy_errors.DownloadCancelledError,), "cancelled"),
    ((scrapy_errors.UnsupportedURLSchemeError,), "unsupported_scheme"),
    ((scrapy_errors.DownloadFailedError, net.ConnectionLost, net.ConnectionDone, ResponseFailed,
      ResponseNeverReceived, net.ConnectError), "connection"),
)
IGNORED_REASONS = {"Forbidden by robots.txt": ("robots", "robots_denied")}
NO_CONTENT = frozenset({204, 205})  # statuses that say the answer has no body


def classify(exception: BaseException) -> tuple[str, str]:
    """(stage, reason) for a download exception."""
    if isinstance(exception, IgnoreRequest):
        return IGNORED_REASONS.get(str(exception), ("download", "ignored"))
    for types, reason in FAILURE_REASONS:
        if isinstance(exception, types):
            return "download", reason
    return "download", "error"


class LedgerMiddleware:
    """Reports each download exception that reaches the engine as a ``url_failed`` signal."""

    def __init__(self, crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_response(self, request, response):
        meta = request.meta
        if (response.status not in NO_CONTENT or ID_KEY not in meta or meta.get(NOT_PAGE_KEY)
                or meta.get("handle_httpstatus_all") or response.status in meta.get("handle_httpstatus_list", ())):
            return response
        detail = f"HTTP {response.status}: the server answered without content"
        report_failure(self.crawler, request, "http", "no_content", detail, status=response.status)
        raise IgnoreRequest(detail)

    def process_exception(self, request, exception):
        stage, reason = classify(exception)
        detail = str(exception) or exception.__class__.__name__
        report_failure(self.crawler, request, stage, reason, detail)
