"""Upstream conformance: tests/gov.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 8af5aa4974cfc4c711bd89293ab28db06ac28255 (the only stored version): the
NHTSA vPIC and NPPES NPI connectors on the upstream captures (fixtures/connectors/gov).
The upstream `npi-empty.json` capture is not available (templates.md §7); that one case runs on
the documented stand-in `npi-empty-synthetic.json`.
"""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import ROOT

from crawlforge.templates.gov import GOV_TEMPLATES

FIXTURES = ROOT / "fixtures" / "connectors" / "gov"
VIN = next(t for t in GOV_TEMPLATES if t.id == "nhtsa-vin")
NPI = next(t for t in GOV_TEMPLATES if t.id == "npi-provider")
VPIC_URL = "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/x?format=json"
NPI_URL = "https://npiregistry.cms.hhs.gov/api/?version=2.1&state=CA&taxonomy_description=Cardiology&limit=5"


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.json").read_text(encoding="utf-8")


def decode(name: str) -> dict:
    return VIN.extract_raw(fixture(name), VPIC_URL)


def search(name: str, url: str = NPI_URL) -> dict:
    return NPI.extract_list(fixture(name), url)


def query(url: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


# --- nhtsa-vin: URLs ----------------------------------------------------------------------


def test_vin_list_url_builds_the_flat_json_decode_url():
    assert (
        VIN.list_url({"vin": "1HGCM82633A004352"})
        == "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json"
    )


def test_vin_list_url_keeps_the_star_of_a_partial_vin():
    assert (
        VIN.list_url({"vin": "5UXWX7C5*BA"})
        == "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/5UXWX7C5*BA?format=json"
    )


def test_vin_list_url_passes_model_year_through():
    assert (
        VIN.list_url({"vin": "1FTFW1ET5DFC10312", "modelYear": 2013})
        == "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1FTFW1ET5DFC10312?format=json&modelyear=2013"
    )


def test_vin_list_url_names_the_missing_parameter():
    with pytest.raises(ValueError, match='requires a "vin" parameter'):
        VIN.list_url({})
    with pytest.raises(ValueError, match='requires a "vin" parameter'):
        VIN.list_url({"vin": "   "})


def test_vin_resolve_url_rewrites_the_xml_documentation_url():
    assert (
        VIN.resolve_url("https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVin/5UXWX7C5*BA?format=xml&modelyear=2011")
        == "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/5UXWX7C5*BA?format=json&modelyear=2011"
    )


def test_vin_resolve_url_rewrites_the_extended_endpoint():
    assert (
        VIN.resolve_url("https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValuesExtended/1HGCM82633A004352?format=json")
        == "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json"
    )


def test_vin_resolve_url_leaves_an_unrelated_url_alone():
    assert VIN.resolve_url("https://example.com/whatever") == "https://example.com/whatever"


def test_vin_target_pattern_matches_a_decode_url():
    assert VIN.target_pattern.search("https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json")


# --- nhtsa-vin: extraction ----------------------------------------------------------------


def test_vin_decodes_a_passenger_car():
    data = decode("nhtsa-vin-car")
    assert {k: data[k] for k in (
        "vin", "make", "model", "model_year", "trim", "body_class", "vehicle_type", "doors",
        "transmission_style", "transmission_speeds", "engine_hp", "engine_model", "plant_city",
        "plant_country", "gvwr",
    )} == {
        "vin": "1HGCM82633A004352", "make": "HONDA", "model": "Accord", "model_year": "2003",
        "trim": "EX-V6", "body_class": "Coupe", "vehicle_type": "PASSENGER CAR", "doors": "2",
        "transmission_style": "Automatic", "transmission_speeds": "5", "engine_hp": "240",
        "engine_model": "J30A4", "plant_city": "MARYSVILLE", "plant_country": "UNITED STATES (USA)",
        "gvwr": "Class 1C: 4,001 - 5,000 lb (1,814 - 2,268 kg)",
    }  # fmt: skip


def test_vin_decodes_a_truck():
    data = decode("nhtsa-vin-truck")
    assert (data["make"], data["model"], data["vehicle_type"], data["body_class"]) == ("FORD", "F-150", "TRUCK", "Pickup")
    assert data["drive_type"] == "4WD/4-Wheel Drive/4x4"
    assert data["engine_manufacturer"] == "Ford"
    assert data["raw"]["BodyCabType"] == "Crew/Super Crew/Crew Max"


def test_vin_decodes_a_motorcycle():
    data = decode("nhtsa-vin-motorcycle")
    assert (data["make"], data["model"], data["vehicle_type"]) == ("HARLEY-DAVIDSON", "Street Glide", "MOTORCYCLE")
    assert data["body_class"] == "Motorcycle - Touring/Sport Touring"
    assert data["series"] == "FLHX"
    assert data["doors"] is None
    assert data["raw"]["OtherMotorcycleInfo"] == "Heavyweight Motorcycle: 901cm3 or larger"


def test_vin_reads_empty_string_as_null():
    car = decode("nhtsa-vin-car")
    assert car["series"] is None and car["drive_type"] is None and car["fuel_type_secondary"] is None
    assert decode("nhtsa-vin-truck")["trim"] is None
    assert decode("nhtsa-vin-partial")["plant_state"] is None


def test_vin_leaves_not_applicable_alone():
    assert decode("nhtsa-vin-truck")["raw"]["BusType"] == "Not Applicable"
    assert decode("nhtsa-vin-motorcycle")["raw"]["BedType"] == "Not Applicable"


def test_vin_keeps_the_whole_decode_under_raw():
    raw = decode("nhtsa-vin-car")["raw"]
    assert raw["ValveTrainDesign"] == "Single Overhead Cam (SOHC)"
    assert raw["AirBagLocCurtain"] == "1st and 2nd Rows"
    assert raw["DisplacementCI"] == "183"


def test_vin_clean_decode_has_no_error_codes():
    errors = decode("nhtsa-vin-car")["decode_errors"]
    assert errors["codes"] == []
    assert "VIN decoded clean" in errors["text"]
    assert errors["suggested_vin"] is None


def test_vin_bad_check_digit_is_reported_with_the_decode():
    data = decode("nhtsa-vin-truck")
    assert data["decode_errors"]["codes"] == ["1"]
    assert "Check Digit (9th position) does not calculate properly" in data["decode_errors"]["text"]
    assert "Model Year decoded for this VIN may be incorrect" in data["decode_errors"]["additional_text"]
    assert data["make"] == "FORD"


def test_vin_incomplete_vin_is_code_6_and_still_decodes():
    data = decode("nhtsa-vin-partial")
    assert data["decode_errors"]["codes"] == ["6"]
    assert data["vin"] == "5UXWX7C5*BA" and data["vehicle_descriptor"] == "5UXWX7C5*BA"
    assert (data["make"], data["model"], data["trim"], data["plant_country"]) == ("BMW", "X3", "xDrive35i", "GERMANY")


def test_vin_undecodable_reports_every_code():
    data = decode("nhtsa-vin-undecodable")
    assert data["decode_errors"]["codes"] == ["6", "7", "11", "400"]
    assert data["decode_errors"]["suggested_vin"] == "N!TAREAL!!N12345"
    assert data["decode_errors"]["additional_text"] == "Invalid character(s): 2:O, 9:V, 10:I."
    assert data["make"] is None and data["model"] is None and data["model_year"] is None


def test_vin_multi_code_error_text_survives_code_7_semicolon():
    text = decode("nhtsa-vin-undecodable")["decode_errors"]["text"]
    assert re.search(r"7 - Manufacturer is not registered with NHTSA[^;]*; Please contact the manufacturer", text)
    assert "400 - Invalid Characters Present" in text


def test_vin_json_404_is_rejected():
    with pytest.raises(ValueError, match=r"(?s)Not a vPIC decode response.*No HTTP resource was found"):
        VIN.extract_raw(fixture("nhtsa-vin-not-found"), VPIC_URL)


def test_vin_nested_decode_shape_is_rejected():
    nested = json.dumps({"Count": 136, "Results": [{"Variable": "Make", "Value": "HONDA", "VariableId": 26}]})
    with pytest.raises(ValueError, match="Not a vPIC decode response"):
        VIN.extract_raw(nested, VPIC_URL)


def test_vin_non_json_is_rejected():
    with pytest.raises(ValueError, match="did not return JSON"):
        VIN.extract_raw("<!doctype html><html>Access Denied</html>", VPIC_URL)


# --- npi-provider: URLs -------------------------------------------------------------------


def test_npi_list_url_pins_the_api_version():
    url = NPI.list_url({"state": "CA", "taxonomy_description": "Cardiology", "limit": 5})
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://npiregistry.cms.hhs.gov/api/"
    assert query(url) == {"version": "2.1", "state": "CA", "taxonomy_description": "Cardiology", "limit": "5"}


def test_npi_list_url_supports_the_documented_criteria():
    expected = {
        "number": "1265478150", "enumeration_type": "NPI-2", "first_name": "jo", "last_name": "smith",
        "organization_name": "hospital*", "taxonomy_description": "Internal Medicine", "city": "EL PASO",
        "state": "TX", "postal_code": "79925", "country_code": "US", "limit": "25", "skip": "50",
    }  # fmt: skip
    got = query(NPI.list_url({**expected, "limit": 25, "skip": 50}))
    for key, value in expected.items():
        assert got[key] == value, key


def test_npi_list_url_needs_a_criterion():
    with pytest.raises(ValueError, match="requires at least one search criterion"):
        NPI.list_url({})
    with pytest.raises(ValueError, match="requires at least one search criterion"):
        NPI.list_url({"limit": 20})


def test_npi_list_url_names_the_200_record_cap():
    for limit in (500, 0):
        with pytest.raises(ValueError, match='"limit" must be an integer between 1 and 200'):
            NPI.list_url({"state": "CA", "limit": limit})
    assert query(NPI.list_url({"state": "CA", "limit": 200}))["limit"] == "200"


def test_npi_list_url_names_the_1000_record_skip_cap():
    with pytest.raises(ValueError, match='"skip" must be an integer between 0 and 1000'):
        NPI.list_url({"state": "CA", "skip": 1001})
    assert query(NPI.list_url({"state": "CA", "skip": 1000}))["skip"] == "1000"


def test_npi_target_pattern_matches_a_registry_url():
    assert NPI.target_pattern.search(NPI_URL)


# --- npi-provider: extraction -------------------------------------------------------------


def test_npi_one_item_per_record():
    result = search("npi-individuals")
    assert result["count"] == 3 and len(result["items"]) == 3
    assert [i["npi"] for i in result["items"]] == ["1982227625", "1265566509", "1700742640"]


def test_npi_reads_an_individual():
    p = search("npi-individuals")["items"][0]
    assert p["enumeration_type"] == "NPI-1"
    assert (p["name"], p["first_name"], p["last_name"]) == ("TARIQ AL-SALEH", "TARIQ", "AL-SALEH")
    assert p["organization_name"] is None
    assert p["credential"] == "BCCP, APH, RPh, PACS"
    assert p["sole_proprietor"] is False
    assert p["status"] == "A"
    assert (p["enumeration_date"], p["last_updated"]) == ("2020-05-28", "2025-07-12")


def test_npi_reads_an_organisation():
    org = search("npi-organizations")["items"][0]
    assert (org["npi"], org["enumeration_type"]) == ("1265478150", "NPI-2")
    assert org["name"] == org["organization_name"] == "BECKER MEDICAL, PC"
    assert org["first_name"] is None
    assert org["sole_proprietor"] is None


def test_npi_double_dash_name_part_is_absent():
    p = search("npi-individuals")["items"][1]
    assert p["name"] == "Mr. SRINIVASA REDDY AALURI"
    assert p["credential"] == "md"


def test_npi_sole_proprietor_and_missing_credential():
    p = search("npi-individuals")["items"][2]
    assert p["sole_proprietor"] is True
    assert p["credential"] is None


def test_npi_addresses_by_purpose_not_index():
    location_first, mailing_first = search("npi-individuals")["items"][:2]
    assert location_first["addresses"]["location"]["line1"] == "175 W LEXINGTON AVE STE B"
    assert location_first["addresses"]["location"]["city"] == "EL CAJON"
    assert location_first["addresses"]["mailing"]["line1"] == "300 14TH ST APT 531"
    assert location_first["addresses"]["mailing"]["city"] == "SAN DIEGO"
    assert mailing_first["addresses"]["location"]["purpose"] == "LOCATION"
    assert mailing_first["addresses"]["mailing"]["purpose"] == "MAILING"
    assert mailing_first["addresses"]["location"]["state"] == "TX"


def test_npi_address_has_named_fields():
    assert search("npi-individuals")["items"][0]["addresses"]["location"] == {
        "purpose": "LOCATION", "line1": "175 W LEXINGTON AVE STE B", "line2": None, "city": "EL CAJON",
        "state": "CA", "postal_code": "920204454", "country_code": "US", "country_name": "United States",
        "telephone": "786-445-2814", "fax": "619-923-5881",
    }  # fmt: skip
    assert search("npi-organizations")["items"][0]["addresses"]["mailing"]["line2"] == "SUITE 1"


def test_npi_extra_practice_sites():
    p = search("npi-individuals")["items"][0]
    assert len(p["practice_locations"]) == 1
    assert p["practice_locations"][0]["city"] == "SAN DIEGO"
    assert search("npi-organizations")["items"][0]["practice_locations"] == []


def test_npi_flags_the_primary_taxonomy():
    p = search("npi-individuals")["items"][0]
    assert len(p["taxonomies"]) == 4
    assert p["primary_taxonomy"] == "Pharmacist, Ambulatory Care"
    assert any(t["description"] == "Pharmacist, Cardiology" and not t["primary"] for t in p["taxonomies"])
    assert sum(1 for t in p["taxonomies"] if t["primary"]) == 1


def test_npi_taxonomy_entry_normalised():
    assert search("npi-individuals")["items"][1]["taxonomies"][0] == {
        "code": "207Q00000X", "description": "Family Medicine", "primary": True,
        "license": "L9590", "state": "TX", "group": None,
    }  # fmt: skip
    assert search("npi-organizations")["items"][0]["taxonomies"][0]["group"] == "193400000X - Single Specialty Group"


def test_npi_both_spellings_of_other_names():
    assert search("npi-organizations")["items"][0]["other_names"] == [
        {"type": "Other Name", "name": "HOSPITAL MEDICINE ASSOCIATES"}
    ]
    assert search("npi-former-name")["items"][0]["other_names"] == [
        {"type": "Former Name", "name": "Dr. SIU-HAN PAOLA ARTEAGA"}
    ]


def test_npi_does_not_surface_sex_or_authorized_official():
    individual = search("npi-individuals")["items"][0]
    organisation = search("npi-organizations")["items"][0]
    fields = json.dumps(individual) + json.dumps(organisation)
    assert "sex" not in individual
    for leaked in ("authorized_official", "RICHARD", "9144553101"):
        assert leaked not in fields


# --- npi-provider: pagination and errors --------------------------------------------------


def test_npi_reports_the_page_window():
    result = search("npi-individuals", NPI_URL + "&skip=200")
    assert (result["limit"], result["skip"]) == (5, 200)


def test_npi_default_limit_is_10():
    result = search("npi-individuals", "https://npiregistry.cms.hhs.gov/api/?version=2.1&number=1982227625")
    assert (result["limit"], result["skip"]) == (10, 0)


def test_npi_short_page_means_no_more():
    assert search("npi-individuals")["more_possible"] is False


def test_npi_full_page_is_the_only_more_signal():
    url = "https://npiregistry.cms.hhs.gov/api/?version=2.1&state=CA&taxonomy_description=Cardiology&limit=3"
    result = search("npi-individuals", url)
    assert result["more_possible"] is True
    assert "total_available" not in result


def test_npi_http_200_error_body_is_an_error():
    with pytest.raises(ValueError, match=r"(?s)NPI registry rejected the query.*No valid search criteria provided"):
        search("npi-error-no-criteria")


def test_npi_reports_every_error():
    with pytest.raises(ValueError, match="version: Unsupported Version; state: Field state requires additional search criteria"):
        search("npi-error-multiple")


def test_npi_empty_result_set_is_not_an_error():
    result = search("npi-empty-synthetic")  # stand-in for the unavailable upstream npi-empty.json
    assert result["items"] == [] and result["count"] == 0
    assert result["more_possible"] is False


def test_npi_not_the_registry_payload():
    with pytest.raises(ValueError, match="returned JSON without a results array"):
        NPI.extract_list('{"data":[]}', NPI_URL)


def test_npi_not_json():
    with pytest.raises(ValueError, match="did not return JSON"):
        NPI.extract_list("<!doctype html><html>NPPES NPI Registry</html>", NPI_URL)


# --- shared contract ----------------------------------------------------------------------


def test_gov_exports_exactly_two_connectors():
    assert [t.id for t in GOV_TEMPLATES] == ["nhtsa-vin", "npi-provider"]


def test_gov_connectors_carry_the_listed_fields():
    for template in GOV_TEMPLATES:
        assert isinstance(template.name, str) and isinstance(template.description, str)
        assert hasattr(template.target_pattern, "search")
        assert callable(template.list_url)


def test_extract_list_marks_the_list_connector():
    assert callable(VIN.extract_raw) and not hasattr(VIN, "extract_list")
    assert callable(NPI.extract_list) and not hasattr(NPI, "extract_raw")


def test_neither_connector_needs_a_credential():
    for template in GOV_TEMPLATES:
        assert not getattr(template, "requires_api_key", None)
        assert getattr(template, "credential_ref", None) is None
