"""The shape every job-board connector shares, so a platform module only declares its own parts.

A connector builds the API URL (``list_url`` from parameters, ``resolve_url`` from a board URL a
user pasted), and ``extract_list`` maps the platform's answer onto the common job shape of
``jobs.py``. What differs per platform is data: where the company sits in a board URL, which
key holds the records, and ``job_keys`` / ``extra_keys``, each job field's reader and the path
of the record value it reads. They never fetch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ada_url import URL, URLSearchParams

from ..api import as_list, field, parse_json
from ..base import Template, TemplateRejectedError
from ..common import first_truthy, safe_href, safe_url
from .jobs import job, list_result, not_json, require_param, trimmed

# A job field is read either by (reader, "dotted.path") from the record, or by a function of it.
FieldSpec = tuple[Callable[[Any], Any], str] | Callable[[Any], Any]


def company_param(description: str) -> dict:
    return {"name": "company", "required": True, "description": description}


def option_param(name: str, description: str) -> dict:
    return {"name": name, "required": False, "description": description}


def segments(url: URL) -> list[str]:
    """Non-empty path segments, still percent-encoded as the URL parser left them."""
    return [s for s in url.pathname.split("/") if s]


def query_flag(url: URL, name: str) -> bool:
    """Whether the URL's query says ``name=true``."""
    params = URLSearchParams(url.search)
    return params.has(name) and params.get(name) == "true"


def subdomain(url: URL, domain: str) -> str | None:
    """``acme`` for ``acme.<domain>`` (case-insensitive), else None."""
    host = url.hostname
    rest = re.sub(rf"\.{re.escape(domain)}$", "", host, flags=re.IGNORECASE)
    return rest if rest and rest != host else None


def href(value: Any) -> str | None:
    """A link the record gives, kept only when it is a web address."""
    return safe_href(trimmed(value))


def truthy(value: Any) -> Any:
    """An object or value the platform sets, ``None`` for its "no value" spellings."""
    return first_truthy(value, None)


def dig(record: Any, path: str) -> Any:
    """The value at a dotted path (``location.name``, ``departments.0.name``), or None."""
    value = record
    for key in path.split("."):
        if key.isdigit():
            items = as_list(value)
            value = items[int(key)] if int(key) < len(items) else None
        else:
            value = field(value, key)
    return value


def first_company(records: list) -> str | None:
    """The company name the platform repeats on every record."""
    return trimmed(field(records[0], "company_name")) if records else None


class JobBoard(Template):
    """One ATS platform's public board API.

    A subclass sets ``api_url(company, *options)``; ``options`` names the ``list_url``
    parameters passed on to it; ``company_where`` says where a user finds the company;
    ``board``/``company_help`` word the error for an answer that is not a board; ``answer``,
    ``api`` and ``records_key`` say what the JSON answer is (``records_key = None``: the answer
    is the list itself).
    """

    options: tuple[str, ...] = ()
    api_host: str | None = None
    board = ""
    answer = ""
    api = ""
    company_where = ""
    company_help = ""
    records_key: str | None = "jobs"
    missing = "no jobs array"
    job_keys: dict[str, FieldSpec] = {}
    extra_keys: dict[str, FieldSpec] = {}

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        company = require_param(self.id, "company", params.get("company"), self.company_where)
        return self.api_url(company, *(params.get(name) for name in self.options))

    def resolve_url(self, url: str) -> str:
        parsed = safe_url(url)
        if parsed is None or self.is_api(parsed):
            return url
        company = self.company_of(parsed)
        return self.api_url(company, *self.url_options(parsed)) if company else url

    def is_api(self, url: URL) -> bool:
        return url.hostname == self.api_host

    def company_of(self, url: URL) -> str | None:
        """The company a board URL names: its first path segment on most platforms."""
        parts = segments(url)
        return parts[0] if parts else None

    def url_options(self, url: URL) -> tuple:
        """``api_url`` options a pasted board URL carries in its query."""
        return ()

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        params = params or {}
        payload, records = self.read(body, url)
        if records is None:
            reason = trimmed(field(payload, "error")) or self.missing
            raise TemplateRejectedError(f"No {self.board} at {url}: {reason}. {self.company_help}")
        items = [self.to_job(record, params) for record in records]
        return list_result(items, self.extra(payload, records, url, params), self.total(payload))

    def read(self, body: str | bytes, url: str | None) -> tuple[Any, list | None]:
        """(the decoded answer, its records, or None when it holds no list of them)."""
        payload = parse_json(body, not_json(self.answer, url, self.api))
        records = payload if self.records_key is None else field(payload, self.records_key)
        return payload, records if isinstance(records, list) else None

    def extra(self, payload: Any, records: list, url: str | None, params: dict) -> dict:
        """Board-level fields after ``items`` and ``count`` (the company, an API version)."""
        return {}

    def total(self, payload: Any) -> Any:
        """How many jobs the board holds, when the answer says and may be a page of them."""
        return None

    def to_job(self, record: Any, params: dict) -> dict:
        fields = {name: _read(spec, record) for name, spec in self.job_keys.items()}
        raw_extra = {name: _read(spec, record) for name, spec in self.extra_keys.items()}
        return job(self.id, raw_extra, **fields)


def _read(spec: FieldSpec, record: Any) -> Any:
    if callable(spec):
        return spec(record)
    reader, path = spec
    return reader(dig(record, path))
