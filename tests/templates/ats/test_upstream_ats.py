"""Upstream conformance: tests/ats.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 25e19ab2bf2077c7e884ef849b37ba34f6d60f4d (templates.md §0.1): the six ATS
list connectors on the upstream captures (fixtures/connectors/ats, byte-for-byte copies).
"""

import json
from datetime import datetime

import pytest

from conftest import ROOT

from crawlforge.templates.ats import ATS_TEMPLATES

FIXTURES = ROOT / "fixtures" / "connectors" / "ats"
CONNECTORS = {t.id: t for t in ATS_TEMPLATES}
COMMON_FIELDS = [
    "id", "title", "url", "location", "department", "team", "employment_type",
    "remote", "published_at", "updated_at", "description", "source",
]  # fmt: skip
BOARD_INPUTS = {
    "greenhouse-jobs": ("greenhouse-jobs-content.json", "https://boards-api.greenhouse.io/v1/boards/stripe/jobs?content=true"),
    "lever-postings": ("lever-postings.json", "https://api.lever.co/v0/postings/leverdemo?mode=json"),
    "ashby-jobs": ("ashby-jobs.json", "https://api.ashbyhq.com/posting-api/job-board/ramp"),
    "workable-jobs": ("workable-jobs.json", "https://www.workable.com/api/accounts/persado?details=true"),
    "recruitee-offers": ("recruitee-offers.json", "https://channable.recruitee.com/api/offers/"),
    "teamtailor-jobs": ("teamtailor-jobs.rss", "https://career.teamtailor.com/jobs.rss"),
}


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def board(connector_id: str) -> dict:
    name, url = BOARD_INPUTS[connector_id]
    return CONNECTORS[connector_id].extract_list(fixture(name), url)


def by_id(connector_id: str, job_id: str) -> dict:
    return next(j for j in board(connector_id)["items"] if j["id"] == job_id)


# --- shared contract ----------------------------------------------------------------------


def test_six_connectors_with_the_expected_ids():
    assert [t.id for t in ATS_TEMPLATES] == [
        "greenhouse-jobs", "lever-postings", "ashby-jobs", "workable-jobs", "recruitee-offers", "teamtailor-jobs",
    ]  # fmt: skip


@pytest.mark.parametrize("connector_id", BOARD_INPUTS)
def test_declares_the_hooks_a_list_connector_needs(connector_id):
    template = CONNECTORS[connector_id]
    assert callable(template.list_url) and callable(template.extract_list) and callable(template.resolve_url)
    assert template.target_pattern is not None and hasattr(template.target_pattern, "search")
    assert template.name and template.description


@pytest.mark.parametrize("connector_id", BOARD_INPUTS)
def test_needs_no_credentials(connector_id):
    assert not getattr(CONNECTORS[connector_id], "requires_api_key", None)
    assert getattr(CONNECTORS[connector_id], "credential_ref", None) is None


@pytest.mark.parametrize("connector_id", BOARD_INPUTS)
def test_every_job_carries_the_common_shape_and_names_its_source(connector_id):
    result = board(connector_id)
    assert len(result["items"]) > 0
    assert result["count"] == len(result["items"])
    for item in result["items"]:
        for field in COMMON_FIELDS:
            assert field in item, f"{connector_id} job is missing {field}"
        assert item["source"] == connector_id
        assert item["id"] and item["title"] and item["url"]


@pytest.mark.parametrize("connector_id", BOARD_INPUTS)
def test_a_field_the_platform_does_not_carry_is_null(connector_id):
    for item in board(connector_id)["items"]:
        for field in COMMON_FIELDS:
            value = item[field]
            assert value is None or isinstance(value, (str, bool)), f"{connector_id}.{field}"
            assert value != "", f"{connector_id}.{field} is an empty string"
        assert item["remote"] in (True, False, None)


@pytest.mark.parametrize("connector_id", BOARD_INPUTS)
def test_list_url_names_the_missing_parameter(connector_id):
    with pytest.raises(ValueError, match='requires a "company" parameter'):
        CONNECTORS[connector_id].list_url({})
    with pytest.raises(ValueError, match='requires a "company" parameter'):
        CONNECTORS[connector_id].list_url()


