"""Job-board connectors: a company's whole board from the ATS platform's own public API.

Each connector builds the API URL (``list_url`` from parameters, ``resolve_url`` from a board
URL a user pasted), and ``extract_list`` maps the platform's answer onto the common job shape
of ``jobs.py``. They never fetch. Fields that carry contact data (Recruitee's per-job mailbox,
application forms) are not mapped: a job posting is company data.
"""

from __future__ import annotations

import re
from typing import Any

from ada_url import URL, URLSearchParams
from lxml import etree

from .api import as_list, field, parse_json, with_query
from .base import Template, TemplateError, TemplateRejectedError
from .common import (
    encode_uri_component, first_truthy, html_to_text, js_truthy, safe_href, safe_url,
)
from .jobs import (
    escaped_html_to_text,
    is_remote,
    iso_date,
    job,
    job_id,
    join_location,
    list_result,
    not_json,
    require_param,
    text_list,
    trimmed,
)


def _company_param(description: str) -> dict:
    return {"name": "company", "required": True, "description": description}


def _param(name: str, description: str) -> dict:
    return {"name": name, "required": False, "description": description}


def _segments(url: URL) -> list[str]:
    """Non-empty path segments, still percent-encoded as the URL parser left them."""
    return [s for s in url.pathname.split("/") if s]


def _query_get(url: URL, name: str) -> str | None:
    params = URLSearchParams(url.search)
    return params.get(name) if params.has(name) else None


def _subdomain(url: URL, domain: str) -> str | None:
    """``acme`` for ``acme.<domain>`` (case-insensitive), else None."""
    host = url.hostname
    rest = re.sub(rf"\.{re.escape(domain)}$", "", host, flags=re.IGNORECASE)
    return rest if rest and rest != host else None


# --- Greenhouse ------------------------------------------------------------------------------


def greenhouse_url(company: str, content: Any = None) -> str:
    url = f"https://boards-api.greenhouse.io/v1/boards/{encode_uri_component(company)}/jobs"
    return f"{url}?content=true" if content is True else url


class GreenhouseJobs(Template):
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
        _company_param('Board token, the path segment in https://job-boards.greenhouse.io/<token>, e.g. "stripe".'),
        _param("content", "true to include each job's description, departments and offices."),
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        company = require_param(
            self.id, "company", params.get("company"),
            "the board token in https://job-boards.greenhouse.io/<token>",
        )
        return greenhouse_url(company, params.get("content"))

    def resolve_url(self, url: str) -> str:
        parsed = safe_url(url)
        if parsed is None or parsed.hostname == "boards-api.greenhouse.io":
            return url
        segments = _segments(parsed)
        if not segments:
            return url
        return greenhouse_url(segments[0], _query_get(parsed, "content") == "true")

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        payload = parse_json(body, not_json("Greenhouse job board", url, "the Greenhouse Job Board API"))
        jobs = field(payload, "jobs")
        if not isinstance(jobs, list):
            reason = trimmed(field(payload, "error")) or "no jobs array"
            raise TemplateRejectedError(
                f"No Greenhouse job board at {url}: {reason}. "
                "The board token is the path segment in https://job-boards.greenhouse.io/<token>."
            )
        items = [self._job(record) for record in jobs]
        company = trimmed(field(jobs[0], "company_name")) if jobs else None
        return list_result(items, {"company": company}, field(field(payload, "meta"), "total"))

    def _job(self, record: Any) -> dict:
        departments = as_list(field(record, "departments"))
        offices = field(record, "offices")
        return job(
            self.id,
            id=job_id(field(record, "id")),
            title=trimmed(field(record, "title")),
            url=safe_href(trimmed(field(record, "absolute_url"))),
            location=trimmed(field(field(record, "location"), "name")),
            # departments and offices ship only with content=true: a summary record says null.
            department=trimmed(field(departments[0], "name")) if departments else None,
            published_at=iso_date(field(record, "first_published")),
            updated_at=iso_date(field(record, "updated_at")),
            description=escaped_html_to_text(field(record, "content")),
            raw_extra={
                "internal_job_id": job_id(field(record, "internal_job_id")),
                "requisition_id": trimmed(field(record, "requisition_id")),
                # [] would claim "no office"; an absent key means this response form does not say.
                "offices": [n for n in (trimmed(field(o, "name")) for o in offices) if n]
                if isinstance(offices, list) else None,
            },
        )


