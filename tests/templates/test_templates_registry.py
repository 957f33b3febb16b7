"""TemplateRegistry: list, get, detect, run/run_list envelopes and errors; retired templates."""

import re

import pytest

from conftest import ROOT

from crawlforge.templates import (
    RETIRED_TEMPLATES,
    TEMPLATES,
    MissingApiKeyError,
    TemplateError,
    TemplateRegistry,
    TemplateRejectedError,
    retired_template,
)
from crawlforge.templates.registry import by_shape_only, js_regex_literal

FIXTURES = ROOT / "fixtures" / "templates"
REGISTRY = TemplateRegistry()
SHIPPED_IDS = [
    "shopify-product", "shopify-collection", "amazon-product", "github-repo", "youtube-video",
    "reddit-thread", "hacker-news-front-page", "producthunt-launch", "stackoverflow-question",
    "npm-package", "greenhouse-jobs", "lever-postings", "ashby-jobs", "workable-jobs",
    "recruitee-offers", "teamtailor-jobs", "nhtsa-vin", "npi-provider",
]  # fmt: skip
ISO_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_shipped_set_in_registration_order():
    assert [t.id for t in TEMPLATES] == SHIPPED_IDS
    assert [s["id"] for s in REGISTRY.list()] == SHIPPED_IDS


def test_list_summary_keys_and_js_pattern_literal():
    product = REGISTRY.list()[0]
    assert list(product) == ["id", "name", "description", "targetPattern", "mode"]
    assert product["targetPattern"] == "/\\/products\\/[^/?#]+/i"
    assert product["mode"] == "entity"


def test_list_modes_follow_extract_list():
    modes = {s["id"]: s["mode"] for s in REGISTRY.list()}
    assert modes["shopify-collection"] == "list" and modes["npi-provider"] == "list"
    assert modes["nhtsa-vin"] == "entity" and modes["github-repo"] == "entity"


def test_list_publishes_params_only_for_templates_that_build_urls():
    summaries = {s["id"]: s for s in REGISTRY.list()}
    assert [p["name"] for p in summaries["shopify-collection"]["params"]] == ["store", "collection", "limit", "page"]
    assert summaries["shopify-collection"]["params"][0] == {
        "name": "store",
        "required": True,
        "description": 'Storefront domain, e.g. "www.allbirds.com".',
    }
    assert "params" not in summaries["github-repo"]
    with_params = [s for s in REGISTRY.list() if "params" in s]
    assert len(with_params) >= 9
    assert not any("requires_api_key" in s or "credential_ref" in s for s in REGISTRY.list())


def test_github_description_promises_nulls_and_readme_summary():
    description = REGISTRY.get("github-repo").description
    assert "Language and last-push date are null" in description and "README summary" in description


def test_js_regex_literal_escapes_slashes_outside_classes_only():
    assert js_regex_literal(re.compile(r"a/b[/]c\/d", re.I)) == "/a\\/b[/]c\\/d/i"
    assert js_regex_literal(re.compile("x")) == "/x/"


def test_get_unknown_is_none():
    assert REGISTRY.get("github-repo").id == "github-repo"
    assert REGISTRY.get("nope") is None


@pytest.mark.parametrize(
    ("url", "template_id"),
    [
        ("https://www.amazon.com/Some-Widget/dp/B01/products/thing", "amazon-product"),
        ("https://shop.example.com/collections/all/products/mug", "shopify-product"),
        ("https://shop.example.com/collections/all", "shopify-collection"),
        ("https://shop.example.com/collections/all/products.json?page=2", "shopify-collection"),
        ("https://github.com/honojs/hono", "github-repo"),
        ("https://github.com/honojs/hono/tree/main/src", "github-repo"),
        ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube-video"),
        ("https://youtu.be/dQw4w9WgXcQ?si=x", "youtube-video"),
        ("https://www.reddit.com/r/node/comments/1w2lsvx/i_built_volten/", "reddit-thread"),
        ("https://news.ycombinator.com", "hacker-news-front-page"),
        ("https://news.ycombinator.com/news?p=2", "hacker-news-front-page"),
        ("https://www.producthunt.com/products/hono", "producthunt-launch"),
        ("https://stackoverflow.com/questions/11227809/why-is-processing", "stackoverflow-question"),
        ("https://www.npmjs.com/package/@scope/name/v/1.0.0", "npm-package"),
        ("https://registry.npmjs.org/left-pad", "npm-package"),
    ],
)
def test_detect(url, template_id):
    assert REGISTRY.detect(url).id == template_id


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/honojs/hono/issues/123",
        "https://github.com/honojs/hono/blob/main/README.md",
        "https://news.ycombinator.com/item?id=1",
        "https://news.ycombinator.com/user?id=pg",
        "https://example.com/",
        "not a url",
        "",
        None,
        42,
    ],
)
def test_detect_nothing(url):
    assert REGISTRY.detect(url) is None


