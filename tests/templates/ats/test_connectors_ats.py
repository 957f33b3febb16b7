"""The six ATS connectors on real captures of their public APIs (fixtures/connectors/ats)."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT

from crawlforge.templates import TemplateError, TemplateRejectedError
from crawlforge.templates.ats import ATS_TEMPLATES
from crawlforge.items import Job
from crawlforge.templates.ats.jobs import JOB_FIELDS

FIXTURES = ROOT / "fixtures" / "connectors" / "ats"
CONNECTORS = {t.id: t for t in ATS_TEMPLATES}

BOARDS = {
    "greenhouse-jobs": ("greenhouse-jobs-content.json", "https://boards-api.greenhouse.io/v1/boards/stripe/jobs?content=true"),
    "lever-postings": ("lever-postings.json", "https://api.lever.co/v0/postings/leverdemo?mode=json"),
    "ashby-jobs": ("ashby-jobs.json", "https://api.ashbyhq.com/posting-api/job-board/ramp"),
    "workable-jobs": ("workable-jobs.json", "https://www.workable.com/api/accounts/persado?details=true"),
    "recruitee-offers": ("recruitee-offers.json", "https://channable.recruitee.com/api/offers/"),
    "teamtailor-jobs": ("teamtailor-jobs.rss", "https://career.teamtailor.com/jobs.rss"),
}


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def board(connector_id: str, params: dict | None = None) -> dict:
    name, url = BOARDS[connector_id]
    return CONNECTORS[connector_id].extract_list(fixture(name), url, params)


def by_id(result: dict, job_id: str) -> dict:
    return next(item for item in result["items"] if item["id"] == job_id)


# --- the shared contract ------------------------------------------------------------------


def test_six_connectors_in_spec_order():
    assert [t.id for t in ATS_TEMPLATES] == [
        "greenhouse-jobs", "lever-postings", "ashby-jobs", "workable-jobs", "recruitee-offers", "teamtailor-jobs",
    ]


@pytest.mark.parametrize("connector_id", BOARDS)
def test_every_job_has_the_common_keys_in_order_and_validates(connector_id):
    result = board(connector_id)
    assert result["count"] == len(result["items"]) > 0
    for item in result["items"]:
        assert list(item) == [*JOB_FIELDS, "raw_extra"]
        assert item["source"] == connector_id
        assert item["id"] and item["title"] and item["url"]
        assert Job.model_validate(item).model_dump() == item


@pytest.mark.parametrize("connector_id", BOARDS)
def test_common_values_are_null_string_or_bool_never_blank(connector_id):
    for item in board(connector_id)["items"]:
        for name in JOB_FIELDS:
            assert item[name] is None or isinstance(item[name], (str, bool)), (name, item[name])
            assert item[name] != ""
        assert item["remote"] in (True, False, None)


@pytest.mark.parametrize("connector", ATS_TEMPLATES, ids=lambda t: t.id)
def test_list_url_names_the_missing_company(connector):
    for params in ({}, None, {"company": "   "}):
        with pytest.raises(TemplateError, match=r'listUrl requires a "company" parameter — '):
            connector.list_url(params)


@pytest.mark.parametrize("connector", ATS_TEMPLATES, ids=lambda t: t.id)
def test_an_html_page_is_rejected_not_half_parsed(connector):
    with pytest.raises(TemplateRejectedError, match=r"^(Not a|No) "):
        connector.extract_list("<!doctype html><html><body>Not Found</body></html>", "https://example.com/jobs")


@pytest.mark.parametrize("connector", ATS_TEMPLATES, ids=lambda t: t.id)
def test_connectors_need_no_credentials(connector):
    assert not connector.requires_api_key
    assert connector.credential_ref is None


def test_all_boards_union_into_one_shape_with_sortable_dates():
    jobs = [item for connector_id in BOARDS for item in board(connector_id)["items"]]
    assert len(jobs) == 21
    assert {tuple(j) for j in jobs} == {(*JOB_FIELDS, "raw_extra")}
    assert sorted(j["published_at"] for j in jobs)[0] == "2015-10-18T06:26:06.399Z"  # Lever's oldest demo posting


# --- Greenhouse ---------------------------------------------------------------------------

GREENHOUSE = CONNECTORS["greenhouse-jobs"]


def test_greenhouse_reads_the_captured_board():
    result = board("greenhouse-jobs")
    assert (result["count"], result["total_available"], result["company"]) == (3, 571, "Stripe")
    assert list(result) == ["items", "count", "total_available", "company"]
    first = result["items"][0]
    assert {k: v for k, v in first.items() if k != "description"} == {
        "id": "7532733",
        "title": "Account Executive, AI Sales",
        "url": "https://stripe.com/jobs/search?gh_jid=7532733",
        "location": "San Francisco, CA",
        "department": "1175 Enterprise - Account Executives (NA)",
        "team": None,
        "employment_type": None,
        "remote": None,
        "published_at": "2026-02-03T20:19:01.000Z",
        "updated_at": "2026-08-25T21:40:40.000Z",
        "source": "greenhouse-jobs",
        "raw_extra": {"internal_job_id": "3336216", "requisition_id": "See Opening ID", "offices": ["US"]},
    }


def test_greenhouse_double_escaped_description_is_decoded_then_stripped():
    description = board("greenhouse-jobs")["items"][0]["description"]
    assert description.startswith("Who we are About Stripe Stripe is a financial infrastructure platform")
    assert "<h2>" not in description and "&lt;" not in description


def test_greenhouse_job_in_two_offices_keeps_both():
    job = by_id(board("greenhouse-jobs"), "8041655")
    assert (job["title"], job["location"]) == ("Product Manager, E-Invoicing", "Dublin, Ireland")
    assert job["raw_extra"]["offices"] == ["ES-Barcelona", "Ireland Locations"]


def test_greenhouse_summary_form_reports_no_department_description_or_offices():
    result = GREENHOUSE.extract_list(
        fixture("greenhouse-jobs-summary.json"), "https://boards-api.greenhouse.io/v1/boards/stripe/jobs"
    )
    assert (result["count"], result["total_available"], result["company"]) == (2, 571, "Stripe")
    first, second = result["items"]
    assert (first["id"], first["title"], first["location"]) == ("7532733", "Account Executive, AI Sales", "San Francisco, CA")
    assert first["description"] is None and first["department"] is None
    assert first["raw_extra"]["offices"] is None  # absent, not "no office"
    assert second["location"] == "San Francisco, CA; New York, NY"
    assert second["published_at"] == second["updated_at"] == "2026-08-25T20:04:02.000Z"


def test_greenhouse_unknown_board_and_non_json_errors():
    url = "https://boards-api.greenhouse.io/v1/boards/nope/jobs"
    with pytest.raises(TemplateRejectedError) as error:
        GREENHOUSE.extract_list('{"status":404,"error":"Job not found"}', url)
    assert str(error.value) == (
        f"No Greenhouse job board at {url}: Job not found. "
        "The board token is the path segment in https://job-boards.greenhouse.io/<token>."
    )
    with pytest.raises(TemplateRejectedError) as error:
        GREENHOUSE.extract_list("<html>oops</html>", url)
    assert str(error.value) == (
        f"Not a Greenhouse job board response: {url} did not return JSON. "
        "This connector reads the Greenhouse Job Board API."
    )


def test_greenhouse_urls():
    assert GREENHOUSE.list_url({"company": "stripe"}) == "https://boards-api.greenhouse.io/v1/boards/stripe/jobs"
    assert GREENHOUSE.list_url({"company": "stripe", "content": True}).endswith("/stripe/jobs?content=true")
    assert GREENHOUSE.list_url({"company": "stripe", "content": "true"}).endswith("/stripe/jobs")  # only boolean true
    assert GREENHOUSE.list_url({"company": "a b*"}).endswith("/boards/a%20b*/jobs")
    assert GREENHOUSE.resolve_url("https://job-boards.greenhouse.io/stripe") == "https://boards-api.greenhouse.io/v1/boards/stripe/jobs"
    assert GREENHOUSE.resolve_url("https://boards.greenhouse.io/stripe/jobs/7532733") == "https://boards-api.greenhouse.io/v1/boards/stripe/jobs"
    assert GREENHOUSE.resolve_url("https://job-boards.greenhouse.io/stripe?content=true").endswith("?content=true")
    api = "https://boards-api.greenhouse.io/v1/boards/stripe/jobs?content=true"
    assert GREENHOUSE.resolve_url(api) == api
    assert GREENHOUSE.resolve_url("https://boards.greenhouse.io/") == "https://boards.greenhouse.io/"


# --- Lever --------------------------------------------------------------------------------

LEVER = CONNECTORS["lever-postings"]


def test_lever_declares_its_crawl_delay():
    assert LEVER.crawl_delay_seconds == 1


def test_lever_reads_real_postings_title_from_text():
    result = board("lever-postings")
    assert list(result) == ["items", "count"] and result["count"] == 5
    first = result["items"][0]
    assert first["description"].startswith("Welcome to the Demo Job Listing for Lever!")
    assert {k: v for k, v in first.items() if k != "description"} == {
        "id": "33538a2f-d27d-4a96-8f05-fa4b0e4d940e",
        "title": "AbelsonTaylor Writer",
        "url": "https://jobs.lever.co/leverdemo/33538a2f-d27d-4a96-8f05-fa4b0e4d940e",
        "location": "Arlington, TX",
        "department": "Customer Success",
        "team": "Professional Services",
        "employment_type": "Regular Full Time (Salary)",
        "remote": None,
        "published_at": "2019-03-21T16:33:55.299Z",
        "updated_at": None,
        "source": "lever-postings",
        "raw_extra": {
            "workplace_type": "hybrid",
            "level": None,
            "all_locations": ["Arlington, TX"],
            "salary_range": None,
            "apply_url": "https://jobs.lever.co/leverdemo/33538a2f-d27d-4a96-8f05-fa4b0e4d940e/apply",
        },
    }


def test_lever_sparse_categories_report_nulls():
    result = board("lever-postings")
    sparse = by_id(result, "79eda854-d6ba-4e73-9eb0-524daefed2d8")
    assert (sparse["location"], sparse["department"], sparse["team"], sparse["employment_type"]) == (None, None, "Sales", None)
    assert sparse["raw_extra"]["all_locations"] == []
    level = by_id(result, "6d94d2c9-3c9d-415b-b457-281a68d1f6f4")
    assert (level["title"], level["team"], level["raw_extra"]["level"]) == ("Apprentice Electrician", None, "Senior")
    assert level["published_at"] == "2015-10-18T06:26:06.399Z"


def test_lever_workplace_type_decides_remote():
    result = board("lever-postings")
    assert by_id(result, "c559265a-55ec-4f75-ac56-78290081f6e7")["remote"] is True  # "remote"
    assert by_id(result, "1897fca1-502e-4511-b279-de479e99fbea")["remote"] is None  # "unspecified"
    assert by_id(result, "33538a2f-d27d-4a96-8f05-fa4b0e4d940e")["remote"] is None  # "hybrid"


def test_lever_salary_band_and_trimmed_plain_description():
    paid = by_id(board("lever-postings"), "c559265a-55ec-4f75-ac56-78290081f6e7")
    assert paid["raw_extra"]["salary_range"] == {"min": 10000, "max": 125000, "currency": "USD", "interval": "per-year-salary"}
    assert paid["description"] == "aegaegdagdag"  # descriptionPlain "aegaegdagdag\n", trimmed only


def test_lever_unknown_company():
    url = "https://api.lever.co/v0/postings/nope?mode=json"
    with pytest.raises(TemplateRejectedError) as error:
        LEVER.extract_list('{"ok":false,"error":"Document not found"}', url)
    assert str(error.value) == (
        f"No Lever postings at {url}: Document not found. The company is the path segment in "
        "https://jobs.lever.co/<company>, and the request needs mode=json."
    )
    with pytest.raises(TemplateRejectedError, match="the response was not a list of postings"):
        LEVER.extract_list("{}", url)


def test_lever_urls():
    assert LEVER.list_url({"company": "leverdemo"}) == "https://api.lever.co/v0/postings/leverdemo?mode=json"
    assert LEVER.list_url({"company": "leverdemo", "skip": 50, "limit": 25}) == (
        "https://api.lever.co/v0/postings/leverdemo?mode=json&skip=50&limit=25"
    )
    assert LEVER.list_url({"company": "leverdemo", "limit": 5}) == "https://api.lever.co/v0/postings/leverdemo?mode=json&limit=5"
    assert LEVER.resolve_url("https://jobs.lever.co/leverdemo") == "https://api.lever.co/v0/postings/leverdemo?mode=json"
    assert LEVER.resolve_url("https://jobs.lever.co/leverdemo/33538a2f-d27d-4a96-8f05-fa4b0e4d940e") == (
        "https://api.lever.co/v0/postings/leverdemo?mode=json"
    )
    api = "https://api.lever.co/v0/postings/leverdemo?mode=json&skip=100"
    assert LEVER.resolve_url(api) == api


# --- Ashby --------------------------------------------------------------------------------

ASHBY = CONNECTORS["ashby-jobs"]


def test_ashby_reads_the_captured_board():
    result = board("ashby-jobs")
    assert list(result) == ["items", "count", "company", "api_version"]
    assert (result["count"], result["company"], result["api_version"]) == (4, "ramp", "1")
    assert by_id(result, "6a20b3b8-8111-4cbd-be4b-423b60660738") == {
        "id": "6a20b3b8-8111-4cbd-be4b-423b60660738",
        "title": "Office Coordinator, NYC",
        "url": "https://jobs.ashbyhq.com/ramp/6a20b3b8-8111-4cbd-be4b-423b60660738",
        "location": "New York, NY (HQ)",
        "department": "People & Talent",
        "team": "Workplace",
        "employment_type": "FullTime",
        "remote": False,
        "published_at": "2026-07-28T18:22:37.155Z",
        "updated_at": None,
        "description": None,
        "source": "ashby-jobs",
        "raw_extra": {
            "workplace_type": "OnSite",
            "secondary_locations": [],
            "apply_url": "https://jobs.ashbyhq.com/ramp/6a20b3b8-8111-4cbd-be4b-423b60660738/application",
        },
    }


def test_ashby_descriptions_are_opt_in():
    assert all(item["description"] is None for item in board("ashby-jobs")["items"])
    assert all(item["description"] is None for item in board("ashby-jobs", {"descriptions": "true"})["items"])
    job = by_id(board("ashby-jobs", {"descriptions": True}), "6a20b3b8-8111-4cbd-be4b-423b60660738")
    assert job["description"].startswith("ABOUT RAMP\n\nRamp is building the smart infrastructure")


def test_ashby_hybrid_job_is_not_remote_whatever_is_remote_says():
    raw = next(j for j in json.loads(fixture("ashby-jobs.json"))["jobs"] if j["id"] == "34413f8d-26bf-4bbc-8ade-eb309a0e2245")
    assert raw["isRemote"] is True and raw["title"] == " Security Engineer, Cloud"
    job = by_id(board("ashby-jobs"), "34413f8d-26bf-4bbc-8ade-eb309a0e2245")
    assert (job["title"], job["remote"], job["raw_extra"]["workplace_type"]) == ("Security Engineer, Cloud", None, "Hybrid")
    assert job["published_at"] == "2026-04-07T17:12:35.753Z"


def test_ashby_secondary_locations_and_own_words():
    result = board("ashby-jobs")
    remote = by_id(result, "d84bbf19-572a-499c-9c87-0c154ce85caf")
    assert remote["remote"] is True
    assert remote["raw_extra"]["secondary_locations"] == ["San Francisco, CA", "Remote (US)"]
    intern = by_id(result, "67fadb77-43d8-4449-954b-d4cf2c6d3b8b")
    assert (intern["employment_type"], intern["team"], intern["title"]) == (
        "Intern", "Emerging Talent - SWE", "Software Engineer Internship, Android",
    )


def test_ashby_company_prefers_params_then_url_slug():
    body = fixture("ashby-jobs.json")
    assert ASHBY.extract_list(body, "https://api.ashbyhq.com/posting-api/job-board/ramp", {"company": "Ramp"})["company"] == "Ramp"
    assert ASHBY.extract_list(body, None)["company"] is None


def test_ashby_unknown_board_and_urls():
    with pytest.raises(TemplateRejectedError) as error:
        ASHBY.extract_list('{"apiVersion":"1"}', "https://api.ashbyhq.com/posting-api/job-board/nope")
    assert str(error.value) == (
        "No Ashby job board at https://api.ashbyhq.com/posting-api/job-board/nope: no jobs array. "
        "The jobs page name is the path segment in https://jobs.ashbyhq.com/<name>."
    )
    with pytest.raises(TemplateRejectedError, match=r"^Not a Ashby job board response: .* This connector reads the Ashby Public Job Posting API\.$"):
        ASHBY.extract_list("nope", "https://api.ashbyhq.com/posting-api/job-board/nope")
    assert ASHBY.list_url({"company": "ramp"}) == "https://api.ashbyhq.com/posting-api/job-board/ramp"
    assert ASHBY.resolve_url("https://jobs.ashbyhq.com/ramp") == "https://api.ashbyhq.com/posting-api/job-board/ramp"
    assert ASHBY.resolve_url("https://jobs.ashbyhq.com/ramp/6a20b3b8-8111-4cbd-be4b-423b60660738") == (
        "https://api.ashbyhq.com/posting-api/job-board/ramp"
    )


# --- Workable -----------------------------------------------------------------------------

WORKABLE = CONNECTORS["workable-jobs"]


def test_workable_reads_the_captured_account():
    result = board("workable-jobs")
    assert (result["count"], result["company"]) == (3, "Persado")
    first = result["items"][0]
    assert first["description"].startswith("Salary Range: $125,000.00 - $145,000.00 per year base salary")
    assert {k: v for k, v in first.items() if k != "description"} == {
        "id": "EB98E75C30",
        "title": "Manager, Project Management",
        "url": "https://apply.workable.com/j/EB98E75C30",
        "location": "New York, United States",
        "department": "Campaign Delivery & Onboarding",
        "team": None,
        "employment_type": "Full-time",
        "remote": True,
        "published_at": "2026-07-31",  # a date only: not widened to midnight
        "updated_at": None,
        "source": "workable-jobs",
        "raw_extra": {
            "shortcode": "EB98E75C30",
            "code": None,
            "function": "Project Management",
            "apply_url": "https://apply.workable.com/j/EB98E75C30/apply",
        },
    }


def test_workable_blank_city_and_state_drop_out_of_location():
    result = board("workable-jobs")
    blank = by_id(result, "B9D91A4C0B")
    assert (blank["location"], blank["raw_extra"]["code"]) == ("United States", None)
    dc = by_id(result, "D6FB457899")
    assert dc["location"] == "Washington, District of Columbia, United States"
    assert (dc["published_at"], dc["raw_extra"]["function"]) == ("2026-08-07", None)


def test_workable_unknown_account_is_plain_text():
    with pytest.raises(TemplateRejectedError) as error:
        WORKABLE.extract_list("Not Found", "https://www.workable.com/api/accounts/nope")
    assert str(error.value) == (
        "Not a Workable account response: https://www.workable.com/api/accounts/nope did not return JSON. "
        "This connector reads the public Workable accounts endpoint."
    )
    with pytest.raises(TemplateRejectedError, match=r"^No Workable account at .*: no jobs array\. "):
        WORKABLE.extract_list('{"name":"x"}', "https://www.workable.com/api/accounts/nope")


def test_workable_urls():
    assert WORKABLE.list_url({"company": "persado"}) == "https://www.workable.com/api/accounts/persado"
    assert WORKABLE.list_url({"company": "persado", "details": True}) == "https://www.workable.com/api/accounts/persado?details=true"
    assert WORKABLE.resolve_url("https://apply.workable.com/persado/") == "https://www.workable.com/api/accounts/persado"
    assert WORKABLE.resolve_url("https://apply.workable.com/persado/?details=true") == (
        "https://www.workable.com/api/accounts/persado?details=true"
    )
    assert WORKABLE.resolve_url("https://persado.workable.com/jobs") == "https://www.workable.com/api/accounts/persado"
    for unchanged in (
        "https://apply.workable.com/j/EB98E75C30",
        "https://apply.workable.com/api/v1/widget/accounts/persado",
        "https://www.workable.com/api/accounts/persado?details=true",
        "https://example.com/careers",
    ):
        assert WORKABLE.resolve_url(unchanged) == unchanged


# --- Recruitee ----------------------------------------------------------------------------

RECRUITEE = CONNECTORS["recruitee-offers"]


def test_recruitee_reads_the_captured_site():
    result = board("recruitee-offers")
    assert (result["count"], result["company"]) == (3, "Channable")
    first = result["items"][0]
    assert first["description"].startswith("Are you passionate about solving complex problems")
    assert "<p>" not in first["description"] and "color:#000000" not in first["description"]
    assert {k: v for k, v in first.items() if k != "description"} == {
        "id": "2723126",
        "title": "Technical Customer Support Benelux - Dutch speaking",
        "url": "https://jobs.channable.com/o/technical-customer-support-benelux-dutch-speaking-1",
        "location": "Utrecht, Utrecht, Netherlands",
        "department": "Support",
        "team": None,
        "employment_type": "fulltime_fixed_term",
        "remote": None,  # hybrid: neither yes nor no
        "published_at": "2026-08-28T11:47:47.000Z",
        "updated_at": "2026-08-28T12:19:42.000Z",
        "source": "recruitee-offers",
        "raw_extra": {
            "workplace_type": "hybrid",
            "slug": "technical-customer-support-benelux-dutch-speaking-1",
            "salary": {"max": "2950", "min": "2850", "period": "month", "currency": "EUR"},
            "tags": [],
            "apply_url": "https://jobs.channable.com/o/technical-customer-support-benelux-dutch-speaking-1/c/new",
        },
    }
    assert [i["employment_type"] for i in result["items"][1:]] == ["fulltime_permanent", "fulltime_permanent"]


def test_recruitee_contact_mailbox_and_forms_never_reach_the_output():
    raw = json.loads(fixture("recruitee-offers.json"))["offers"][0]
    assert raw["mailbox_email"] == "job.f6wvb@channable.recruitee.com" and raw["open_questions"] and raw["translations"]["en"]
    serialised = json.dumps(board("recruitee-offers"))
    for leaked in ("mailbox_email", "@channable.recruitee.com", "open_questions", "translations"):
        assert leaked not in serialised


def test_recruitee_unknown_subdomain_and_urls():
    with pytest.raises(TemplateRejectedError) as error:
        RECRUITEE.extract_list('{"error":"Not Found"}', "https://nope.recruitee.com/api/offers/")
    assert str(error.value) == (
        "No Recruitee careers site at https://nope.recruitee.com/api/offers/: Not Found. "
        "The company is the subdomain in https://<company>.recruitee.com."
    )
    assert RECRUITEE.list_url({"company": "channable"}) == "https://channable.recruitee.com/api/offers/"
    assert RECRUITEE.resolve_url("https://channable.recruitee.com/o/product-manager-core-ai") == (
        "https://channable.recruitee.com/api/offers/"
    )
    custom = "https://jobs.channable.com/o/product-manager-core-ai"
    assert RECRUITEE.resolve_url(custom) == custom


# --- Teamtailor ---------------------------------------------------------------------------

TEAMTAILOR = CONNECTORS["teamtailor-jobs"]


def test_teamtailor_reads_the_captured_feed():
    result = board("teamtailor-jobs")
    assert (result["count"], result["company"]) == (3, "Teamtailor")
    first = result["items"][0]
    assert first["description"].startswith("Join Teamtailor and Help Shape the Future of Work!")
    assert "<h4>" not in first["description"] and "&lt;" not in first["description"]
    assert {k: v for k, v in first.items() if k != "description"} == {
        "id": "3ce2c88b-cbc6-4ae9-8ecb-000466c69037",
        "title": "Group Financial Controller",
        "url": "https://career.teamtailor.com/jobs/8124573-group-financial-controller",
        "location": "Stockholm",
        "department": "Finance",
        "team": None,
        "employment_type": None,
        "remote": None,
        "published_at": "2026-07-24T11:57:16.000Z",  # RFC 822 "Fri, 24 Jul 2026 13:57:16 +0200"
        "updated_at": None,
        "source": "teamtailor-jobs",
        "raw_extra": {"workplace_type": "hybrid", "role": None, "division": None, "locations": ["Stockholm"]},
    }


def test_teamtailor_two_cities_and_none_means_onsite():
    result = board("teamtailor-jobs")
    apac = by_id(result, "36d9bbe6-6cf5-4c10-b12b-d4bf739777ce")
    assert (apac["title"], apac["location"]) == ("Partnership Manager - APAC", "Sydney, Melbourne")
    assert apac["raw_extra"]["locations"] == ["Sydney", "Melbourne"]
    assert (apac["raw_extra"]["workplace_type"], apac["remote"]) == ("none", False)
    support = by_id(result, "f40addc7-d9ec-4535-bf88-3e12a7c96dbd")
    assert (support["department"], support["raw_extra"]["role"]) == ("Customer Support", "Customer Support Agent")


def test_teamtailor_empty_feed_is_an_empty_board():
    empty = (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Normative</title>'
        "<link>https://normative.teamtailor.com/jobs</link></channel></rss>"
    )
    result = TEAMTAILOR.extract_list(empty, "https://normative.teamtailor.com/jobs.rss")
    assert result == {"items": [], "count": 0, "company": "Normative"}
    assert TEAMTAILOR.extract_list(empty.encode("utf-8"), None)["company"] == "Normative"


@pytest.mark.parametrize("body", ["<!doctype html><html><body>Jobs</body></html>", "<html><body>Not a feed</body></html>", "", "{}"])
def test_teamtailor_non_feed_is_rejected_without_parser_errors(body):
    with pytest.raises(TemplateRejectedError) as error:
        TEAMTAILOR.extract_list(body, "https://career.teamtailor.com/jobs")
    assert str(error.value) == (
        "No Teamtailor job feed at https://career.teamtailor.com/jobs: the response is not an RSS feed. "
        'The feed is the careers site jobs page with ".rss" appended, e.g. https://<company>.teamtailor.com/jobs.rss.'
    )


def test_teamtailor_urls_and_pattern():
    assert TEAMTAILOR.list_url({"company": "career"}) == "https://career.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.list_url({"company": "career", "per_page": 250, "offset": 100}) == (
        "https://career.teamtailor.com/jobs.rss?per_page=250&offset=100"
    )
    assert TEAMTAILOR.resolve_url("https://career.teamtailor.com/jobs") == "https://career.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.resolve_url("https://jobs.example.com/jobs/") == "https://jobs.example.com/jobs.rss"
    assert TEAMTAILOR.resolve_url("https://polestar.teamtailor.com/") == "https://polestar.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.resolve_url("https://polestar.teamtailor.com") == "https://polestar.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.resolve_url("https://x.teamtailor.com/jobs?offset=100") == "https://x.teamtailor.com/jobs.rss?offset=100"
    feed = "https://career.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.resolve_url(feed) == feed
    for url in (
        "https://polestar.teamtailor.com/", "https://polestar.teamtailor.com", "https://polestar.teamtailor.com/jobs",
        "https://polestar.teamtailor.com/jobs/", "https://polestar.teamtailor.com/jobs.rss",
        "https://polestar.teamtailor.com/jobs.rss?offset=100",
    ):
        assert TEAMTAILOR.target_pattern.search(url), url
    assert not TEAMTAILOR.target_pattern.search("https://polestar.teamtailor.com/jobs/internal/")


def test_teamtailor_feed_entities_are_never_expanded():
    # attack case (synthetic): an external entity and an entity bomb stay unexpanded text
    xxe = (
        '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        "<rss><channel><title>T&x;</title><item><guid>1</guid><title>A&x;</title></item></channel></rss>"
    )
    result = TEAMTAILOR.extract_list(xxe, "https://x.teamtailor.com/jobs.rss")
    assert (result["company"], result["items"][0]["title"]) == ("T&x;", "A&x;")
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><rss><channel><title>&c;</title></channel></rss>'
    )
    assert TEAMTAILOR.extract_list(bomb, "https://x.teamtailor.com/jobs.rss")["company"] == "&c;"
