"""npm packages, read from the registry's package document (the npmjs.com page is rendered from it).

The registry host is a parameter (``NpmPackage(registry_host=...)``) so a mirror can be used.
"""

from __future__ import annotations

import re

from .api import parse_json
from .base import Template, TemplateRejectedError
from .common import first_truthy, js_truthy, safe_href, safe_url

REGISTRY_HOST = "registry.npmjs.org"
_PACKAGE_PATH = re.compile(r"^\/package\/((?:@[^/]+\/)?[^/]+)")


def license_of(value) -> str | None:
    """A license field in any of its published shapes: "MIT", ["MIT", "ISC"], {type: "MIT"}."""
    if not js_truthy(value):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        names = [name for name in map(license_of, value) if name]
        return ", ".join(names) or None
    if isinstance(value, dict):
        return value.get("type") or None
    return None


def repository_url(value) -> str | None:
    """A repository field as a browsable https URL (``git+ssh://git@host/x.git`` → ``https://host/x``)."""
    url = value.get("url") if isinstance(value, dict) else value
    if not isinstance(url, str):
        return None
    url = re.sub(r"\.git$", "", re.sub(r"^git\+", "", url))
    if re.fullmatch(r"[\w.-]+\/[\w.-]+", url, re.ASCII):
        return f"https://github.com/{url}"
    url = re.sub(r"^git@([^:/]+):", r"https://\1/", url)
    url = re.sub(r"^(?:git|ssh):\/\/(?:git@)?", "https://", url)
    return re.sub(r"^https:\/\/git@", "https://", url)


def _bugs(value) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return value.get("url") or value.get("email") or None
    return None


def _maintainers(value) -> list[str]:
    entries = value if isinstance(value, list) else []
    names = (m if isinstance(m, str) else m.get("name") if isinstance(m, dict) else None for m in entries)
    return [name for name in names if name]


def _document(body, url: str) -> dict:
    doc = parse_json(
        body,
        TemplateRejectedError(
            f"Not an npm registry document: {url} did not return JSON. This template reads the npm registry API."
        ),
    )
    doc = doc if isinstance(doc, dict) else {}
    if not isinstance(doc.get("name"), str):
        error = doc.get("error") if isinstance(doc.get("error"), str) else "no package document"
        raise TemplateRejectedError(f"No npm package at {url}: {error}.")
    return doc


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


class NpmPackage(Template):
    id = "npm-package"
    name = "npm Package"
    description = (
        "Read a package from the npm registry API rather than the rendered npmjs.com page: exact "
        "latest version, license, repository, homepage, maintainers, dependencies and any "
        "deprecation notice. npmjs.com blocks plain HTTP fetches, and its markup carries no stable "
        "hooks, so the page itself yields almost nothing. Weekly download counts are not included — "
        "they live on a separate api.npmjs.org endpoint."
    )

    def __init__(self, registry_host: str = REGISTRY_HOST):
        self.registry_host = registry_host

    @property
    def target_pattern(self) -> re.Pattern:
        """The npmjs.com package pages and the configured registry host."""
        return re.compile(r"npmjs\.com\/package\/|" + re.escape(self.registry_host), re.I)

    def resolve_url(self, url: str) -> str:
        """An npmjs.com package page (any ``/v/<version>``) → the registry document for the package."""
        parsed = safe_url(url)
        if parsed is None or parsed.hostname == self.registry_host.lower():
            return url
        match = _PACKAGE_PATH.match(parsed.pathname)
        return f"https://{self.registry_host}/{match.group(1)}" if match else url

    def extract_raw(self, body, url: str) -> dict:
        doc = _document(body, url)
        latest = _dict(doc.get("dist-tags")).get("latest") or None
        release = _dict(_dict(doc.get("versions")).get(latest)) if latest else {}
        times = _dict(doc.get("time"))
        dependencies = _dict(release.get("dependencies"))
        licence = release.get("license") if release.get("license") is not None else doc.get("license")
        deprecated = release.get("deprecated")
        return {
            "name": doc["name"],
            "version": latest,
            "description": release.get("description") or doc.get("description") or None,
            "license": license_of(licence),
            "homepage": safe_href(release.get("homepage") or doc.get("homepage")),
            "repository": safe_href(repository_url(first_truthy(release.get("repository"), doc.get("repository")))),
            "bugs": _bugs(first_truthy(release.get("bugs"), doc.get("bugs"))),
            "keywords": first_truthy(release.get("keywords"), doc.get("keywords"), []),
            "maintainers": _maintainers(doc.get("maintainers")),
            "dependencies": dependencies,
            "dependency_count": len(dependencies),
            "deprecated": deprecated if isinstance(deprecated, str) else False,
            "published": (times.get(latest) if latest else None) or None,
            "last_modified": times.get("modified") or None,
            "install_command": f"npm install {doc['name']}",
        }