# --- Lever -----------------------------------------------------------------------------------


def lever_url(company: str, skip: Any = None, limit: Any = None) -> str:
    base = f"https://api.lever.co/v0/postings/{encode_uri_component(company)}"
    return with_query(base, [("mode", "json"), ("skip", skip), ("limit", limit)])


class LeverPostings(Template):
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
        _company_param('Company name, the path segment in https://jobs.lever.co/<company>, e.g. "leverdemo".'),
        _param("skip", "Postings to skip, for paging."),
        _param("limit", "Postings per page."),
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        company = require_param(
            self.id, "company", params.get("company"),
            "the path segment in https://jobs.lever.co/<company>",
        )
        return lever_url(company, params.get("skip"), params.get("limit"))

    def resolve_url(self, url: str) -> str:
        parsed = safe_url(url)
        if parsed is None or parsed.hostname == "api.lever.co":
            return url
        segments = _segments(parsed)
        return lever_url(segments[0]) if segments else url

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        payload = parse_json(body, not_json("Lever postings", url, "the Lever Postings API"))
        if not isinstance(payload, list):
            reason = trimmed(field(payload, "error")) or "the response was not a list of postings"
            raise TemplateRejectedError(
                f"No Lever postings at {url}: {reason}. The company is the path segment in "
                "https://jobs.lever.co/<company>, and the request needs mode=json."
            )
        return list_result([self._job(posting) for posting in payload])

    def _job(self, posting: Any) -> dict:
        categories = field(posting, "categories")
        categories = categories if isinstance(categories, dict) else {}
        salary = field(posting, "salaryRange")
        return job(
            self.id,
            id=job_id(field(posting, "id")),
            title=trimmed(field(posting, "text")),  # Lever calls the title "text"
            url=safe_href(trimmed(field(posting, "hostedUrl"))),
            location=trimmed(categories.get("location")),
            department=trimmed(categories.get("department")),
            team=trimmed(categories.get("team")),
            employment_type=trimmed(categories.get("commitment")),
            remote=is_remote(field(posting, "workplaceType")),
            published_at=iso_date(field(posting, "createdAt")),
            description=trimmed(field(posting, "descriptionPlain")),
            raw_extra={
                "workplace_type": trimmed(field(posting, "workplaceType")),
                "level": trimmed(categories.get("level")),
                "all_locations": text_list(categories.get("allLocations")),
                "salary_range": first_truthy(salary, None),
                "apply_url": safe_href(trimmed(field(posting, "applyUrl"))),
            },
        )


# --- Ashby -----------------------------------------------------------------------------------


def ashby_url(company: str) -> str:
    return f"https://api.ashbyhq.com/posting-api/job-board/{encode_uri_component(company)}"


