"""Lever: a company's postings from the Postings API."""

from __future__ import annotations

import re
from typing import Any

from ..api import with_query
from ..common import encode_uri_component
from .base import JobBoard, company_param, href, option_param, truthy
from .jobs import is_remote, iso_date, job_id, text_list, trimmed


def lever_url(company: str, skip: Any = None, limit: Any = None) -> str:
    base = f"https://api.lever.co/v0/postings/{encode_uri_component(company)}"
    return with_query(base, [("mode", "json"), ("skip", skip), ("limit", limit)])


class LeverPostings(JobBoard):
    """Lever Postings API; its robots.txt asks for one request per second."""

    id = "lever-postings"
    name = "Lever Postings"
    description = (
        "Read a company's whole Lever job board from the Postings API rather than the rendered "
        "careers page: every published posting with its team, commitment, workplace type and "
        "plain-text description. Lever declares Crawl-delay: 1, republished as crawl_delay_seconds."
    )
    target_pattern = re.compile(r"(jobs|api)\.lever\.co/", re.IGNORECASE)
    crawl_delay_seconds = 1
    params = [
        company_param('Company name, the path segment in https://jobs.lever.co/<company>, e.g. "leverdemo".'),
        option_param("skip", "Postings to skip, for paging."),
        option_param("limit", "Postings per page."),
    ]
    options = ("skip", "limit")
    api_host = "api.lever.co"
    board = "Lever postings"
    answer = "Lever postings"
    api = "the Lever Postings API"
    company_where = "the path segment in https://jobs.lever.co/<company>"
    company_help = ("The company is the path segment in https://jobs.lever.co/<company>, "
                    "and the request needs mode=json.")
    records_key = None  # the answer is the list of postings itself
    missing = "the response was not a list of postings"
    job_keys = {
        "id": (job_id, "id"),
        "title": (trimmed, "text"),  # Lever calls the title "text"
        "url": (href, "hostedUrl"),
        "location": (trimmed, "categories.location"),
        "department": (trimmed, "categories.department"),
        "team": (trimmed, "categories.team"),
        "employment_type": (trimmed, "categories.commitment"),
        "remote": (is_remote, "workplaceType"),
        "published_at": (iso_date, "createdAt"),
        "description": (trimmed, "descriptionPlain"),
    }
    extra_keys = {
        "workplace_type": (trimmed, "workplaceType"),
        "level": (trimmed, "categories.level"),
        "all_locations": (text_list, "categories.allLocations"),
        "salary_range": (truthy, "salaryRange"),
        "apply_url": (href, "applyUrl"),
    }

    def api_url(self, company: str, skip: Any = None, limit: Any = None) -> str:
        return lever_url(company, skip, limit)
