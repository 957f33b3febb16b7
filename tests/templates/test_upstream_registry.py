"""Upstream conformance: tests/registry.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 00b1a5b58f08faece8608cb383b8c137b4041378 (the version templates.md §0.1
follows): detection, list(), R24 connector params, injected templates, credentials, run_list.
JS names map to API.md (listUrl -> list_url(params), runList -> run_list).
"""

import re

import pytest

from crawlforge.templates import TEMPLATES, MissingApiKeyError, TemplateError, TemplateRegistry

REGISTRY = TemplateRegistry()

REPRESENTATIVE_URLS = {
    "shopify-product": "https://www.deathwishcoffee.com/products/2026-death-wish-coffee-mug",
    "shopify-collection": "https://www.allbirds.com/collections/mens",
    "amazon-product": "https://www.amazon.com/dp/B08N5WRWNW",
    "github-repo": "https://github.com/nodejs/node",
    "youtube-video": "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "reddit-thread": "https://www.reddit.com/r/node/comments/abc123/some-title/",
    "hacker-news-front-page": "https://news.ycombinator.com/news",
    "producthunt-launch": "https://www.producthunt.com/posts/crawlforge",
    "stackoverflow-question": "https://stackoverflow.com/questions/11227809/why-is-processing-a-sorted-array-faster",
    "npm-package": "https://www.npmjs.com/package/crawlforge-extractors",
    "greenhouse-jobs": "https://job-boards.greenhouse.io/stripe",
    "lever-postings": "https://jobs.lever.co/leverdemo",
    "ashby-jobs": "https://jobs.ashbyhq.com/ramp",
    "workable-jobs": "https://apply.workable.com/persado/",
    "recruitee-offers": "https://channable.recruitee.com/o/senior-engineer",
    "teamtailor-jobs": "https://career.teamtailor.com/jobs",
    "nhtsa-vin": "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/5UXWX7C5*BA?format=json",
    "npi-provider": "https://npiregistry.cms.hhs.gov/api/?version=2.1&state=CA&limit=5",
}

# --- detect -------------------------------------------------------------------------------


@pytest.mark.parametrize("template_id", [t.id for t in TEMPLATES])
def test_every_shipped_template_is_reachable_from_a_representative_url(template_id):
    assert REGISTRY.detect(REPRESENTATIVE_URLS[template_id]).id == template_id


def test_url_table_covers_every_template():
    assert sorted(REPRESENTATIVE_URLS) == sorted(t.id for t in TEMPLATES)


def test_unmatched_url_is_none():
    assert REGISTRY.detect("https://example.com/about") is None
    assert REGISTRY.detect("https://en.wikipedia.org/wiki/Web_scraping") is None


def test_input_that_is_not_a_url_is_none():
    assert REGISTRY.detect("not a url") is None
    assert REGISTRY.detect("") is None
    assert REGISTRY.detect(None) is None


@pytest.mark.parametrize(
    "host",
    ["www.amazon.co.jp", "www.amazon.es", "www.amazon.in", "www.amazon.it", "www.amazon.com.br", "www.amazon.com.au"],
)
def test_every_amazon_marketplace_is_detected(host):
    assert REGISTRY.detect(f"https://{host}/dp/B000000000").id == "amazon-product"


def test_host_anchored_pattern_beats_path_only_one():
    url = "https://www.amazon.com/Some-Widget/dp/B01/products/thing"
    assert REGISTRY.get("shopify-product").target_pattern.search(url)
    assert REGISTRY.detect(url).id == "amazon-product"


def test_two_path_only_patterns_tie_break_on_registration_order():
    assert REGISTRY.detect("https://shop.example.com/collections/all/products/mug").id == "shopify-product"


def test_detection_is_stateless_across_repeated_calls():
    url = REPRESENTATIVE_URLS["github-repo"]
    assert REGISTRY.detect(url).id == "github-repo"
    assert REGISTRY.detect(url).id == "github-repo"


# --- list ---------------------------------------------------------------------------------


