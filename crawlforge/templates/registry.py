"""The template registry: find a template for a URL, list them, run one on a fetched body.

Templates are duck-typed (any object, or a dict, with the attributes of ``base.Template``), so
a caller can build a registry from their own set. The registry never fetches and never reads
the environment; ``run``/``run_list`` only wrap a template's output in the result envelope.

A URL longer than ``MAX_URL_LENGTH`` matches no template: a pattern is searched over the whole
URL, and the cost of a search can grow with the square of its length (a pattern that opens on
a repetition), while no template reads pages whose URL is longer than servers accept.
"""

from __future__ import annotations

import inspect
import re

from .base import TemplateError, TemplateRejectedError
from .catalog import TEMPLATES
from .common import as_document, iso_now, safe_url

MAX_URL_LENGTH = 8192  # characters: the request line most servers accept (nginx, Apache: 8 KiB)

def _get(template, key: str, default=None):
    """A template attribute, for objects and plain dicts alike."""
    if isinstance(template, dict):
        return template.get(key, default)
    return getattr(template, key, default)


def _pattern(template) -> re.Pattern | None:
    """The compiled target pattern; a plain string is compiled case-insensitively."""
    pattern = _get(template, "target_pattern")
    if isinstance(pattern, str):
        return re.compile(pattern, re.I)
    return pattern


_JS_FLAGS = ((re.I, "i"), (re.M, "m"), (re.S, "s"))


def js_regex_literal(pattern: re.Pattern) -> str:
    """Render a pattern as JS prints a RegExp: ``/source/flags`` with ``/`` escaped."""
    source, in_class, escaped = [], False, False
    for char in pattern.pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "/" and not in_class:
            source.append("\\")
        source.append(char)
    flags = "".join(flag for bit, flag in _JS_FLAGS if pattern.flags & bit)
    return f"/{''.join(source)}/{flags}"


def fetch_url(template, url: str) -> str:
    """What to request for a page URL: the template's own endpoint when it names one."""
    resolve = _get(template, "resolve_url")
    return resolve(url) if callable(resolve) else url


def _is_list_connector(template) -> bool:
    return callable(_get(template, "extract_list"))


def _host_anchored(pattern: re.Pattern, url: str) -> bool:
    """True when the pattern needs the URL's real host: it stops matching once the host is swapped."""
    parsed = safe_url(url)
    if parsed is None:
        return False
    try:
        parsed.hostname = "invalid-host"
    except ValueError:
        return False
    return pattern.search(parsed.href) is None


def by_shape_only(template, url: str) -> bool:
    """True when the template's pattern matched the URL's shape, not its site: it would match on
    any host, so only the fetched answer says whether the site is the template's."""
    pattern = _pattern(template)
    return pattern is not None and not _host_anchored(pattern, url)


def _is_page(template, url: str) -> bool:
    page_pattern = _get(template, "page_pattern")
    return page_pattern is None or page_pattern.search(url) is not None


def _first_choice(candidates: list, url: str):
    """The first host-anchored candidate, else the first in registration order, else None."""
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    for template in candidates:
        if _host_anchored(_pattern(template), url):
            return template
    return candidates[0]


