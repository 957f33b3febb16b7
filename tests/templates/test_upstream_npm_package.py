"""Upstream conformance: tests/npm-package.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 4436895454d181c526d8d0a68559e2f3f297fea0 (the stored version): the
npm-package template on the upstream's condensed registry documents.
"""

import json

import pytest

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()
TEMPLATE = REGISTRY.get("npm-package")
REGISTRY_URL = "https://registry.npmjs.org/x"


def doc(**over) -> str:
    base = {
        "name": "crawlforge-mcp-server",
        "dist-tags": {"latest": "5.2.2"},
        "maintainers": [{"name": "slacey75", "email": "x@example.com"}],
        "time": {"modified": "2026-08-26T15:23:01.705Z", "5.2.2": "2026-08-26T15:23:01.521Z"},
        "versions": {
            "5.2.2": {
                "description": "CrawlForge MCP Server",
                "license": "MIT",
                "homepage": "https://crawlforge.dev",
                "repository": {"type": "git", "url": "git+https://github.com/mysleekdesigns/crawlforge-mcp.git"},
                "bugs": {"url": "https://github.com/mysleekdesigns/crawlforge-mcp/issues"},
                "keywords": ["mcp", "scraping"],
                "dependencies": {"cheerio": "^1.0.0", "zod": "^3.0.0"},
            }
        },
    }
    return json.dumps({**base, **over})


def extract(body: str) -> dict:
    return TEMPLATE.extract_raw(body, REGISTRY_URL)


def test_package_page_resolves_to_its_registry_document():
    assert TEMPLATE.resolve_url("https://www.npmjs.com/package/crawlforge-mcp-server") == "https://registry.npmjs.org/crawlforge-mcp-server"


def test_scope_is_kept():
    assert TEMPLATE.resolve_url("https://www.npmjs.com/package/@modelcontextprotocol/sdk") == "https://registry.npmjs.org/@modelcontextprotocol/sdk"


def test_version_suffix_is_dropped():
    assert TEMPLATE.resolve_url("https://www.npmjs.com/package/react/v/18.0.0") == "https://registry.npmjs.org/react"


def test_registry_url_is_left_alone():
    assert TEMPLATE.resolve_url("https://registry.npmjs.org/react") == "https://registry.npmjs.org/react"


def test_reads_the_latest_version():
    data = extract(doc())
    assert (data["version"], data["name"], data["license"]) == ("5.2.2", "crawlforge-mcp-server", "MIT")
    assert data["published"] == "2026-08-26T15:23:01.521Z"


def test_git_https_repository_is_browsable():
    assert extract(doc())["repository"] == "https://github.com/mysleekdesigns/crawlforge-mcp"


def test_git_ssh_spelling_is_normalised():
    body = doc(versions={"5.2.2": {"repository": {"url": "git+ssh://git@github.com/stevemao/left-pad.git"}}})
    assert extract(body)["repository"] == "https://github.com/stevemao/left-pad"


def test_owner_repo_shorthand_is_expanded():
    assert extract(doc(versions={"5.2.2": {"repository": "sindresorhus/got"}}))["repository"] == "https://github.com/sindresorhus/got"


def test_legacy_license_object():
    assert extract(doc(versions={"5.2.2": {"license": {"type": "WTFPL", "url": "http://example.com"}}}))["license"] == "WTFPL"


def test_deprecation_notice_is_reported():
    body = doc(versions={"5.2.2": {"deprecated": "use String.prototype.padStart instead"}})
    assert extract(body)["deprecated"] == "use String.prototype.padStart instead"


def test_live_package_is_not_deprecated():
    assert extract(doc())["deprecated"] is False


def test_dependencies_and_their_count():
    data = extract(doc())
    assert data["dependency_count"] == 2
    assert data["dependencies"]["cheerio"] == "^1.0.0"


def test_maintainers_flatten_to_usernames():
    assert extract(doc())["maintainers"] == ["slacey75"]


def test_not_found_document_is_rejected():
    with pytest.raises(ValueError, match="No npm package at .*Not found"):
        TEMPLATE.extract_raw('{"error":"Not found"}', "https://registry.npmjs.org/nope")


def test_non_json_is_rejected():
    with pytest.raises(ValueError, match="did not return JSON"):
        extract("<!doctype html><html>403</html>")


def test_listed_with_a_registry_api_description():
    listed = next(t for t in REGISTRY.list() if t["id"] == "npm-package")
    assert "registry API" in listed["description"]