@pytest.mark.parametrize("connector_id", BOARD_INPUTS)
def test_a_response_from_another_service_is_rejected(connector_id):
    with pytest.raises(ValueError, match=r"^(Not a|No) "):
        CONNECTORS[connector_id].extract_list(
            "<!doctype html><html><body>Not Found</body></html>", "https://example.com/jobs"
        )


# --- greenhouse ---------------------------------------------------------------------------

GREENHOUSE = CONNECTORS["greenhouse-jobs"]


def test_greenhouse_list_url_content_is_opt_in():
    assert GREENHOUSE.list_url({"company": "stripe"}) == "https://boards-api.greenhouse.io/v1/boards/stripe/jobs"
    assert (
        GREENHOUSE.list_url({"company": "stripe", "content": True})
        == "https://boards-api.greenhouse.io/v1/boards/stripe/jobs?content=true"
    )


def test_greenhouse_board_page_url_resolves_to_the_api():
    api = "https://boards-api.greenhouse.io/v1/boards/stripe/jobs"
    assert GREENHOUSE.resolve_url("https://job-boards.greenhouse.io/stripe") == api
    assert GREENHOUSE.resolve_url("https://boards.greenhouse.io/stripe/jobs/7532733") == api
    full = "https://boards-api.greenhouse.io/v1/boards/stripe/jobs?content=true"
    assert GREENHOUSE.resolve_url(full) == full


def test_greenhouse_reads_real_jobs():
    result = board("greenhouse-jobs")
    assert result["count"] == 3
    assert result["total_available"] == 571
    assert result["company"] == "Stripe"
    first = result["items"][0]
    assert first == {
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
        "description": first["description"],
        "source": "greenhouse-jobs",
        "raw_extra": {"internal_job_id": "3336216", "requisition_id": "See Opening ID", "offices": ["US"]},
    }


def test_greenhouse_description_is_decoded_not_markup():
    job = board("greenhouse-jobs")["items"][0]
    assert job["description"].startswith("Who we are About Stripe")
    assert "<h2>" not in job["description"] and "&lt;" not in job["description"]


def test_greenhouse_job_in_two_offices_keeps_both():
    job = by_id("greenhouse-jobs", "8041655")
    assert job["title"] == "Product Manager, E-Invoicing"
    assert job["location"] == "Dublin, Ireland"
    assert job["raw_extra"]["offices"] == ["ES-Barcelona", "Ireland Locations"]


def test_greenhouse_summary_form_reports_no_department():
    result = GREENHOUSE.extract_list(
        fixture("greenhouse-jobs-summary.json"), "https://boards-api.greenhouse.io/v1/boards/stripe/jobs"
    )
    assert result["count"] == 2
    first = result["items"][0]
    assert (first["id"], first["title"], first["location"]) == ("7532733", "Account Executive, AI Sales", "San Francisco, CA")
    assert first["description"] is None and first["department"] is None
    assert first["raw_extra"]["offices"] is None


def test_greenhouse_unknown_board_is_reported():
    url = "https://boards-api.greenhouse.io/v1/boards/nope/jobs"
    with pytest.raises(ValueError, match=r"No Greenhouse job board at .*: Job not found\."):
        GREENHOUSE.extract_list('{"status":404,"error":"Job not found"}', url)
    with pytest.raises(ValueError, match="did not return JSON"):
        GREENHOUSE.extract_list("<html>oops</html>", url)


# --- lever --------------------------------------------------------------------------------

LEVER = CONNECTORS["lever-postings"]


def test_lever_declares_its_crawl_delay():
    assert LEVER.crawl_delay_seconds == 1


def test_lever_list_url_asks_for_json_and_passes_paging():
    assert LEVER.list_url({"company": "leverdemo"}) == "https://api.lever.co/v0/postings/leverdemo?mode=json"
    assert (
        LEVER.list_url({"company": "leverdemo", "skip": 50, "limit": 25})
        == "https://api.lever.co/v0/postings/leverdemo?mode=json&skip=50&limit=25"
    )


