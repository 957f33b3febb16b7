"""GitHub repository home pages, read from the page's embedded React payload with DOM fallbacks.

Counts come from exact numbers (payload, or the counters' ``title`` "32,407"), never from the
rounded labels ("32.4k"). Topics are read from DOM links only, so a logged-out page gives [].
"""

from __future__ import annotations

import json
import re

from .base import Template
from .common import (
    NOT_WS,
    WS,
    Doc,
    attr,
    find_all,
    find_first,
    first_not_none,
    is_number,
    js_trim,
    list_text,
    meta_content,
    node_text,
    path_match,
    safe_href,
    text,
    tidy,
)

_BOILERPLATE = re.compile(WS + "*Contribute to " + NOT_WS + r"+ development by creating an account on GitHub\.?")
_TREE_PATH = re.compile(r"^\/([^/]+)\/([^/]+)\/tree\/")
README_LIMIT = 500


def count(value) -> int | None:
    """An exact count: an integer, or a digits-and-commas string ("32,407"); "32.4k" is None."""
    if is_number(value):
        return int(value) if float(value).is_integer() else None
    if isinstance(value, str):
        digits = js_trim(value.replace(",", ""))
        return int(digits) if re.fullmatch(r"[0-9]+", digits) else None
    return None


def sidebar_about(doc: Doc) -> dict | None:
    """``payload.sidebarAbout`` of the first embedded-data script that parses and has it."""
    for script in find_all(doc, 'script[data-target="react-app.embeddedData"]'):
        try:
            data = json.loads(node_text(script))
        except ValueError:
            continue
        payload = data.get("payload") if isinstance(data, dict) else None
        about = payload.get("sidebarAbout") if isinstance(payload, dict) else None
        if isinstance(about, dict):
            return about
    return None


def _og_description(doc: Doc) -> str | None:
    og = meta_content(doc, 'meta[property="og:description"]')
    return tidy(_BOILERPLATE.sub("", og, count=1)) if og else None


def _license(about: dict | None, doc: Doc) -> str | None:
    repo = (about or {}).get("repo")
    licence = repo.get("license") if isinstance(repo, dict) else None
    if isinstance(licence, dict):
        spdx = licence.get("spdxId")
        name = spdx if spdx and spdx != "NOASSERTION" else licence.get("name")
        if name:
            return name
    return text(doc, ".octicon-law ~ span")


def _counter(doc: Doc, selector: str) -> str | None:
    """A counter's exact ``title`` when it holds a digit, else its label."""
    node = find_first(doc, selector)
    if node is None:
        return None
    title = node.attributes.get("title") or ""
    return title if re.search(r"[0-9]", title) else (js_trim(node_text(node)) or None)


def readme_summary(doc: Doc) -> str | None:
    """The README's first non-empty paragraph, cut to 500 characters with an ellipsis."""
    for paragraph in find_all(doc, "article.markdown-body p"):
        summary = tidy(node_text(paragraph))
        if summary:
            if len(summary) > README_LIMIT:
                return js_trim(summary[: README_LIMIT - 1]) + "…"
            return summary
    return None


class GithubRepo(Template):
    id = "github-repo"
    name = "GitHub Repository"
    description = (
        "A public GitHub repository home page: name, description, exact star/fork/watcher counts, "
        "license, homepage, open issues and a README summary (first paragraph, up to 500 "
        "characters). Language and last-push date are null on the logged-out page GitHub serves "
        "to crawlers; topics come from the page's topic links only."
    )
    target_pattern = re.compile(r"github\.com\/[^/]+\/[^/]+(?:\/tree\/.*)?\/?$", re.I)

    def resolve_url(self, url: str) -> str:
        """A branch or folder view (``/tree/...``) → the repository home page."""
        parsed, match = path_match(url, _TREE_PATH)
        return f"{parsed.origin}/{match.group(1)}/{match.group(2)}" if match else url

    def extract(self, doc: Doc) -> dict:
        about = sidebar_about(doc)
        payload = about or {}
        if about is not None:
            description = tidy(about.get("description"))
            homepage = safe_href(about.get("website"))
        else:
            description = tidy(text(doc, "p.f4.my-3")) or _og_description(doc)
            homepage = safe_href(attr(doc, 'a[href][rel="noopener noreferrer"]', "href"))
        return {
            "name": text(doc, 'strong[itemprop="name"] a') or text(doc, ".repository-content h1"),
            "description": description,
            "stars": first_not_none(
                count(payload.get("stargazerCount")), count(attr(doc, "#repo-stars-counter-star", "title"))
            ),
            "forks": first_not_none(
                count(payload.get("forksCount")), count(attr(doc, "#repo-network-counter", "title"))
            ),
            "watchers": first_not_none(
                count(payload.get("watcherCount")), count(text(doc, ".octicon-eye + strong"))
            ),
            "language": text(doc, 'span[itemprop="programmingLanguage"]')
            or text(doc, '.d-inline-flex[class*="language"]'),
            "topics": list_text(doc, 'a.topic-tag, a[href^="/topics/"]'),
            "license": _license(about, doc),
            "last_updated": attr(doc, "relative-time", "datetime"),
            "homepage": homepage,
            "open_issues": count(
                _counter(doc, "#issues-repo-tab-count") or text(doc, '.Counter[aria-label*="issue"]')
            ),
            "readme_summary": readme_summary(doc),
        }
