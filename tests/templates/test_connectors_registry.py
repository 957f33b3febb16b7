"""The connectors through the registry: detection, list() params (spec §2.6) and the credential
contract (§2.9), tested with an injected key-requiring template."""

from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT

from crawlforge.templates import MissingApiKeyError, Template, TemplateError, TemplateRegistry
from crawlforge.templates.ats import ATS_TEMPLATES
from crawlforge.templates.gov import GOV_TEMPLATES

FIXTURES = ROOT / "fixtures" / "connectors"
CONNECTORS = ATS_TEMPLATES + GOV_TEMPLATES
REGISTRY = TemplateRegistry()

# one live URL per connector: the boards and VINs the fixtures were captured from
REPRESENTATIVE_URLS = {
    "greenhouse-jobs": "https://job-boards.greenhouse.io/stripe",
    "lever-postings": "https://jobs.lever.co/leverdemo",
    "ashby-jobs": "https://jobs.ashbyhq.com/ramp",
    "workable-jobs": "https://apply.workable.com/persado/",
    "recruitee-offers": "https://channable.recruitee.com/o/senior-engineer",
    "teamtailor-jobs": "https://career.teamtailor.com/jobs",
    "nhtsa-vin": "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/5UXWX7C5*BA?format=json",
    "npi-provider": "https://npiregistry.cms.hhs.gov/api/?version=2.1&state=CA&limit=5",
}
SAMPLE = {"company": "stripe", "vin": "5UXWX7C5*BA"}


@pytest.mark.parametrize("template_id, url", REPRESENTATIVE_URLS.items())
def test_each_connector_is_detected_from_its_real_url(template_id, url):
    assert REGISTRY.detect(url).id == template_id


def test_connectors_are_registered_after_the_page_templates_in_spec_order():
    ids = [entry["id"] for entry in REGISTRY.list()]
    assert ids[-8:] == list(REPRESENTATIVE_URLS)


def test_list_publishes_params_and_no_credential_keys():
    entries = {e["id"]: e for e in REGISTRY.list() if e["id"] in REPRESENTATIVE_URLS}
    assert entries["nhtsa-vin"]["mode"] == "entity"
    assert all(e["mode"] == "list" for i, e in entries.items() if i != "nhtsa-vin")
    assert entries["greenhouse-jobs"]["targetPattern"] == r"/(boards|job-boards|boards-api)\.greenhouse\.io\//i"
    assert [p["name"] for p in entries["teamtailor-jobs"]["params"]] == ["company", "per_page", "offset"]
    assert [p["name"] for p in entries["nhtsa-vin"]["params"]] == ["vin", "modelYear"]
    assert len(entries["npi-provider"]["params"]) == 15
    for entry in entries.values():
        assert "requires_api_key" not in entry and "credential_ref" not in entry
        for param in entry["params"]:
            assert list(param) == ["name", "required", "description"]
            assert isinstance(param["required"], bool) and param["description"]


@pytest.mark.parametrize("connector", CONNECTORS, ids=lambda t: t.id)
def test_each_required_param_is_named_when_missing(connector):
    required = [p["name"] for p in connector.params if p["required"]]
    assert required == {"npi-provider": [], "nhtsa-vin": ["vin"]}.get(connector.id, ["company"])
    for name in required:
        others = {n: SAMPLE[n] for n in required if n != name}
        with pytest.raises(TemplateError, match=f'"{name}"'):
            connector.list_url(others)


@pytest.mark.parametrize("connector", [c for c in CONNECTORS if c.id != "npi-provider"], ids=lambda t: t.id)
def test_the_required_params_are_all_list_url_needs(connector):
    given = {p["name"]: SAMPLE[p["name"]] for p in connector.params if p["required"]}
    assert connector.list_url(given).startswith("https://")


@pytest.mark.parametrize("connector", CONNECTORS, ids=lambda t: t.id)
def test_every_optional_param_changes_the_url(connector):
    base = {p["name"]: SAMPLE[p["name"]] for p in connector.params if p["required"]}
    if connector.id == "npi-provider":
        base["number"] = "1234567890"
    without = connector.list_url(base)
    for param in connector.params:
        name = param["name"]
        if param["required"] or (connector.id, name) == ("ashby-jobs", "descriptions"):
            continue  # ashby has no API switch: descriptions applies in extract_list
        if connector.id == "npi-provider" and name not in ("limit", "skip"):
            continue
        value = True if name in ("content", "details") else 5
        assert connector.list_url({**base, name: value}) != without, name


def test_npi_any_single_declared_criterion_suffices():
    npi = GOV_TEMPLATES[1]
    criteria = [p["name"] for p in npi.params if p["name"] not in ("limit", "skip")]
    assert len(criteria) == 13
    for name in criteria:
        assert npi.list_url({name: "x"}).endswith(f"&{name}=x")


