"""crawlforge's own signals.

``url_failed``: a URL ended without an item. Sent with ``url``, ``stage`` (where it ended:
``spider``, ``template``, ``download``...), ``reason`` (a short code such as ``not_html`` or
``template_rejected``) and ``detail`` (a sentence for people), plus optional ``status``,
``vendor``, ``limit``, ``size``. The URL ledger writes each one as an error record.

``request_done``: a response's callback output was consumed (``exception``: what it raised, or
None) and every item from it went through the pipelines; sent with ``request`` and ``followups``
(the requests the callback made). The JOBDIR frontier marks the request done, the ledger ends a
URL that gave no item unless a follow-up carries it on (the same ledger id: a fallback fetch).
"""

url_failed = object()
request_done = object()


def report_failure(crawler, request, stage: str, reason: str, detail: str, url: str | None = None,
                   **extra) -> None:
    """Tell the ledger (and anyone listening) that ``request`` ends without an item: the one way a
    URL fails (a spider's ``fail`` too). ``request`` None: the URL ``url``, found by the ledger."""
    crawler.signals.send_catch_log(url_failed, url=url or request.url, request=request, stage=stage,
                                   reason=reason, detail=detail, **extra)