def test_detect_is_stateless():
    url = "https://www.amazon.com/Some-Widget/dp/B01/products/thing"
    assert [REGISTRY.detect(url).id for _ in range(3)] == ["amazon-product"] * 3


class Echo:
    """A minimal injected template: returns what it is told to."""

    id = "echo"
    name = "Echo"
    description = "Returns a fixed record."
    target_pattern = re.compile(r"echo\.test/", re.I)

    def __init__(self, record):
        self.record = record

    def extract_raw(self, body, url):
        return self.record


def test_injected_registry_knows_only_its_templates():
    registry = TemplateRegistry([Echo({"a": 1})])
    assert registry.get("github-repo") is None
    assert registry.detect("https://github.com/honojs/hono") is None
    assert registry.detect("https://echo.test/x").id == "echo"
    assert REGISTRY.get("github-repo") is not None
    assert registry.list() == [
        {"id": "echo", "name": "Echo", "description": "Returns a fixed record.", "targetPattern": "/echo\\.test\\//i", "mode": "entity"}
    ]


def test_run_envelope_without_fetched_url():
    result = TemplateRegistry([Echo({"a": 1})]).run("echo", "", "https://echo.test/x")
    assert list(result) == ["template", "template_name", "url", "data", "extractedAt"]
    assert (result["template"], result["template_name"], result["data"]) == ("echo", "Echo", {"a": 1})
    assert ISO_MS.match(result["extractedAt"])


def test_run_envelope_with_a_different_fetched_url():
    result = TemplateRegistry([Echo({"a": 1})]).run("echo", "", "https://echo.test/x", "https://echo.test/x.json")
    assert list(result) == ["template", "template_name", "url", "fetchedUrl", "data", "extractedAt"]
    assert result["fetchedUrl"] == "https://echo.test/x.json"
    same = TemplateRegistry([Echo({"a": 1})]).run("echo", "", "https://echo.test/x", "https://echo.test/x")
    assert "fetchedUrl" not in same


@pytest.mark.parametrize("record", [{"a": None, "b": "", "c": []}, {"a": None}])
def test_run_rejects_a_record_of_empty_fields(record):
    with pytest.raises(TemplateRejectedError, match="matched the page but extracted no data — every field came back empty"):
        TemplateRegistry([Echo(record)]).run("echo", "", "https://echo.test/x")


@pytest.mark.parametrize("record", [{"a": False}, {"a": 0}, {"a": {}}, {"a": None, "b": 1}, {}, []])
def test_run_keeps_records_with_any_real_value(record):
    assert TemplateRegistry([Echo(record)]).run("echo", "", "https://echo.test/x")["data"] == record


def test_run_unknown_template_lists_the_available_ids():
    with pytest.raises(TemplateError) as error:
        REGISTRY.run("nope", "", "https://a.com")
    assert str(error.value) == f'Unknown template: "nope". Available: {", ".join(SHIPPED_IDS)}'


def test_run_list_on_an_entity_template_names_the_list_connectors():
    with pytest.raises(TemplateError) as error:
        REGISTRY.run_list("github-repo", "")
    connectors = ", ".join(s["id"] for s in REGISTRY.list() if s["mode"] == "list")
    assert str(error.value) == (
        f'Template "github-repo" returns a single entity, not a list. Use run() instead. List connectors: {connectors}.'
    )
    with pytest.raises(TemplateError, match="List connectors: none registered."):
        TemplateRegistry([Echo({})]).run_list("echo", "")


def test_run_list_unknown_template():
    with pytest.raises(TemplateError, match='^Unknown template: "nope"'):
        REGISTRY.run_list("nope", "")


class KeyedBoard:
    """An injected list connector that needs an API key (§2.9 credential contract)."""

    id = "keyed-board"
    name = "Keyed board"
    description = "A board behind an API key."
    target_pattern = None
    requires_api_key = True
    credential_ref = "KEYED_BOARD_API_KEY"
    params = [{"name": "company", "required": True, "description": "Board slug."}]

    def list_url(self, params):
        if not params.get("api_key"):
            raise MissingApiKeyError("keyed-board needs an API key: set KEYED_BOARD_API_KEY.")
        if not params.get("company"):
            raise TemplateError('keyed-board requires a "company" parameter.')
        return f"https://keyed.test/{params['company']}"

    def extract_list(self, body, url, params):
        return {"jobs": [], "total_available": 480}


def test_credential_template_listing_and_missing_key_message():
    registry = TemplateRegistry([KeyedBoard()])
    (summary,) = registry.list()
    assert list(summary) == ["id", "name", "description", "targetPattern", "mode", "params", "requires_api_key", "credential_ref"]
    assert (summary["targetPattern"], summary["mode"], summary["requires_api_key"]) == (None, "list", True)
    assert summary["credential_ref"] == "KEYED_BOARD_API_KEY"
    with pytest.raises(MissingApiKeyError, match="KEYED_BOARD_API_KEY"):
        registry.get("keyed-board").list_url({})


