"""Ashby: a company's board from the Public Job Posting API."""

from __future__ import annotations

import re
from typing import Any

from ..api import as_list, field
from ..common import encode_uri_component, safe_url
from .base import JobBoard, company_param, href, option_param, segments
from .jobs import is_remote, iso_date, job_id, trimmed


def ashby_url(company: str) -> str:
    return f"https://api.ashbyhq.com/posting-api/job-board/{encode_uri_component(company)}"


def _secondary_locations(record: Any) -> list[str]:
    """Names only: the full entries carry a postal address per office."""
    names = (trimmed(field(s, "location")) for s in as_list(field(record, "secondaryLocations")))
    return [n for n in names if n]


class AshbyJobs(JobBoard):
    """Ashby Public Job Posting API; descriptions are trimmed here unless asked for."""

    id = "ashby-jobs"
    name = "Ashby Job Board"
    description = (
        "Read a company's whole Ashby job board from the Public Job Posting API rather than the "
        "rendered careers page: every listed job with its department, team, employment type and "
        "workplace type in one request. Descriptions are opt-in (descriptions: true) because "
        "they are most of the payload."
    )
    target_pattern = re.compile(r"(jobs|api)\.ashbyhq\.com/", re.IGNORECASE)
    params = [
        company_param('Jobs page name, the path segment in https://jobs.ashbyhq.com/<name>, e.g. "ramp".'),
        option_param("descriptions", "true to keep each job's plain-text description (applied when reading the answer)."),
    ]
    api_host = "api.ashbyhq.com"
    board = "Ashby job board"
    answer = "Ashby job board"
    api = "the Ashby Public Job Posting API"
    company_where = "the jobs page name in https://jobs.ashbyhq.com/<name>"
    company_help = "The jobs page name is the path segment in https://jobs.ashbyhq.com/<name>."
    job_keys = {
        "id": (job_id, "id"),
        "title": (trimmed, "title"),
        "url": (href, "jobUrl"),
        "location": (trimmed, "location"),
        "department": (trimmed, "department"),
        "team": (trimmed, "team"),
        "employment_type": (trimmed, "employmentType"),
        # workplaceType, not Ashby's isRemote: isRemote is true on Hybrid office jobs.
        "remote": (is_remote, "workplaceType"),
        "published_at": (iso_date, "publishedAt"),
        "description": (trimmed, "descriptionPlain"),
    }
    extra_keys = {
        "workplace_type": (trimmed, "workplaceType"),
        "secondary_locations": _secondary_locations,
        "apply_url": (href, "applyUrl"),
    }

    def api_url(self, company: str) -> str:
        return ashby_url(company)

    def to_job(self, record: Any, params: dict) -> dict:
        item = super().to_job(record, params)
        if params.get("descriptions") is not True:
            item["description"] = None
        return item

    def extra(self, payload: Any, records: list, url: str | None, params: dict) -> dict:
        return {"company": self._company(url, params), "api_version": trimmed(field(payload, "apiVersion"))}

    @staticmethod
    def _company(url: str | None, params: dict) -> str | None:
        """The payload names no organisation; the board slug (params, else the URL's last segment) does."""
        given = trimmed(params.get("company"))
        if given:
            return given
        parsed = safe_url(url)
        parts = segments(parsed) if parsed is not None else []
        return trimmed(parts[-1]) if parts else None