def test_mode_is_derived_from_extract_list_not_stored():
    listed = {entry["id"]: entry for entry in REGISTRY.list()}
    assert listed["shopify-collection"]["mode"] == "list"
    assert listed["shopify-product"]["mode"] == "entity"
    assert all(not hasattr(t, "mode") and not hasattr(t, "kind") for t in TEMPLATES)


def test_credential_fields_absent_on_templates_that_need_no_key():
    for entry in REGISTRY.list():
        assert "requires_api_key" not in entry, entry["id"]
        assert "credential_ref" not in entry, entry["id"]


def test_existing_summary_fields_unchanged():
    shopify = next(e for e in REGISTRY.list() if e["id"] == "shopify-product")
    assert shopify["name"] == "Shopify Product"
    assert isinstance(shopify["description"], str)
    assert shopify["targetPattern"] == "/\\/products\\/[^/?#]+/i"


# --- R24 connector params -----------------------------------------------------------------

SAMPLE = {"company": "stripe", "store": "www.allbirds.com", "collection": "mens", "vin": "5UXWX7C5*BA"}
WITH_LIST_URL = [t for t in TEMPLATES if callable(getattr(t, "list_url", None))]


def _required(template):
    return [p["name"] for p in template.params if p["required"]]


def test_every_template_with_a_list_url_publishes_params():
    assert len(WITH_LIST_URL) >= 9
    listed = {entry["id"]: entry for entry in REGISTRY.list()}
    for template in WITH_LIST_URL:
        params = listed[template.id]["params"]
        assert isinstance(params, list) and params, template.id
        for param in params:
            assert isinstance(param["name"], str)
            assert isinstance(param["required"], bool)
            assert len(param["description"]) > 0, f"{template.id}.{param['name']}"


def test_templates_without_a_list_url_publish_no_params():
    for entry in REGISTRY.list():
        if not callable(getattr(REGISTRY.get(entry["id"]), "list_url", None)):
            assert "params" not in entry, entry["id"]


def test_each_required_param_is_refused_by_name():
    for template in WITH_LIST_URL:
        required = _required(template)
        for name in required:
            others = {n: SAMPLE[n] for n in required if n != name}
            with pytest.raises(Exception, match=f'"{name}"'):
                template.list_url(others)


def test_declared_required_params_are_all_list_url_needs():
    for template in WITH_LIST_URL:
        if template.id != "npi-provider":
            assert template.list_url({n: SAMPLE[n] for n in _required(template)}).startswith("https://"), template.id


def test_npi_provider_any_one_declared_criterion_suffices():
    npi = REGISTRY.get("npi-provider")
    with pytest.raises(Exception, match="at least one search criterion"):
        npi.list_url({})
    for param in npi.params:
        if param["name"] not in ("limit", "skip"):
            assert npi.list_url({param["name"]: "x"}).endswith(f"&{param['name']}=x")


def test_every_declared_optional_param_reaches_the_url_or_extract_list():
    extract_time = {"ashby-jobs.descriptions"}
    for template in WITH_LIST_URL:
        base = {n: SAMPLE[n] for n in _required(template)}
        if template.id == "npi-provider":
            base["number"] = "1234567890"
        without = template.list_url(base)
        for param in template.params:
            name = param["name"]
            if param["required"] or f"{template.id}.{name}" in extract_time:
                continue
            if template.id == "npi-provider" and name not in ("limit", "skip"):
                continue
            value = True if name in ("content", "details") else 5
            assert template.list_url({**base, name: value}) != without, f"{template.id}.{name} changed nothing"


# --- injected fixture templates -----------------------------------------------------------


