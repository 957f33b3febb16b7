"""nhtsa-vin and npi-provider on real captures of vPIC and NPPES (fixtures/connectors/gov)."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

import pytest

from conftest import ROOT

from crawlforge.templates import TemplateError, TemplateRejectedError
from crawlforge.templates.gov import GOV_TEMPLATES, NPI_SEARCH_FIELDS

FIXTURES = ROOT / "fixtures" / "connectors" / "gov"
VIN, NPI = GOV_TEMPLATES
VPIC_URL = "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/x?format=json"
NPI_URL = "https://npiregistry.cms.hhs.gov/api/?version=2.1&state=CA&taxonomy_description=Cardiology&limit=5"


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.json").read_text(encoding="utf-8")


def decode(name: str) -> dict:
    return VIN.extract_raw(fixture(f"nhtsa-vin-{name}"), VPIC_URL)


def search(name: str, url: str = NPI_URL) -> dict:
    return NPI.extract_list(fixture(f"npi-{name}"), url)


def query(url: str) -> list[tuple[str, str]]:
    return parse_qsl(urlsplit(url).query)


def test_gov_templates_and_modes():
    assert [t.id for t in GOV_TEMPLATES] == ["nhtsa-vin", "npi-provider"]
    assert callable(VIN.extract_raw) and not hasattr(VIN, "extract_list")
    assert callable(NPI.extract_list) and not hasattr(NPI, "extract_raw")
    for template in GOV_TEMPLATES:
        assert not template.requires_api_key and template.credential_ref is None


# --- nhtsa-vin: URLs ----------------------------------------------------------------------


def test_vin_list_url_builds_the_flat_json_decode():
    assert VIN.list_url({"vin": "1HGCM82633A004352"}) == (
        "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json"
    )
    assert VIN.list_url({"vin": " 5UXWX7C5*BA "}) == "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/5UXWX7C5*BA?format=json"
    assert VIN.list_url({"vin": "1FTFW1ET5DFC10312", "modelYear": 2013}) == (
        "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1FTFW1ET5DFC10312?format=json&modelyear=2013"
    )
    assert VIN.list_url({"vin": "1FTFW1ET5DFC10312", "modelYear": ""}).endswith("?format=json")


@pytest.mark.parametrize("params", [{}, None, {"vin": "   "}, {"vin": 12345}, {"modelYear": 2013}])
def test_vin_list_url_names_the_missing_vin(params):
    with pytest.raises(TemplateError) as error:
        VIN.list_url(params)
    assert str(error.value) == (
        'nhtsa-vin requires a "vin" parameter: the VIN to decode. A partial VIN is allowed — '
        'vPIC accepts "*" for unknown positions, as in 5UXWX7C5*BA.'
    )


def test_vin_resolve_url_rewrites_any_decode_endpoint_to_flat_json():
    assert VIN.resolve_url("https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVin/5UXWX7C5*BA?format=xml&modelyear=2011") == (
        "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/5UXWX7C5*BA?format=json&modelyear=2011"
    )
    assert VIN.resolve_url("https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValuesExtended/1HGCM82633A004352?format=json") == (
        "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json"
    )
    assert VIN.resolve_url("https://vpic.nhtsa.dot.gov/api/vehicles/decodevinextended/1HGCM82633A004352") == (
        "https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json"
    )
    for unchanged in ("https://example.com/whatever", "not a url"):
        assert VIN.resolve_url(unchanged) == unchanged
    assert VIN.target_pattern.search("https://vpic.nhtsa.dot.gov/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json")


# --- nhtsa-vin: decoding ------------------------------------------------------------------


def test_vin_decodes_a_passenger_car():
    car = decode("car")
    assert list(car)[:3] == ["vin", "vehicle_descriptor", "make"] and list(car)[-2:] == ["decode_errors", "raw"]
    assert {k: car[k] for k in ("vin", "vehicle_descriptor", "make", "model", "model_year", "trim", "body_class",
                                "vehicle_type", "doors", "transmission_style", "transmission_speeds", "engine_hp",
                                "engine_model", "engine_cylinders", "engine_displacement_l", "plant_city",
                                "plant_country", "gvwr")} == {
        "vin": "1HGCM82633A004352", "vehicle_descriptor": "1HGCM826*3A", "make": "HONDA", "model": "Accord",
        "model_year": "2003", "trim": "EX-V6", "body_class": "Coupe", "vehicle_type": "PASSENGER CAR",
        "doors": "2", "transmission_style": "Automatic", "transmission_speeds": "5", "engine_hp": "240",
        "engine_model": "J30A4", "engine_cylinders": "6", "engine_displacement_l": "2.998832712",
        "plant_city": "MARYSVILLE", "plant_country": "UNITED STATES (USA)",
        "gvwr": "Class 1C: 4,001 - 5,000 lb (1,814 - 2,268 kg)",
    }


def test_vin_decodes_a_truck_and_a_motorcycle():
    truck = decode("truck")
    assert (truck["make"], truck["model"], truck["vehicle_type"], truck["body_class"]) == ("FORD", "F-150", "TRUCK", "Pickup")
    assert (truck["drive_type"], truck["engine_manufacturer"]) == ("4WD/4-Wheel Drive/4x4", "Ford")
    assert truck["raw"]["BodyCabType"] == "Crew/Super Crew/Crew Max"
    bike = decode("motorcycle")
    assert (bike["make"], bike["model"], bike["vehicle_type"], bike["series"], bike["doors"]) == (
        "HARLEY-DAVIDSON", "Street Glide", "MOTORCYCLE", "FLHX", None,
    )
    assert bike["body_class"] == "Motorcycle - Touring/Sport Touring"
    assert bike["raw"]["OtherMotorcycleInfo"] == "Heavyweight Motorcycle: 901cm3 or larger"


def test_vin_empty_strings_are_null_and_not_applicable_is_kept():
    raw_car = json.loads(fixture("nhtsa-vin-car"))["Results"][0]
    assert raw_car["Series"] == "" and raw_car["DriveType"] == ""
    car = decode("car")
    assert (car["series"], car["drive_type"], car["fuel_type_secondary"]) == (None, None, None)
    assert decode("truck")["trim"] is None and decode("partial")["plant_state"] is None
    assert decode("truck")["raw"]["BusType"] == "Not Applicable"
    assert decode("motorcycle")["raw"]["BedType"] == "Not Applicable"


def test_vin_raw_keeps_every_variable():
    car = decode("car")
    assert len(car["raw"]) == len(json.loads(fixture("nhtsa-vin-car"))["Results"][0])
    assert (car["raw"]["ValveTrainDesign"], car["raw"]["AirBagLocCurtain"], car["raw"]["DisplacementCI"]) == (
        "Single Overhead Cam (SOHC)", "1st and 2nd Rows", "183",
    )
    assert all(value != "" for value in car["raw"].values())


def test_vin_clean_decode_and_bad_check_digit():
    assert decode("car")["decode_errors"] == {
        "codes": [], "text": "0 - VIN decoded clean. Check Digit (9th position) is correct",
        "additional_text": None, "suggested_vin": None,
    }
    truck = decode("truck")
    assert truck["decode_errors"]["codes"] == ["1"]
    assert truck["decode_errors"]["text"] == "1 - Check Digit (9th position) does not calculate properly"
    assert truck["decode_errors"]["additional_text"].startswith("The Model Year decoded for this VIN may be incorrect.")
    assert truck["make"] == "FORD"  # a partial failure is still a decode


def test_vin_partial_vin_is_code_6_with_what_decoded():
    partial = decode("partial")
    assert partial["decode_errors"]["codes"] == ["6"]
    assert (partial["vin"], partial["vehicle_descriptor"], partial["make"], partial["model"], partial["trim"], partial["plant_country"]) == (
        "5UXWX7C5*BA", "5UXWX7C5*BA", "BMW", "X3", "xDrive35i", "GERMANY",
    )


def test_vin_undecodable_reports_every_code_and_keeps_the_text_whole():
    bad = decode("undecodable")
    assert bad["decode_errors"]["codes"] == ["6", "7", "11", "400"]
    assert bad["decode_errors"]["suggested_vin"] == "N!TAREAL!!N12345"
    assert bad["decode_errors"]["additional_text"] == "Invalid character(s): 2:O, 9:V, 10:I."
    assert "7 - Manufacturer is not registered with NHTSA for sale or importation in the U.S. for use on U.S roads; " \
           "Please contact the manufacturer directly for more information; 11 - " in bad["decode_errors"]["text"]
    assert bad["decode_errors"]["text"].endswith("; 400 - Invalid Characters Present")
    assert (bad["make"], bad["model"], bad["model_year"], bad["vin"]) == (None, None, None, "NOTAREALVIN12345")


def test_vin_rejects_the_json_404_the_nested_shape_and_html():
    with pytest.raises(TemplateRejectedError) as error:
        VIN.extract_raw(fixture("nhtsa-vin-not-found"), VPIC_URL)
    assert str(error.value) == (
        f"Not a vPIC decode response: {VPIC_URL} returned No HTTP resource was found that matches the request URI "
        "'https://backend-vpic-api.nhtsa.dot.gov/api/vehicles/DecodeVinValues/?format=json'.. "
        "This template reads the NHTSA vPIC DecodeVinValues API."
    )
    nested = json.dumps({"Count": 136, "Results": [{"Variable": "Make", "Value": "HONDA", "VariableId": 26}]})
    with pytest.raises(TemplateRejectedError, match="returned JSON without a decoded vehicle. This template reads"):
        VIN.extract_raw(nested, VPIC_URL)
    with pytest.raises(TemplateRejectedError) as error:
        VIN.extract_raw("<!doctype html><html>Access Denied</html>", VPIC_URL)
    assert str(error.value) == (
        f"Not a vPIC decode response: {VPIC_URL} did not return JSON. This template reads the NHTSA vPIC DecodeVinValues API."
    )


# --- npi-provider: URLs -------------------------------------------------------------------


def test_npi_list_url_pins_the_version_and_keeps_field_order():
    url = NPI.list_url({"state": "CA", "taxonomy_description": "Cardiology", "limit": 5})
    assert url == "https://npiregistry.cms.hhs.gov/api/?version=2.1&taxonomy_description=Cardiology&state=CA&limit=5"
    url = NPI.list_url({
        "number": "1265478150", "enumeration_type": "NPI-2", "first_name": "jo", "last_name": "smith",
        "organization_name": "hospital*", "taxonomy_description": "Internal Medicine", "city": "EL PASO",
        "state": "TX", "postal_code": "79925", "country_code": "US", "limit": 25, "skip": 50,
    })
    assert query(url) == [
        ("version", "2.1"), ("number", "1265478150"), ("enumeration_type", "NPI-2"),
        ("taxonomy_description", "Internal Medicine"), ("first_name", "jo"), ("last_name", "smith"),
        ("organization_name", "hospital*"), ("city", "EL PASO"), ("state", "TX"), ("postal_code", "79925"),
        ("country_code", "US"), ("limit", "25"), ("skip", "50"),
    ]
    assert "city=EL+PASO" in url and "organization_name=hospital*" in url


def test_npi_list_url_needs_a_criterion():
    for params in ({}, None, {"limit": 20}, {"city": ""}):
        with pytest.raises(TemplateError) as error:
            NPI.list_url(params)
        assert str(error.value) == (
            "npi-provider requires at least one search criterion. Accepted: " + ", ".join(NPI_SEARCH_FIELDS)
            + '. The registry answers a bare query with HTTP 200 and {"Errors":[{"description":"No valid search criteria provided"}]}.'
        )


def test_npi_list_url_names_the_limit_and_skip_bounds():
    with pytest.raises(TemplateError) as error:
        NPI.list_url({"state": "CA", "limit": 500})
    assert str(error.value) == (
        'npi-provider "limit" must be an integer between 1 and 200. '
        "The NPI registry silently caps anything larger instead of reporting it. Got: 500"
    )
    for bad in (0, 2.5, "ten"):
        with pytest.raises(TemplateError, match='"limit" must be an integer between 1 and 200'):
            NPI.list_url({"state": "CA", "limit": bad})
    with pytest.raises(TemplateError, match='"skip" must be an integer between 0 and 1000.* Got: 1001$'):
        NPI.list_url({"state": "CA", "skip": 1001})
    assert query(NPI.list_url({"state": "CA", "limit": 200}))[-1] == ("limit", "200")
    assert query(NPI.list_url({"state": "CA", "limit": "20"}))[-1] == ("limit", "20")
    assert query(NPI.list_url({"state": "CA", "skip": 1000}))[-1] == ("skip", "1000")
    assert NPI.target_pattern.search(NPI_URL)


# --- npi-provider: records ----------------------------------------------------------------


def test_npi_individuals_one_item_per_record():
    result = search("individuals")
    assert {k: v for k, v in result.items() if k != "items"} == {"count": 3, "limit": 5, "skip": 0, "more_possible": False}
    assert [i["npi"] for i in result["items"]] == ["1982227625", "1265566509", "1700742640"]
    first = result["items"][0]
    assert list(first) == [
        "npi", "enumeration_type", "name", "first_name", "last_name", "organization_name", "credential",
        "sole_proprietor", "status", "enumeration_date", "last_updated", "primary_taxonomy", "taxonomies",
        "addresses", "practice_locations", "other_names",
    ]
    assert {k: first[k] for k in list(first)[1:11]} == {
        "enumeration_type": "NPI-1", "name": "TARIQ AL-SALEH", "first_name": "TARIQ", "last_name": "AL-SALEH",
        "organization_name": None, "credential": "BCCP, APH, RPh, PACS", "sole_proprietor": False,
        "status": "A", "enumeration_date": "2020-05-28", "last_updated": "2025-07-12",
    }


def test_npi_dashes_are_absent_name_parts_and_yes_is_sole_proprietor():
    _, second, third = search("individuals")["items"]
    assert (second["name"], second["credential"]) == ("Mr. SRINIVASA REDDY AALURI", "md")
    assert (third["sole_proprietor"], third["credential"]) == (True, None)


def test_npi_addresses_are_chosen_by_purpose_not_index():
    location_first, mailing_first, _ = search("individuals")["items"]
    assert location_first["addresses"]["location"] == {
        "purpose": "LOCATION", "line1": "175 W LEXINGTON AVE STE B", "line2": None, "city": "EL CAJON",
        "state": "CA", "postal_code": "920204454", "country_code": "US", "country_name": "United States",
        "telephone": "786-445-2814", "fax": "619-923-5881",
    }
    assert (location_first["addresses"]["mailing"]["line1"], location_first["addresses"]["mailing"]["city"]) == (
        "300 14TH ST APT 531", "SAN DIEGO",
    )
    raw = json.loads(fixture("npi-individuals"))["results"][1]["addresses"]
    assert raw[0]["address_purpose"] == "MAILING"
    assert mailing_first["addresses"]["location"]["purpose"] == "LOCATION"
    assert mailing_first["addresses"]["location"]["state"] == "TX"
    assert mailing_first["addresses"]["mailing"]["purpose"] == "MAILING"


def test_npi_practice_locations_and_taxonomies():
    first, second, _ = search("individuals")["items"]
    assert [p["city"] for p in first["practice_locations"]] == ["SAN DIEGO"]
    assert len(first["taxonomies"]) == 4 and first["primary_taxonomy"] == "Pharmacist, Ambulatory Care"
    assert [t["description"] for t in first["taxonomies"] if t["primary"]] == ["Pharmacist, Ambulatory Care"]
    assert {"description": "Pharmacist, Cardiology", "primary": False}.items() <= first["taxonomies"][1].items()
    assert second["taxonomies"][0] == {
        "code": "207Q00000X", "description": "Family Medicine", "primary": True, "license": "L9590", "state": "TX", "group": None,
    }


def test_npi_organisation_record():
    organisation = search("organizations")["items"][0]
    assert (organisation["npi"], organisation["enumeration_type"], organisation["name"]) == ("1265478150", "NPI-2", "BECKER MEDICAL, PC")
    assert (organisation["organization_name"], organisation["first_name"], organisation["sole_proprietor"]) == (
        "BECKER MEDICAL, PC", None, None,
    )
    assert organisation["addresses"]["mailing"]["line2"] == "SUITE 1"
    assert organisation["taxonomies"][0]["group"] == "193400000X - Single Specialty Group"
    assert organisation["practice_locations"] == []
    assert organisation["other_names"] == [{"type": "Other Name", "name": "HOSPITAL MEDICINE ASSOCIATES"}]


def test_npi_former_name_uses_the_other_names_spelling():
    record = search("former-name")["items"][0]
    assert record["name"] == "Dr. SIU-HAN PAOLA ABATE"
    assert record["other_names"] == [{"type": "Former Name", "name": "Dr. SIU-HAN PAOLA ARTEAGA"}]


def test_npi_sex_and_authorized_official_never_appear():
    raw = fixture("npi-organizations") + fixture("npi-individuals")
    assert "authorized_official" in raw and "RICHARD" in raw and "9144553101" in raw
    individual, organisation = search("individuals")["items"][0], search("organizations")["items"][0]
    serialised = json.dumps(individual) + json.dumps(organisation)
    assert "sex" not in individual
    for leaked in ("authorized_official", "RICHARD", "9144553101"):
        assert leaked not in serialised


def test_npi_paging_comes_from_the_request_url():
    result = search("individuals", NPI_URL.replace("limit=5", "limit=5&skip=200"))
    assert (result["limit"], result["skip"]) == (5, 200)
    result = search("individuals", "https://npiregistry.cms.hhs.gov/api/?version=2.1&number=1982227625")
    assert (result["limit"], result["skip"], result["more_possible"]) == (10, 0, False)
    full = search("individuals", NPI_URL.replace("limit=5", "limit=3"))
    assert full["more_possible"] is True and "total_available" not in full
    assert (search("individuals", None)["limit"], search("individuals", "not a url")["skip"]) == (10, 0)


# --- npi-provider: errors -----------------------------------------------------------------


def test_npi_error_bodies_are_errors_not_empty_lists():
    with pytest.raises(TemplateError) as error:
        NPI.extract_list(fixture("npi-error-no-criteria"), NPI_URL)
    assert str(error.value) == f"NPI registry rejected the query for {NPI_URL}: generic: No valid search criteria provided."
    with pytest.raises(TemplateError) as error:
        NPI.extract_list(fixture("npi-error-multiple"), NPI_URL)
    assert str(error.value).endswith(": version: Unsupported Version; state: Field state requires additional search criteria.")


def test_npi_empty_result_set_is_not_an_error():
    # stand-in: the upstream npi-empty.json capture is missing (spec §7); see fixtures PROVENANCE
    result = NPI.extract_list(fixture("npi-empty-synthetic"), NPI_URL)
    assert result == {"items": [], "count": 0, "limit": 5, "skip": 0, "more_possible": False}


def test_npi_foreign_json_and_html_are_rejected():
    with pytest.raises(TemplateRejectedError) as error:
        NPI.extract_list('{"data":[]}', NPI_URL)
    assert str(error.value) == (
        f"Not an NPI registry response: {NPI_URL} returned JSON without a results array. "
        "This connector reads the NPPES NPI Registry API."
    )
    with pytest.raises(TemplateRejectedError, match=r"^Not an NPI registry response: .* did not return JSON\. "):
        NPI.extract_list("<!doctype html><html>NPPES NPI Registry</html>", NPI_URL)


def test_npi_next_page_follows_skip_until_the_registrys_cap():
    full = {"more_possible": True, "limit": 200, "skip": 600}
    assert NPI.next_page_url(NPI_URL, full).endswith("limit=5&skip=800")
    assert NPI.next_page_url(NPI_URL, {**full, "skip": 900}) is None  # 1100 is past the silent cap
    assert NPI.next_page_url(NPI_URL, {**full, "more_possible": False}) is None