class AshbyJobs(Template):
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
        _company_param('Jobs page name, the path segment in https://jobs.ashbyhq.com/<name>, e.g. "ramp".'),
        _param("descriptions", "true to keep each job's plain-text description (applied when reading the answer)."),
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        company = require_param(
            self.id, "company", params.get("company"),
            "the jobs page name in https://jobs.ashbyhq.com/<name>",
        )
        return ashby_url(company)

    def resolve_url(self, url: str) -> str:
        parsed = safe_url(url)
        if parsed is None or parsed.hostname == "api.ashbyhq.com":
            return url
        segments = _segments(parsed)
        return ashby_url(segments[0]) if segments else url

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        params = params or {}
        payload = parse_json(body, not_json("Ashby job board", url, "the Ashby Public Job Posting API"))
        jobs = field(payload, "jobs")
        if not isinstance(jobs, list):
            raise TemplateRejectedError(
                f"No Ashby job board at {url}: no jobs array. "
                "The jobs page name is the path segment in https://jobs.ashbyhq.com/<name>."
            )
        with_text = params.get("descriptions") is True
        items = [self._job(record, with_text) for record in jobs]
        extra = {"company": self._company(url, params), "api_version": trimmed(field(payload, "apiVersion"))}
        return list_result(items, extra)

    def _job(self, record: Any, with_text: bool) -> dict:
        return job(
            self.id,
            id=job_id(field(record, "id")),
            title=trimmed(field(record, "title")),
            url=safe_href(trimmed(field(record, "jobUrl"))),
            location=trimmed(field(record, "location")),
            department=trimmed(field(record, "department")),
            team=trimmed(field(record, "team")),
            employment_type=trimmed(field(record, "employmentType")),
            # workplaceType, not Ashby's isRemote: isRemote is true on Hybrid office jobs.
            remote=is_remote(field(record, "workplaceType")),
            published_at=iso_date(field(record, "publishedAt")),
            description=trimmed(field(record, "descriptionPlain")) if with_text else None,
            raw_extra={
                "workplace_type": trimmed(field(record, "workplaceType")),
                # names only: the full entries carry a postal address per office
                "secondary_locations": [
                    n for n in (trimmed(field(s, "location")) for s in as_list(field(record, "secondaryLocations"))) if n
                ],
                "apply_url": safe_href(trimmed(field(record, "applyUrl"))),
            },
        )

    @staticmethod
    def _company(url: str | None, params: dict) -> str | None:
        """The payload names no organisation; the board slug (params, else the URL's last segment) does."""
        given = trimmed(params.get("company"))
        if given:
            return given
        parsed = safe_url(url)
        segments = _segments(parsed) if parsed is not None else []
        return trimmed(segments[-1]) if segments else None


# --- Workable --------------------------------------------------------------------------------


def workable_url(company: str, details: Any = None) -> str:
    """The URL Workable documents; it redirects to apply.workable.com, so fetches follow redirects."""
    url = f"https://www.workable.com/api/accounts/{encode_uri_component(company)}"
    return f"{url}?details=true" if details is True else url