def test_lever_careers_url_resolves_to_the_api():
    api = "https://api.lever.co/v0/postings/leverdemo?mode=json"
    assert LEVER.resolve_url("https://jobs.lever.co/leverdemo") == api
    assert LEVER.resolve_url("https://jobs.lever.co/leverdemo/33538a2f-d27d-4a96-8f05-fa4b0e4d940e") == api


def test_lever_reads_real_postings():
    result = board("lever-postings")
    assert result["count"] == 5
    first = result["items"][0]
    assert first == {
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
        "description": first["description"],
        "source": "lever-postings",
        "raw_extra": {
            "workplace_type": "hybrid",
            "level": None,
            "all_locations": ["Arlington, TX"],
            "salary_range": None,
            "apply_url": "https://jobs.lever.co/leverdemo/33538a2f-d27d-4a96-8f05-fa4b0e4d940e/apply",
        },
    }


def test_lever_empty_categories_bag_reports_nulls():
    sparse = by_id("lever-postings", "79eda854-d6ba-4e73-9eb0-524daefed2d8")
    assert sparse["location"] is None and sparse["department"] is None
    assert sparse["team"] == "Sales"
    assert sparse["employment_type"] is None
    assert sparse["raw_extra"]["all_locations"] == []
    level = by_id("lever-postings", "6d94d2c9-3c9d-415b-b457-281a68d1f6f4")
    assert level["title"] == "Apprentice Electrician"
    assert level["team"] is None
    assert level["raw_extra"]["level"] == "Senior"


def test_lever_workplace_type_decides_remote():
    assert by_id("lever-postings", "c559265a-55ec-4f75-ac56-78290081f6e7")["remote"] is True
    assert by_id("lever-postings", "1897fca1-502e-4511-b279-de479e99fbea")["remote"] is None
    assert by_id("lever-postings", "33538a2f-d27d-4a96-8f05-fa4b0e4d940e")["remote"] is None


def test_lever_salary_band_is_kept():
    paid = by_id("lever-postings", "c559265a-55ec-4f75-ac56-78290081f6e7")
    assert paid["raw_extra"]["salary_range"] == {"min": 10000, "max": 125000, "currency": "USD", "interval": "per-year-salary"}


def test_lever_unknown_company_is_reported():
    with pytest.raises(ValueError, match=r"No Lever postings at .*: Document not found\."):
        LEVER.extract_list('{"ok":false,"error":"Document not found"}', "https://api.lever.co/v0/postings/nope?mode=json")


# --- ashby --------------------------------------------------------------------------------

ASHBY = CONNECTORS["ashby-jobs"]
ASHBY_API = "https://api.ashbyhq.com/posting-api/job-board/ramp"


def test_ashby_list_url_and_resolve_url():
    assert ASHBY.list_url({"company": "ramp"}) == ASHBY_API
    assert ASHBY.resolve_url("https://jobs.ashbyhq.com/ramp") == ASHBY_API


