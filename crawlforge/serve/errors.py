"""Why a request was not served: the caller's mistake (``BadRequest``, HTTP 400) or the
service's state (``ServiceError``: busy, past the deadline, an unknown crawl id)."""


class BadRequest(ValueError):
    """A request the service will not run: its message is one line for the caller."""


class ServiceError(Exception):
    """``reason`` (busy, deadline, not_found) and one line of ``detail``."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason, self.detail = reason, detail
