"""Teamtailor: a company's published jobs from the careers site's documented RSS feed."""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from ..api import with_query
from ..base import TemplateError
from ..common import encode_uri_component, html_to_text, safe_url
from .base import JobBoard, company_param, href, option_param
from .jobs import is_remote, iso_date, job_id, trimmed


def teamtailor_url(company: str, per_page: Any = None, offset: Any = None) -> str:
    base = f"https://{encode_uri_component(company)}.teamtailor.com/jobs.rss"
    try:
        return with_query(base, [("per_page", per_page), ("offset", offset)])
    except ValueError:
        raise TemplateError(f'teamtailor-jobs: "{company}" is not a valid subdomain.') from None


class TeamtailorJobs(JobBoard):
    """Teamtailor's RSS feed: the careers jobs page with ``.rss`` appended."""

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
        company_param('Teamtailor subdomain in https://<company>.teamtailor.com, e.g. "career".'),
        option_param("per_page", "Jobs per feed page (the feed's default is 100)."),
        option_param("offset", "Jobs to skip, for paging."),
    ]
    options = ("per_page", "offset")
    board = "Teamtailor job feed"
    company_where = "the subdomain in https://<company>.teamtailor.com"
    company_help = ('The feed is the careers site jobs page with ".rss" appended, '
                    "e.g. https://<company>.teamtailor.com/jobs.rss.")
    missing = "the response is not an RSS feed"
    # each <item> is read as {tag as written: trimmed text}, so the tt: prefixes are the feed's own
    job_keys = {
        "id": lambda item: job_id(trimmed(item.get("guid"))),  # the guid is Teamtailor's stable id
        "title": (trimmed, "title"),
        "url": (href, "link"),
        "location": lambda item: ", ".join(item["locations"]) or None,
        "department": (trimmed, "tt:department"),
        "remote": (is_remote, "remoteStatus"),
        "published_at": (iso_date, "pubDate"),
        # the description is HTML escaped inside the XML: the parser decodes it once
        "description": (html_to_text, "description"),
    }
    extra_keys = {
        "workplace_type": (trimmed, "remoteStatus"),
        "role": (trimmed, "tt:role"),
        "division": (trimmed, "tt:division"),
        "locations": lambda item: item["locations"],
    }

    def api_url(self, company: str, per_page: Any = None, offset: Any = None) -> str:
        return teamtailor_url(company, per_page, offset)

    def resolve_url(self, url: str) -> str:
        """Any careers page, custom domains included: a bare root gains ``/jobs`` first."""
        parsed = safe_url(url)
        if parsed is None or parsed.pathname.endswith(".rss"):
            return url
        path = parsed.pathname.rstrip("/")
        parsed.pathname = f"{path or '/jobs'}.rss"
        return parsed.href

    def read(self, body: str | bytes, url: str | None) -> tuple[Any, list | None]:
        """A well-formed feed with no <item> is a company with nothing open: count 0, not an error."""
        root = _parse_xml(body)
        named = [(_qname(e), e) for e in root.iter(etree.Element)] if root is not None else []
        if not any(q == "rss" for q, _ in named):
            return None, None
        return named, [_item(e) for e in _children_named(named, "channel", "item")]

    def extra(self, payload: Any, records: list, url: str | None, params: dict) -> dict:
        titles = _children_named(payload, "channel", "title")
        return {"company": trimmed(_xml_text(titles[0])) if titles else None}


def _item(item: etree._Element) -> dict:
    """An <item> as {tag: text} (first of each tag), the description untrimmed, and its locations."""
    named = [(_qname(e), e) for e in item.iter(etree.Element) if e is not item]
    record: dict[str, Any] = {}
    for qname, element in named:
        record.setdefault(qname, _xml_text(element))
    locations = (trimmed(_xml_text(e)) for e in _children_named(named, "tt:location", "tt:name"))
    record["locations"] = [n for n in locations if n]
    return record


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