class CredentialTemplate:
    """The upstream test's key-based stand-in, in the snake_case contract."""

    id = "fixture-keyed-api"
    name = "Fixture Keyed API"
    description = "Stand-in for a key-based API, so the credential contract has a test."
    target_pattern = re.compile(r"fixture-keyed\.example/events", re.I)
    requires_api_key = True
    credential_ref = "FIXTURE_API_KEY"

    def list_url(self, params=None):
        params = params or {}
        if not params.get("apiKey"):
            raise MissingApiKeyError(
                "fixture-keyed-api requires an API key. Set FIXTURE_API_KEY and pass it as params.apiKey."
            )
        if not params.get("city"):
            raise TemplateError('fixture-keyed-api requires a "city" parameter.')
        return f"https://fixture-keyed.example/events?city={params['city']}&apikey={params['apiKey']}"

    def extract_list(self, body, url=None, params=None):
        import json

        payload = json.loads(body)
        return {"items": payload["events"], "count": len(payload["events"]), "total_available": payload["total"]}


class EntityTemplate:
    id = "fixture-entity"
    name = "Fixture Entity"
    description = "A template with no extractList, to prove runList refuses it."
    target_pattern = re.compile(r"fixture-entity\.example", re.I)

    def extract_raw(self, body, url):
        return {"ok": True}


FIXTURES = TemplateRegistry([CredentialTemplate(), EntityTemplate()])
LIST_BODY = '{"events":[{"id":1},{"id":2}],"total":480}'


def test_registry_uses_the_set_it_was_given():
    assert [e["id"] for e in FIXTURES.list()] == ["fixture-keyed-api", "fixture-entity"]
    assert FIXTURES.get("shopify-product") is None
    assert FIXTURES.detect(REPRESENTATIVE_URLS["shopify-product"]) is None


def test_default_registry_unaffected_by_an_injected_one():
    assert REGISTRY.get("shopify-product").id == "shopify-product"


def test_unknown_id_names_what_is_registered():
    with pytest.raises(ValueError, match=r'Unknown template: "shopify-product"\. Available: fixture-keyed-api, fixture-entity'):
        FIXTURES.run("shopify-product", "{}", "https://x.example")


def test_missing_key_names_the_env_var():
    with pytest.raises(ValueError, match="FIXTURE_API_KEY"):
        FIXTURES.get("fixture-keyed-api").list_url({"city": "Austin"})


def test_list_advertises_the_key_requirement():
    entry = next(e for e in FIXTURES.list() if e["id"] == "fixture-keyed-api")
    assert entry["requires_api_key"] is True
    assert entry["credential_ref"] == "FIXTURE_API_KEY"
    assert entry["mode"] == "list"


def test_supplied_key_builds_the_url():
    assert (
        FIXTURES.get("fixture-keyed-api").list_url({"apiKey": "k123", "city": "Austin"})
        == "https://fixture-keyed.example/events?city=Austin&apikey=k123"
    )


def test_key_is_missing_before_any_other_parameter():
    with pytest.raises(ValueError, match="FIXTURE_API_KEY"):
        FIXTURES.get("fixture-keyed-api").list_url({})


# --- run_list -----------------------------------------------------------------------------


def test_run_list_envelope_carries_the_params():
    params = {"city": "Austin"}
    result = FIXTURES.run_list("fixture-keyed-api", LIST_BODY, params=params)
    assert result["template"] == "fixture-keyed-api"
    assert result["template_name"] == "Fixture Keyed API"
    assert result["params"] == params
    assert "url" not in result
    assert result["data"]["count"] == 2
    assert result["data"]["total_available"] == 480
    assert re.match(r"^\d{4}-\d{2}-\d{2}T", result["extractedAt"])


def test_run_list_url_driven_call_carries_the_url():
    url = "https://fixture-keyed.example/events?city=Austin"
    result = FIXTURES.run_list("fixture-keyed-api", LIST_BODY, url=url)
    assert result["url"] == url
    assert "params" not in result


def test_run_list_refuses_an_entity_template():
    with pytest.raises(ValueError, match=r"(?s)returns a single entity, not a list.*Use run\(\) instead"):
        FIXTURES.run_list("fixture-entity", "{}", url="https://fixture-entity.example")


def test_run_list_refuses_an_unknown_template():
    with pytest.raises(ValueError, match='Unknown template: "nope"'):
        FIXTURES.run_list("nope", "{}")