def test_ashby_reads_real_jobs():
    result = board("ashby-jobs")
    assert result["count"] == 4
    assert result["api_version"] == "1"
    assert result["company"] == "ramp"
    assert by_id("ashby-jobs", "6a20b3b8-8111-4cbd-be4b-423b60660738") == {
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
    summary = ASHBY.extract_list(fixture("ashby-jobs.json"), ASHBY_API)
    assert all(j["description"] is None for j in summary["items"])
    full = ASHBY.extract_list(fixture("ashby-jobs.json"), ASHBY_API, {"descriptions": True})
    with_text = next(j for j in full["items"] if j["id"] == "6a20b3b8-8111-4cbd-be4b-423b60660738")
    assert with_text["description"]


def test_ashby_company_prefers_the_params():
    assert ASHBY.extract_list(fixture("ashby-jobs.json"), ASHBY_API, {"company": "ramp"})["company"] == "ramp"


def test_ashby_hybrid_job_is_not_remote_whatever_is_remote_says():
    hybrid = by_id("ashby-jobs", "34413f8d-26bf-4bbc-8ade-eb309a0e2245")
    assert hybrid["title"] == "Security Engineer, Cloud"
    assert hybrid["raw_extra"]["workplace_type"] == "Hybrid"
    assert hybrid["remote"] is None
    raw = next(j for j in json.loads(fixture("ashby-jobs.json"))["jobs"] if j["id"] == "34413f8d-26bf-4bbc-8ade-eb309a0e2245")
    assert raw["isRemote"] is True
    assert raw["title"] == " Security Engineer, Cloud"


def test_ashby_secondary_locations_keep_their_names():
    remote = by_id("ashby-jobs", "d84bbf19-572a-499c-9c87-0c154ce85caf")
    assert remote["remote"] is True
    assert remote["raw_extra"]["secondary_locations"] == ["San Francisco, CA", "Remote (US)"]


def test_ashby_employment_types_in_ashbys_words():
    intern = by_id("ashby-jobs", "67fadb77-43d8-4449-954b-d4cf2c6d3b8b")
    assert intern["employment_type"] == "Intern"
    assert intern["team"] == "Emerging Talent - SWE"


def test_ashby_unknown_board_is_reported():
    with pytest.raises(ValueError, match=r"No Ashby job board at .*: no jobs array\."):
        ASHBY.extract_list('{"apiVersion":"1"}', "https://api.ashbyhq.com/posting-api/job-board/nope")


# --- workable -----------------------------------------------------------------------------

WORKABLE = CONNECTORS["workable-jobs"]


def test_workable_list_url_is_the_documented_one():
    assert WORKABLE.list_url({"company": "persado"}) == "https://www.workable.com/api/accounts/persado"
    assert (
        WORKABLE.list_url({"company": "persado", "details": True})
        == "https://www.workable.com/api/accounts/persado?details=true"
    )


def test_workable_careers_url_resolves_to_the_accounts_endpoint():
    api = "https://www.workable.com/api/accounts/persado"
    assert WORKABLE.resolve_url("https://apply.workable.com/persado/") == api
    assert WORKABLE.resolve_url("https://persado.workable.com/jobs") == api
    single = "https://apply.workable.com/j/EB98E75C30"
    assert WORKABLE.resolve_url(single) == single


def test_workable_reads_real_jobs():
    result = board("workable-jobs")
    assert result["count"] == 3
    assert result["company"] == "Persado"
    first = result["items"][0]
    assert first == {
        "id": "EB98E75C30",
        "title": "Manager, Project Management",
        "url": "https://apply.workable.com/j/EB98E75C30",
        "location": "New York, United States",
        "department": "Campaign Delivery & Onboarding",
        "team": None,
        "employment_type": "Full-time",
        "remote": True,
        "published_at": "2026-07-31",
        "updated_at": None,
        "description": first["description"],
        "source": "workable-jobs",
        "raw_extra": {
            "shortcode": "EB98E75C30",
            "code": None,
            "function": "Project Management",
            "apply_url": "https://apply.workable.com/j/EB98E75C30/apply",
        },
    }


def test_workable_empty_city_and_state_drop_out_of_the_location():
    raw = next(j for j in json.loads(fixture("workable-jobs.json"))["jobs"] if j["shortcode"] == "B9D91A4C0B")
    assert (raw["city"], raw["state"], raw["code"]) == ("", "", "")
    job = by_id("workable-jobs", "B9D91A4C0B")
    assert job["location"] == "United States"
    assert job["raw_extra"]["code"] is None


def test_workable_city_repeating_the_state_is_not_said_twice():
    assert board("workable-jobs")["items"][0]["location"] == "New York, United States"
    assert by_id("workable-jobs", "D6FB457899")["location"] == "Washington, District of Columbia, United States"


def test_workable_unknown_account_is_reported():
    with pytest.raises(ValueError, match=r"Not a Workable account response: .* did not return JSON\."):
        WORKABLE.extract_list("Not Found", "https://www.workable.com/api/accounts/nope")


# --- recruitee ----------------------------------------------------------------------------

RECRUITEE = CONNECTORS["recruitee-offers"]


def test_recruitee_list_url_and_resolve_url():
    assert RECRUITEE.list_url({"company": "channable"}) == "https://channable.recruitee.com/api/offers/"
    assert (
        RECRUITEE.resolve_url("https://channable.recruitee.com/o/product-manager-core-ai")
        == "https://channable.recruitee.com/api/offers/"
    )
    custom = "https://jobs.channable.com/o/product-manager-core-ai"
    assert RECRUITEE.resolve_url(custom) == custom


def test_recruitee_reads_real_offers():
    result = board("recruitee-offers")
    assert result["count"] == 3
    assert result["company"] == "Channable"
    first = result["items"][0]
    slug = "technical-customer-support-benelux-dutch-speaking-1"
    assert first == {
        "id": "2723126",
        "title": "Technical Customer Support Benelux - Dutch speaking",
        "url": f"https://jobs.channable.com/o/{slug}",
        "location": "Utrecht, Utrecht, Netherlands",
        "department": "Support",
        "team": None,
        "employment_type": "fulltime_fixed_term",
        "remote": None,
        "published_at": "2026-08-28T11:47:47.000Z",
        "updated_at": "2026-08-28T12:19:42.000Z",
        "description": first["description"],
        "source": "recruitee-offers",
        "raw_extra": {
            "workplace_type": "hybrid",
            "slug": slug,
            "salary": {"max": "2950", "min": "2850", "period": "month", "currency": "EUR"},
            "tags": [],
            "apply_url": f"https://jobs.channable.com/o/{slug}/c/new",
        },
    }


def test_recruitee_mailbox_is_dropped():
    raw = json.loads(fixture("recruitee-offers.json"))["offers"][0]
    assert raw["mailbox_email"] == "job.f6wvb@channable.recruitee.com"
    assert raw["open_questions"] and raw["translations"]["en"]
    serialised = json.dumps(board("recruitee-offers")["items"])
    for leaked in ("mailbox_email", "@channable.recruitee.com", "open_questions", "translations"):
        assert leaked not in serialised


def test_recruitee_description_is_the_copy():
    job = board("recruitee-offers")["items"][0]
    assert job["description"].startswith("Are you passionate about solving complex problems")
    assert "<p>" not in job["description"] and "color:#000000" not in job["description"]


def test_recruitee_unknown_subdomain_is_reported():
    with pytest.raises(ValueError, match=r"No Recruitee careers site at .*: Not Found\."):
        RECRUITEE.extract_list('{"error":"Not Found"}', "https://nope.recruitee.com/api/offers/")


# --- teamtailor ---------------------------------------------------------------------------

TEAMTAILOR = CONNECTORS["teamtailor-jobs"]


def test_teamtailor_list_url_with_paging():
    assert TEAMTAILOR.list_url({"company": "career"}) == "https://career.teamtailor.com/jobs.rss"
    assert (
        TEAMTAILOR.list_url({"company": "career", "per_page": 250, "offset": 100})
        == "https://career.teamtailor.com/jobs.rss?per_page=250&offset=100"
    )


def test_teamtailor_any_jobs_page_resolves_to_its_feed():
    assert TEAMTAILOR.resolve_url("https://career.teamtailor.com/jobs") == "https://career.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.resolve_url("https://jobs.example.com/jobs/") == "https://jobs.example.com/jobs.rss"
    feed = "https://career.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.resolve_url(feed) == feed


def test_teamtailor_root_resolves_to_the_jobs_feed():
    assert TEAMTAILOR.resolve_url("https://polestar.teamtailor.com/") == "https://polestar.teamtailor.com/jobs.rss"
    assert TEAMTAILOR.resolve_url("https://polestar.teamtailor.com") == "https://polestar.teamtailor.com/jobs.rss"


def test_teamtailor_target_pattern_accepts_root_and_jobs_page_only():
    for url in [
        "https://polestar.teamtailor.com/",
        "https://polestar.teamtailor.com",
        "https://polestar.teamtailor.com/jobs",
        "https://polestar.teamtailor.com/jobs/",
        "https://polestar.teamtailor.com/jobs.rss",
        "https://polestar.teamtailor.com/jobs.rss?offset=100",
    ]:
        assert TEAMTAILOR.target_pattern.search(url), url
    assert not TEAMTAILOR.target_pattern.search("https://polestar.teamtailor.com/jobs/internal/")


def test_teamtailor_valid_feed_with_no_items_is_an_empty_board():
    empty = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<rss version="2.0"><channel><title>Normative</title>'
        "<link>https://normative.teamtailor.com/jobs</link></channel></rss>"
    )
    result = TEAMTAILOR.extract_list(empty, "https://normative.teamtailor.com/jobs.rss")
    assert result["count"] == 0
    assert result["items"] == []
    assert result["company"] == "Normative"


