"""Greenhouse: a company's board from the Job Board API."""

from __future__ import annotations

import re
from typing import Any

from ..api import field
from ..common import encode_uri_component
from .base import JobBoard, company_param, first_company, href, option_param, query_flag
from .jobs import escaped_html_to_text, iso_date, job_id, trimmed


def greenhouse_url(company: str, content: Any = None) -> str:
    url = f"https://boards-api.greenhouse.io/v1/boards/{encode_uri_component(company)}/jobs"
    return f"{url}?content=true" if content is True else url


def _offices(record: Any) -> list[str] | None:
    """[] would claim "no office"; an absent key means this response form does not say."""
    offices = field(record, "offices")
    if not isinstance(offices, list):
        return None
    return [n for n in (trimmed(field(o, "name")) for o in offices) if n]


class GreenhouseJobs(JobBoard):
    """Greenhouse Job Board API; descriptions (most of the payload) only with ``content``."""

    id = "greenhouse-jobs"
    name = "Greenhouse Job Board"
    description = (
        "Read a company's whole Greenhouse job board from the Job Board API rather than the "
        "rendered careers page: every published job with its title, location, ids and timestamps "
        "in one request. Descriptions are opt-in (content: true) because they are most of the "
        "payload; they come back as plain text."
    )
    target_pattern = re.compile(r"(boards|job-boards|boards-api)\.greenhouse\.io/", re.IGNORECASE)
    params = [
        company_param('Board token, the path segment in https://job-boards.greenhouse.io/<token>, e.g. "stripe".'),
        option_param("content", "true to include each job's description, departments and offices."),
    ]
    options = ("content",)
    api_host = "boards-api.greenhouse.io"
    board = "Greenhouse job board"
    answer = "Greenhouse job board"
    api = "the Greenhouse Job Board API"
    company_where = "the board token in https://job-boards.greenhouse.io/<token>"
    company_help = "The board token is the path segment in https://job-boards.greenhouse.io/<token>."
    job_keys = {
        "id": (job_id, "id"),
        "title": (trimmed, "title"),
        "url": (href, "absolute_url"),
        "location": (trimmed, "location.name"),
        # departments and offices ship only with content=true: a summary record says null.
        "department": (trimmed, "departments.0.name"),
        "published_at": (iso_date, "first_published"),
        "updated_at": (iso_date, "updated_at"),
        "description": (escaped_html_to_text, "content"),
    }
    extra_keys = {
        "internal_job_id": (job_id, "internal_job_id"),
        "requisition_id": (trimmed, "requisition_id"),
        "offices": _offices,
    }

    def api_url(self, company: str, content: Any = None) -> str:
        return greenhouse_url(company, content)

    def url_options(self, url) -> tuple:
        return (query_flag(url, "content"),)

    def extra(self, payload: Any, records: list, url: str | None, params: dict) -> dict:
        return {"company": first_company(records)}

    def total(self, payload: Any) -> Any:
        return field(field(payload, "meta"), "total")
