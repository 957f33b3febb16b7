"""The template contract and its errors.

A template is any object with the attributes below (duck-typed, so a user can pass their own
to ``TemplateRegistry``); ``Template`` is a convenient base class that supplies the defaults.
Templates are pure: they never fetch and never read the environment.
"""

from __future__ import annotations

import re


class TemplateError(ValueError):
    """A template was used wrongly (unknown id, entity/list mix-up, bad parameter)."""


class TemplateRejectedError(TemplateError):
    """The body is not the template's own: a wall, a 404 page, another site's document."""


class MissingApiKeyError(TemplateError):
    """A template that needs a credential was called without one; the message names the variable."""


class Template:
    """Defaults for the optional parts of the template contract.

    Subclasses set ``id``, ``name``, ``description`` and usually ``target_pattern``, and
    define ``extract(doc)`` (HTML pages), ``extract_raw(body, url)`` (machine endpoints) or
    ``extract_list(body, url, params)`` (list connectors), plus ``resolve_url(url)`` /
    ``list_url(params)`` when the fetch URL differs from the page URL.

    What a crawl needs beyond the upstream contract is declared here too, so the spiders know
    no template by name: ``page_pattern`` (every page the template reads also matches it: a
    host-wide target pattern does not make a site's home page a product), ``default_params``
    (list parameters a crawl uses unless given), ``next_page_url(url, data)`` (the list's next
    page, from the paging fields of ``data``) and ``crawl_delay_seconds`` (the pacing the site
    asks for).
    """

    id: str = ""
    name: str = ""
    description: str = ""
    target_pattern: re.Pattern | None = None
    params: list[dict] | None = None
    requires_api_key: bool = False
    credential_ref: str | None = None
    crawl_delay_seconds: float | None = None
    page_pattern: re.Pattern | None = None
    default_params: dict = {}

    def next_page_url(self, url: str, data: dict) -> str | None:
        """The URL of the list's next page; None for a template whose answer is not paged."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"