def test_teamtailor_response_that_is_not_rss_is_an_error():
    with pytest.raises(ValueError, match="not an RSS feed"):
        TEAMTAILOR.extract_list("<html><body>Not a feed</body></html>", "https://x.teamtailor.com/jobs.rss")


def test_teamtailor_reads_real_jobs():
    result = board("teamtailor-jobs")
    assert result["count"] == 3
    assert result["company"] == "Teamtailor"
    first = result["items"][0]
    assert first == {
        "id": "3ce2c88b-cbc6-4ae9-8ecb-000466c69037",
        "title": "Group Financial Controller",
        "url": "https://career.teamtailor.com/jobs/8124573-group-financial-controller",
        "location": "Stockholm",
        "department": "Finance",
        "team": None,
        "employment_type": None,
        "remote": None,
        "published_at": "2026-07-24T11:57:16.000Z",
        "updated_at": None,
        "description": first["description"],
        "source": "teamtailor-jobs",
        "raw_extra": {"workplace_type": "hybrid", "role": None, "division": None, "locations": ["Stockholm"]},
    }


def test_teamtailor_job_in_two_cities_lists_both():
    apac = by_id("teamtailor-jobs", "36d9bbe6-6cf5-4c10-b12b-d4bf739777ce")
    assert apac["title"] == "Partnership Manager - APAC"
    assert apac["location"] == "Sydney, Melbourne"
    assert apac["raw_extra"]["locations"] == ["Sydney", "Melbourne"]
    assert apac["raw_extra"]["workplace_type"] == "none"
    assert apac["remote"] is False