def test_run_list_envelopes_carry_url_or_params_only_when_given():
    registry = TemplateRegistry([KeyedBoard()])
    by_params = registry.run_list("keyed-board", "{}", params={"company": "acme"})
    assert list(by_params) == ["template", "template_name", "params", "data", "extractedAt"]
    assert by_params["data"]["total_available"] == 480
    by_url = registry.run_list("keyed-board", "{}", url="https://keyed.test/acme")
    assert list(by_url) == ["template", "template_name", "url", "data", "extractedAt"]


def test_two_argument_extract_list_is_accepted():
    class TwoArgs(KeyedBoard):
        def extract_list(self, body, params):
            return {"params": params}

    result = TemplateRegistry([TwoArgs()]).run_list("keyed-board", "{}", params={"company": "a"})
    assert result["data"] == {"params": {"company": "a"}}


def test_retired_templates_are_not_shipped():
    assert set(RETIRED_TEMPLATES) == {"linkedin-profile", "tweet"}
    assert not set(RETIRED_TEMPLATES) & set(SHIPPED_IDS)
    assert all("robots.txt" in entry["reason"] for entry in RETIRED_TEMPLATES.values())


@pytest.mark.parametrize(
    ("value", "retired_id"),
    [
        ("tweet", "tweet"),
        ("linkedin-profile", "linkedin-profile"),
        ("https://x.com/jack/status/20", "tweet"),
        ("https://twitter.com/jack/status/20", "tweet"),
        ("https://www.linkedin.com/in/williamhgates", "linkedin-profile"),
        ("https://box.com/a/status/1", "tweet"),
    ],
)
def test_retired_template_answers_for_ids_and_urls(value, retired_id):
    answer = retired_template(value)
    assert list(answer) == ["id", "reason"]
    assert answer["id"] == retired_id
    assert "robots.txt" in answer["reason"]


def test_retired_reasons_name_what_blocks_them():
    assert "authentication wall" in retired_template("linkedin-profile")["reason"]
    tweet = retired_template("tweet")["reason"]
    assert "cdn.syndication.twimg.com" in tweet and "publish.x.com/oembed" in tweet and "X API" in tweet


@pytest.mark.parametrize("value", ["github-repo", "https://github.com/honojs/hono", None, 7])
def test_retired_template_none_for_live_or_non_strings(value):
    assert retired_template(value) is None


def _required_values(template) -> dict:
    return {p["name"]: "x" for p in template.params if p["required"]}


URL_BUILDERS = [t for t in TEMPLATES if callable(getattr(t, "list_url", None))]


def test_every_url_builder_declares_params():
    assert len(URL_BUILDERS) >= 9
    for template in URL_BUILDERS:
        assert template.params, template.id
        for param in template.params:
            assert set(param) == {"name", "required", "description"} and param["description"], template.id


@pytest.mark.parametrize("template", URL_BUILDERS, ids=lambda t: t.id)
def test_each_missing_required_param_is_named_in_quotes(template):
    required = _required_values(template)
    for name in required:
        with pytest.raises(ValueError, match=f'"{name}"'):
            template.list_url({k: v for k, v in required.items() if k != name})


def test_shopify_collection_optional_params_change_the_url():
    template = REGISTRY.get("shopify-collection")
    base = template.list_url({"store": "a.com", "collection": "mens"})
    assert template.list_url({"store": "a.com", "collection": "mens", "limit": 5}) == base + "?limit=5"
    assert template.list_url({"store": "a.com", "collection": "mens", "page": 5}) == base + "?page=5"


@pytest.mark.parametrize(
    ("url", "template_id"),
    [
        ("https://aws.amazon.com/s3/", None),
        ("https://www.amazon.com/", None),
        ("https://www.amazon.com/Some-Widget/dp/B01/products/thing", "amazon-product"),
        ("https://www.amazon.de/gp/product/B000000000", "amazon-product"),
        ("https://www.amazon.com/products/mug", "shopify-product"),  # not an Amazon page: the shape is left
        ("https://www.apple.com/products/iphone", "shopify-product"),
    ],
)
def test_route_sends_only_a_templates_own_pages_to_it(url, template_id):
    routed = REGISTRY.route(url)
    assert (routed.id if routed else None) == template_id


def test_a_match_by_url_shape_only_is_told_apart_from_a_site_match():
    assert by_shape_only(REGISTRY.get("shopify-product"), "https://www.apple.com/products/iphone")
    assert not by_shape_only(REGISTRY.get("npm-package"), "https://www.npmjs.com/package/express")
