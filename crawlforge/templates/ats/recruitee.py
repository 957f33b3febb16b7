"""Recruitee: a company's published offers from the Careers Site API.

Fields that carry contact data (the per-job mailbox, application questions) are not mapped:
a job posting is company data.
"""

from __future__ import annotations

import re
from typing import Any

from ..api import field
from ..common import encode_uri_component, html_to_text, js_truthy
from .base import JobBoard, company_param, first_company, href, subdomain, truthy
from .jobs import is_remote, iso_date, job_id, text_list, trimmed


def recruitee_url(company: str) -> str:
    return f"https://{encode_uri_component(company)}.recruitee.com/api/offers/"


def _workplace(offer: Any) -> str:
    """Recruitee splits the workplace over three booleans; rebuild the one word."""
    for flag, word in (("remote", "remote"), ("hybrid", "hybrid"), ("on_site", "onsite")):
        if js_truthy(field(offer, flag)):
            return word
    return ""


class RecruiteeOffers(JobBoard):
    """Recruitee Careers Site API; only ``*.recruitee.com`` URLs name their tenant."""

    id = "recruitee-offers"
    name = "Recruitee Offers"
    description = (
        "Read a company's published Recruitee offers from the Careers Site API rather than the "
        "rendered careers page: title, department, location, employment type code, salary band "
        "and plain-text description for every open role in one request."
    )
    target_pattern = re.compile(r"\.recruitee\.com/", re.IGNORECASE)
    params = [
        company_param('Recruitee subdomain in https://<company>.recruitee.com, e.g. "channable".'),
    ]
    board = "Recruitee careers site"
    answer = "Recruitee offers"
    api = "the Recruitee Careers Site API"
    company_where = "the subdomain in https://<company>.recruitee.com"
    company_help = "The company is the subdomain in https://<company>.recruitee.com."
    records_key = "offers"
    missing = "no offers array"
    job_keys = {
        "id": (job_id, "id"),
        "title": (trimmed, "title"),
        "url": (href, "careers_url"),
        "location": (trimmed, "location"),
        "department": (trimmed, "department"),
        "employment_type": (trimmed, "employment_type_code"),
        "remote": lambda offer: is_remote(_workplace(offer)),
        "published_at": (iso_date, "published_at"),
        "updated_at": (iso_date, "updated_at"),
        "description": (html_to_text, "description"),
    }
    extra_keys = {
        "workplace_type": lambda offer: _workplace(offer) or None,
        "slug": (trimmed, "slug"),
        "salary": (truthy, "salary"),
        "tags": (text_list, "tags"),
        "apply_url": (href, "careers_apply_url"),
    }

    def api_url(self, company: str) -> str:
        return recruitee_url(company)

    def company_of(self, url) -> str | None:
        # a custom careers domain carries no subdomain to resolve: callers pass company instead
        return subdomain(url, "recruitee.com")

    def extra(self, payload: Any, records: list, url: str | None, params: dict) -> dict:
        return {"company": first_company(records)}