def test_teamtailor_description_is_decoded_then_stripped():
    job = board("teamtailor-jobs")["items"][0]
    assert job["description"].startswith("Join Teamtailor and Help Shape the Future of Work!")
    assert "<h4>" not in job["description"] and "&lt;" not in job["description"]


def test_teamtailor_namespaced_fields_are_kept():
    support = by_id("teamtailor-jobs", "f40addc7-d9ec-4535-bf88-3e12a7c96dbd")
    assert support["department"] == "Customer Support"
    assert support["raw_extra"]["role"] == "Customer Support Agent"


def test_teamtailor_page_that_is_not_the_feed_is_reported():
    with pytest.raises(ValueError, match=r"No Teamtailor job feed at .*: the response is not an RSS feed\."):
        TEAMTAILOR.extract_list("<!doctype html><html><body>Jobs</body></html>", "https://career.teamtailor.com/jobs")
    empty = '<?xml version="1.0"?><rss version="2.0"><channel><title>Teamtailor</title></channel></rss>'
    assert TEAMTAILOR.extract_list(empty, "https://career.teamtailor.com/jobs.rss")["count"] == 0


# --- the union ----------------------------------------------------------------------------


def test_every_job_from_every_platform_answers_the_same_twelve_questions():
    jobs = [job for connector_id in BOARD_INPUTS for job in board(connector_id)["items"]]
    assert len(jobs) == 21
    assert len({",".join(f for f in COMMON_FIELDS if f in job) for job in jobs}) == 1
    assert sorted({job["source"] for job in jobs}) == sorted(BOARD_INPUTS)
    stamps = [job["published_at"] for job in jobs if job["published_at"]]
    assert len(stamps) == len(jobs)
    for stamp in stamps:
        datetime.fromisoformat(stamp.replace("Z", "+00:00"))