def test_run_list_wraps_a_real_board():
    body = (FIXTURES / "ats" / "lever-postings.json").read_text(encoding="utf-8")
    url = "https://api.lever.co/v0/postings/leverdemo?mode=json"
    result = REGISTRY.run_list("lever-postings", body, url=url)
    assert list(result) == ["template", "template_name", "url", "data", "extractedAt"]
    assert (result["template_name"], result["data"]["count"]) == ("Lever Postings", 5)


def test_run_decodes_a_vin_even_when_nothing_but_the_errors_decoded():
    body = (FIXTURES / "gov" / "nhtsa-vin-undecodable.json").read_text(encoding="utf-8")
    url = "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/NOTAREALVIN12345?format=json"
    result = REGISTRY.run("nhtsa-vin", body, url)
    assert result["data"]["decode_errors"]["codes"] == ["6", "7", "11", "400"]
    with pytest.raises(TemplateError, match='Template "nhtsa-vin" returns a single entity, not a list'):
        REGISTRY.run_list("nhtsa-vin", body, url=url)


# --- the credential contract, with an injected template -----------------------------------


class KeyedEvents(Template):
    """Stand-in for a key-based API: no such connector ships, so the contract is tested here."""

    id = "fixture-keyed-api"
    name = "Fixture Keyed API"
    description = "Stand-in for a key-based API, so the credential contract has a test."
    target_pattern = re.compile(r"fixture-keyed\.example/events", re.IGNORECASE)
    requires_api_key = True
    credential_ref = "FIXTURE_API_KEY"
    params = [{"name": "city", "required": True, "description": "City to list events for."}]

    def list_url(self, params=None):
        params = params or {}
        if not params.get("api_key"):  # before any other parameter: the key is the first thing to fix
            raise MissingApiKeyError(
                "fixture-keyed-api requires an API key. Set FIXTURE_API_KEY and pass it as params api_key."
            )
        if not params.get("city"):
            raise TemplateError('fixture-keyed-api requires a "city" parameter.')
        return f"https://fixture-keyed.example/events?city={params['city']}&apikey={params['api_key']}"

    def extract_list(self, body, url=None, params=None):
        payload = json.loads(body)
        return {"items": payload["events"], "count": len(payload["events"]), "total_available": payload["total"]}


class EntityOnly(Template):
    id = "fixture-entity"
    name = "Fixture Entity"
    description = "A template with no extract_list, to prove run_list refuses it."
    target_pattern = re.compile(r"fixture-entity\.example", re.IGNORECASE)

    def extract_raw(self, body, url):
        return {"ok": True}


KEYED = TemplateRegistry([KeyedEvents(), EntityOnly()])
EVENTS = json.dumps({"events": [{"id": 1}, {"id": 2}], "total": 480})


def test_injected_registry_knows_only_its_own_templates():
    assert [e["id"] for e in KEYED.list()] == ["fixture-keyed-api", "fixture-entity"]
    assert KEYED.get("greenhouse-jobs") is None
    assert KEYED.detect(REPRESENTATIVE_URLS["greenhouse-jobs"]) is None
    assert REGISTRY.get("greenhouse-jobs").id == "greenhouse-jobs"


def test_list_advertises_the_credential_requirement():
    entry = KEYED.list()[0]
    assert (entry["requires_api_key"], entry["credential_ref"], entry["mode"]) == (True, "FIXTURE_API_KEY", "list")
    assert "requires_api_key" not in KEYED.list()[1] and "credential_ref" not in KEYED.list()[1]


def test_a_missing_key_names_the_variable_before_any_other_param(monkeypatch):
    monkeypatch.setenv("FIXTURE_API_KEY", "from-the-environment")  # templates never read it
    template = KEYED.get("fixture-keyed-api")
    for params in ({"city": "Austin"}, {}, None):
        with pytest.raises(MissingApiKeyError, match="FIXTURE_API_KEY"):
            template.list_url(params)
    with pytest.raises(TemplateError, match='"city"'):
        template.list_url({"api_key": "k123"})
    assert template.list_url({"api_key": "k123", "city": "Austin"}) == "https://fixture-keyed.example/events?city=Austin&apikey=k123"


def test_run_list_envelope_passes_the_declared_total_through():
    params = {"city": "Austin"}
    by_params = KEYED.run_list("fixture-keyed-api", EVENTS, params=params)
    assert "url" not in by_params and by_params["params"] == params
    assert (by_params["data"]["count"], by_params["data"]["total_available"]) == (2, 480)
    by_url = KEYED.run_list("fixture-keyed-api", EVENTS, url="https://fixture-keyed.example/events?city=Austin")
    assert "params" not in by_url and by_url["url"] == "https://fixture-keyed.example/events?city=Austin"
    with pytest.raises(TemplateError, match=r"returns a single entity, not a list\. Use run\(\) instead\. List connectors: fixture-keyed-api\."):
        KEYED.run_list("fixture-entity", "{}", url="https://fixture-entity.example")
    with pytest.raises(TemplateError, match=r'^Unknown template: "greenhouse-jobs"\. Available: fixture-keyed-api, fixture-entity$'):
        KEYED.run_list("greenhouse-jobs", "{}")
