"""Workable: a company's published jobs from the public accounts endpoint (not the keyed SPI API)."""

from __future__ import annotations

import re
from typing import Any

from ..api import field
from ..common import encode_uri_component, html_to_text
from .base import JobBoard, company_param, href, option_param, query_flag, segments, subdomain
from .jobs import iso_date, job_id, join_location, trimmed


def workable_url(company: str, details: Any = None) -> str:
    """The URL Workable documents; it redirects to apply.workable.com, so fetches follow redirects."""
    url = f"https://www.workable.com/api/accounts/{encode_uri_component(company)}"
    return f"{url}?details=true" if details is True else url


def _location(record: Any) -> str | None:
    return join_location(field(record, "city"), field(record, "state"), field(record, "country"))


def _telecommuting(record: Any) -> bool | None:
    value = field(record, "telecommuting")
    return value if isinstance(value, bool) else None


class WorkableJobs(JobBoard):
    """Workable's public accounts endpoint; an unknown account answers 404 with "Not Found"."""

    id = "workable-jobs"
    name = "Workable Jobs"
    description = (
        "Read a company's published Workable jobs from the public accounts endpoint rather than "
        "the rendered careers page: title, department, employment type, location parts and "
        "telecommuting flag for every open role. Descriptions are opt-in (details: true)."
    )
    # A host label is at most 63 characters: bounded, the label does not make a search over a
    # long run of word characters quadratic (and matches what the unbounded one did).
    target_pattern = re.compile(
        r"(apply\.workable\.com|www\.workable\.com/api/accounts|[\w-]{1,63}\.workable\.com/(jobs|spi))",
        re.IGNORECASE | re.ASCII,
    )
    params = [
        company_param('Account subdomain, the path segment in https://apply.workable.com/<subdomain>, e.g. "persado".'),
        option_param("details", "true to include each job's description."),
    ]
    options = ("details",)
    board = "Workable account"
    answer = "Workable account"
    api = "the public Workable accounts endpoint"
    company_where = "the account subdomain, the path segment in https://apply.workable.com/<subdomain>"
    company_help = "The account subdomain is the path segment in https://apply.workable.com/<subdomain>."
    job_keys = {
        "id": (job_id, "shortcode"),  # the shortcode is Workable's public id
        "title": (trimmed, "title"),
        "url": (href, "url"),
        "location": _location,
        "department": (trimmed, "department"),
        "employment_type": (trimmed, "employment_type"),
        "remote": _telecommuting,
        "published_at": (iso_date, "published_on"),
        "description": (html_to_text, "description"),
    }
    extra_keys = {
        "shortcode": (trimmed, "shortcode"),
        "code": (trimmed, "code"),
        "function": (trimmed, "function"),
        "apply_url": (href, "application_url"),
    }

    def api_url(self, company: str, details: Any = None) -> str:
        return workable_url(company, details)

    def is_api(self, url) -> bool:
        return re.search(r"/api/(v1/widget/)?accounts/", url.pathname) is not None

    def company_of(self, url) -> str | None:
        if url.hostname == "apply.workable.com":
            # a single-job link (/j/<shortcode>) does not name the account
            parts = segments(url)
            return parts[0] if parts and parts[0] != "j" else None
        return subdomain(url, "workable.com")

    def url_options(self, url) -> tuple:
        return (query_flag(url, "details"),)

    def extra(self, payload: Any, records: list, url: str | None, params: dict) -> dict:
        return {"company": trimmed(field(payload, "name"))}