def _call_extract_list(template, body, url, params):
    """``extract_list(body, url, params)``; a two-argument ``extract_list(body, params)`` also works."""
    extract_list = _get(template, "extract_list")
    try:
        positional = [
            p
            for p in inspect.signature(extract_list).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        positional = [None] * 3
    if len(positional) == 2:
        return extract_list(body, params)
    return extract_list(body, url, params)


def _is_empty_value(value) -> bool:
    return value is None or value == "" or (isinstance(value, list) and not value)


class TemplateRegistry:
    """A set of templates in registration order; the order breaks ties in ``detect``."""

    def __init__(self, templates=None):
        self._templates = list(TEMPLATES if templates is None else templates)
        self._by_id = {_get(t, "id"): t for t in self._templates}
        # compiled once: every crawled page is routed
        self._patterns = [(t, pattern) for t in self._templates if (pattern := _pattern(t)) is not None]

    def get(self, template_id):
        """The template with this id, or None."""
        return self._by_id.get(template_id) if isinstance(template_id, str) else None

    def detect(self, url):
        """The template for a URL: a pattern naming the host outranks one matching a path shape."""
        return _first_choice(self._candidates(url), url)

    def route(self, url):
        """The template a crawl sends a URL to: ``detect``'s choice among the templates whose
        ``page_pattern`` (when they declare one) the URL also matches, so a site's home page or
        another product line does not go to the site's product template."""
        return _first_choice([t for t in self._candidates(url) if _is_page(t, url)], url)

    def _candidates(self, url) -> list:
        if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH:
            return []
        return [t for t, pattern in self._patterns if pattern.search(url)]

    def list(self) -> list[dict]:
        """One summary per template; optional keys appear only when the template declares them."""
        return [self._summary(t) for t in self._templates]

    @staticmethod
    def _summary(template) -> dict:
        pattern = _pattern(template)
        summary = {
            "id": _get(template, "id"),
            "name": _get(template, "name"),
            "description": _get(template, "description"),
            "targetPattern": js_regex_literal(pattern) if pattern is not None else None,
            "mode": "list" if _is_list_connector(template) else "entity",
        }
        if _get(template, "params") is not None:
            summary["params"] = _get(template, "params")
        if _get(template, "requires_api_key"):
            summary["requires_api_key"] = True
        if _get(template, "credential_ref"):
            summary["credential_ref"] = _get(template, "credential_ref")
        if _get(template, "crawl_delay_seconds"):
            summary["crawl_delay_seconds"] = _get(template, "crawl_delay_seconds")
        return summary

    def _require(self, template_id):
        template = self.get(template_id)
        if template is None:
            available = ", ".join(_get(t, "id") for t in self._templates)
            raise TemplateError(f'Unknown template: "{template_id}". Available: {available}')
        return template

    def run(self, template_id, body, url, fetched_url=None) -> dict:
        """Extract one entity from a fetched body and wrap it in the result envelope."""
        template = self._require(template_id)
        extract_raw, extract = _get(template, "extract_raw"), _get(template, "extract")
        if not callable(extract_raw) and not callable(extract):
            raise TemplateError(
                f'Template "{template_id}" returns a list, not a single entity. Use runList() instead.'
            )
        data = extract_raw(body, url) if callable(extract_raw) else extract(as_document(body))
        self._reject_empty(template_id, data)
        warnings_hook = _get(template, "warnings")
        warnings = warnings_hook(data, url) if callable(warnings_hook) else []
        envelope = {"template": template_id, "template_name": _get(template, "name"), "url": url}
        if fetched_url is not None and fetched_url != url:
            envelope["fetchedUrl"] = fetched_url
        envelope.update(data=data, extractedAt=iso_now())
        if warnings:
            envelope["warnings"] = warnings
        return envelope

    @staticmethod
    def _reject_empty(template_id, data) -> None:
        """A record whose every field is empty means the page was not what the template reads."""
        if isinstance(data, dict) and data and all(_is_empty_value(v) for v in data.values()):
            raise TemplateRejectedError(
                f'Template "{template_id}" matched the page but extracted no data — every field '
                "came back empty. The page is probably a wall, an error page or a layout this "
                "template does not know; check the fetched body."
            )

    def run_list(self, template_id, body, url=None, params=None) -> dict:
        """Extract a list (a collection page, a job board) and wrap it in the list envelope."""
        template = self._require(template_id)
        if not _is_list_connector(template):
            connectors = ", ".join(_get(t, "id") for t in self._templates if _is_list_connector(t))
            raise TemplateError(
                f'Template "{template_id}" returns a single entity, not a list. Use run() instead. '
                f"List connectors: {connectors or 'none registered'}."
            )
        envelope = {"template": template_id, "template_name": _get(template, "name")}
        if url is not None:
            envelope["url"] = url
        if params is not None:
            envelope["params"] = params
        envelope.update(data=_call_extract_list(template, body, url, params), extractedAt=iso_now())
        return envelope