class WorkableJobs(Template):
    """Workable's public accounts endpoint (not the keyed SPI API)."""

    id = "workable-jobs"
    name = "Workable Jobs"
    description = (
        "Read a company's published Workable jobs from the public accounts endpoint rather than "
        "the rendered careers page: title, department, employment type, location parts and "
        "telecommuting flag for every open role. Descriptions are opt-in (details: true)."
    )
    target_pattern = re.compile(
        r"(apply\.workable\.com|www\.workable\.com/api/accounts|[\w-]+\.workable\.com/(jobs|spi))",
        re.IGNORECASE | re.ASCII,
    )
    params = [
        _company_param('Account subdomain, the path segment in https://apply.workable.com/<subdomain>, e.g. "persado".'),
        _param("details", "true to include each job's description."),
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        company = require_param(
            self.id, "company", params.get("company"),
            "the account subdomain, the path segment in https://apply.workable.com/<subdomain>",
        )
        return workable_url(company, params.get("details"))

    def resolve_url(self, url: str) -> str:
        parsed = safe_url(url)
        if parsed is None or re.search(r"/api/(v1/widget/)?accounts/", parsed.pathname):
            return url
        details = _query_get(parsed, "details") == "true"
        if parsed.hostname == "apply.workable.com":
            # a single-job link (/j/<shortcode>) does not name the account
            segments = _segments(parsed)
            return workable_url(segments[0], details) if segments and segments[0] != "j" else url
        subdomain = _subdomain(parsed, "workable.com")
        return workable_url(subdomain, details) if subdomain else url

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        # an unknown account answers 404 with the plain text "Not Found"
        payload = parse_json(body, not_json("Workable account", url, "the public Workable accounts endpoint"))
        jobs = field(payload, "jobs")
        if not isinstance(jobs, list):
            raise TemplateRejectedError(
                f"No Workable account at {url}: no jobs array. "
                "The account subdomain is the path segment in https://apply.workable.com/<subdomain>."
            )
        items = [self._job(record) for record in jobs]
        return list_result(items, {"company": trimmed(field(payload, "name"))})

    def _job(self, record: Any) -> dict:
        telecommuting = field(record, "telecommuting")
        return job(
            self.id,
            id=job_id(field(record, "shortcode")),  # the shortcode is Workable's public id
            title=trimmed(field(record, "title")),
            url=safe_href(trimmed(field(record, "url"))),
            location=join_location(field(record, "city"), field(record, "state"), field(record, "country")),
            department=trimmed(field(record, "department")),
            employment_type=trimmed(field(record, "employment_type")),
            remote=telecommuting if isinstance(telecommuting, bool) else None,
            published_at=iso_date(field(record, "published_on")),
            description=html_to_text(field(record, "description")),
            raw_extra={
                "shortcode": trimmed(field(record, "shortcode")),
                "code": trimmed(field(record, "code")),
                "function": trimmed(field(record, "function")),
                "apply_url": safe_href(trimmed(field(record, "application_url"))),
            },
        )


# --- Recruitee -------------------------------------------------------------------------------


def recruitee_url(company: str) -> str:
    return f"https://{encode_uri_component(company)}.recruitee.com/api/offers/"


class RecruiteeOffers(Template):
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
        _company_param('Recruitee subdomain in https://<company>.recruitee.com, e.g. "channable".'),
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        company = require_param(
            self.id, "company", params.get("company"), "the subdomain in https://<company>.recruitee.com"
        )
        return recruitee_url(company)

    def resolve_url(self, url: str) -> str:
        # a custom careers domain carries no subdomain to resolve: callers pass company instead
        parsed = safe_url(url)
        subdomain = _subdomain(parsed, "recruitee.com") if parsed is not None else None
        return recruitee_url(subdomain) if subdomain else url

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        payload = parse_json(body, not_json("Recruitee offers", url, "the Recruitee Careers Site API"))
        offers = field(payload, "offers")
        if not isinstance(offers, list):
            reason = trimmed(field(payload, "error")) or "no offers array"
            raise TemplateRejectedError(
                f"No Recruitee careers site at {url}: {reason}. "
                "The company is the subdomain in https://<company>.recruitee.com."
            )
        items = [self._job(offer) for offer in offers]
        company = trimmed(field(offers[0], "company_name")) if offers else None
        return list_result(items, {"company": company})

    def _job(self, offer: Any) -> dict:
        # mailbox_email, open_questions and translations are deliberately not read
        workplace = self._workplace(offer)
        salary = field(offer, "salary")
        return job(
            self.id,
            id=job_id(field(offer, "id")),
            title=trimmed(field(offer, "title")),
            url=safe_href(trimmed(field(offer, "careers_url"))),
            location=trimmed(field(offer, "location")),
            department=trimmed(field(offer, "department")),
            employment_type=trimmed(field(offer, "employment_type_code")),
            remote=is_remote(workplace),
            published_at=iso_date(field(offer, "published_at")),
            updated_at=iso_date(field(offer, "updated_at")),
            description=html_to_text(field(offer, "description")),
            raw_extra={
                "workplace_type": workplace or None,
                "slug": trimmed(field(offer, "slug")),
                "salary": first_truthy(salary, None),
                "tags": text_list(field(offer, "tags")),
                "apply_url": safe_href(trimmed(field(offer, "careers_apply_url"))),
            },
        )

    @staticmethod
    def _workplace(offer: Any) -> str:
        """Recruitee splits the workplace over three booleans; rebuild the one word."""
        for flag, word in (("remote", "remote"), ("hybrid", "hybrid"), ("on_site", "onsite")):
            if js_truthy(field(offer, flag)):
                return word
        return ""


# --- Teamtailor ------------------------------------------------------------------------------


def teamtailor_url(company: str, per_page: Any = None, offset: Any = None) -> str:
    base = f"https://{encode_uri_component(company)}.teamtailor.com/jobs.rss"
    try:
        return with_query(base, [("per_page", per_page), ("offset", offset)])
    except ValueError:
        raise TemplateError(f'teamtailor-jobs: "{company}" is not a valid subdomain.') from None


class TeamtailorJobs(Template):
    """Teamtailor's documented RSS feed: the careers jobs page with ``.rss`` appended."""

    id = "teamtailor-jobs"
    name = "Teamtailor Jobs"
    description = (
        "Read a company's published Teamtailor jobs from the careers site's documented RSS feed "
        "rather than the rendered page: title, department, locations, remote status and "
        "plain-text description for every open role. The feed returns the first 100 jobs unless "
        "per_page says otherwise."
    )
    # the careers-site root and the jobs page; deeper paths (/jobs/internal/) do not route here
    target_pattern = re.compile(r"teamtailor\.com/?(?:jobs(\.rss)?/?)?(\?|#|$)", re.IGNORECASE)
    params = [
        _company_param('Teamtailor subdomain in https://<company>.teamtailor.com, e.g. "career".'),
        _param("per_page", "Jobs per feed page (the feed's default is 100)."),
        _param("offset", "Jobs to skip, for paging."),
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        company = require_param(
            self.id, "company", params.get("company"), "the subdomain in https://<company>.teamtailor.com"
        )
        return teamtailor_url(company, params.get("per_page"), params.get("offset"))

    def resolve_url(self, url: str) -> str:
        """Any careers page, custom domains included: a bare root gains ``/jobs`` first."""
        parsed = safe_url(url)
        if parsed is None or parsed.pathname.endswith(".rss"):
            return url
        path = parsed.pathname.rstrip("/")
        parsed.pathname = f"{path or '/jobs'}.rss"
        return parsed.href

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        root = _parse_xml(body)
        named = [(_qname(e), e) for e in root.iter(etree.Element)] if root is not None else []
        if not any(q == "rss" for q, _ in named):
            raise TemplateRejectedError(
                f"No Teamtailor job feed at {url}: the response is not an RSS feed. The feed is the "
                'careers site jobs page with ".rss" appended, e.g. https://<company>.teamtailor.com/jobs.rss.'
            )
        # a well-formed feed with no <item> is a company with nothing open: count 0, not an error
        items = [self._job(e) for e in _children_named(named, "channel", "item")]
        titles = _children_named(named, "channel", "title")
        return list_result(items, {"company": trimmed(_xml_text(titles[0])) if titles else None})

    def _job(self, item: etree._Element) -> dict:
        named = [(_qname(e), e) for e in item.iter(etree.Element) if e is not item]

        def first(name: str) -> str | None:
            return next((trimmed(_xml_text(e)) for q, e in named if q == name), None)

        locations = [
            n for n in (trimmed(_xml_text(e)) for e in _children_named(named, "tt:location", "tt:name")) if n
        ]
        remote_status = first("remoteStatus")
        description = next((_xml_text(e) for q, e in named if q == "description"), None)
        return job(
            self.id,
            id=job_id(first("guid")),  # the guid is Teamtailor's stable id
            title=first("title"),
            url=safe_href(first("link")),
            location=", ".join(locations) or None,
            department=first("tt:department"),
            remote=is_remote(remote_status),
            published_at=iso_date(first("pubDate")),
            # the description is HTML escaped inside the XML: the parser decodes it once
            description=html_to_text(description),
            raw_extra={
                "workplace_type": remote_status,
                "role": first("tt:role"),
                "division": first("tt:division"),
                "locations": locations,
            },
        )


def _parse_xml(body: str | bytes) -> etree._Element | None:
    """Lenient XML parse (no entity expansion, no network); None when nothing parses."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    parser = etree.XMLParser(
        recover=True, resolve_entities=False, no_network=True,
        encoding="utf-8" if isinstance(body, str) else None,
    )
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return None


def _qname(element: etree._Element) -> str:
    """The tag as written (``tt:name``), so selectors read the feed's own prefixes."""
    tag = element.tag
    if not tag.startswith("{"):
        return tag  # no namespace, or a prefix the feed never declared
    local = tag.rpartition("}")[2]
    return f"{element.prefix}:{local}" if element.prefix else local


def _children_named(named: list[tuple[str, etree._Element]], parent: str, child: str) -> list:
    """CSS ``parent > child`` over ``(qname, element)`` pairs in document order."""
    return [e for q, e in named if q == child and e.getparent() is not None and _qname(e.getparent()) == parent]


def _xml_text(element: etree._Element) -> str:
    """All descendant text, as cheerio's ``.text()`` (comments excluded)."""
    return "".join(element.itertext())


ATS_TEMPLATES = [
    GreenhouseJobs(), LeverPostings(), AshbyJobs(), WorkableJobs(), RecruiteeOffers(), TeamtailorJobs(),
]
