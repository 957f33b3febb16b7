"""Government registry connectors: NHTSA vPIC VIN decoding and the NPPES NPI Registry.

Both are free, keyless, documented US federal JSON APIs. Both answer errors with HTTP 200 and
an error payload, so the errors are read out of the body and surfaced, never swallowed: a
partial VIN decode is a real answer, and a rejected NPI query is not an empty result.
"""

from __future__ import annotations

import re
from typing import Any

from ada_url import URLSearchParams

from .base import Template, TemplateError, TemplateRejectedError
from .common import (
    JS_WHITESPACE, encode_uri_component, first_truthy, is_integer, js_parse_int, js_string, js_to_number, js_trim,
    js_truthy, path_match, safe_url,
)
from .api import as_list, field, parse_json, with_query

# --- NHTSA vPIC ------------------------------------------------------------------------------

VPIC_BASE = "https://vpic.nhtsa.dot.gov/api/vehicles"
_VPIC_API = "This template reads the NHTSA vPIC DecodeVinValues API."
_DECODE_PATH = re.compile(r"^(.*/api/vehicles/)DecodeVin(?:Values)?(?:Extended)?/(.+)$", re.IGNORECASE)

# curated output key -> vPIC variable
_VEHICLE_FIELDS = {
    "vin": "VIN", "vehicle_descriptor": "VehicleDescriptor",
    "make": "Make", "model": "Model", "model_year": "ModelYear", "trim": "Trim", "series": "Series",
    "body_class": "BodyClass", "vehicle_type": "VehicleType", "doors": "Doors",
    "drive_type": "DriveType", "gvwr": "GVWR",
    "engine_cylinders": "EngineCylinders", "engine_displacement_l": "DisplacementL",
    "engine_hp": "EngineHP", "engine_configuration": "EngineConfiguration",
    "engine_model": "EngineModel", "engine_manufacturer": "EngineManufacturer",
    "fuel_type_primary": "FuelTypePrimary", "fuel_type_secondary": "FuelTypeSecondary",
    "transmission_style": "TransmissionStyle", "transmission_speeds": "TransmissionSpeeds",
    "manufacturer": "Manufacturer", "plant_city": "PlantCity", "plant_state": "PlantState",
    "plant_country": "PlantCountry",
}


def _vin_value(value: Any) -> Any:
    """vPIC writes "" for "no value held"; that reads as None. "Not Applicable" is an answer, kept."""
    value = js_trim(value) if isinstance(value, str) else value
    return None if value == "" else value


def _error_codes(value: Any) -> list[str]:
    """ErrorCode is comma-joined ("6,7,11,400"); "0" is the clean-decode code, so it is dropped."""
    codes = (c.strip(JS_WHITESPACE) for c in ("" if value is None else js_string(value)).split(","))
    return [c for c in codes if c and c != "0"]


class NhtsaVin(Template):
    """VIN decode into a named vehicle shape, the whole decode kept under ``raw``."""

    id = "nhtsa-vin"
    name = "NHTSA VIN Decode"
    description = (
        "Decode a VIN against NHTSA's vPIC API: make, model, year, trim, body class, drive type, "
        "engine, fuel, transmission, plant and GVWR, plus the full decode under `raw`. Free and "
        'keyless. Partial VINs are accepted ("*" for unknown positions), and vPIC\'s own error '
        "codes are reported rather than swallowed."
    )
    target_pattern = re.compile(r"vpic\.nhtsa\.dot\.gov/api/vehicles/DecodeVin", re.IGNORECASE)
    params = [
        {"name": "vin", "required": True,
         "description": 'The VIN to decode; "*" marks unknown positions of a partial VIN, e.g. "5UXWX7C5*BA".'},
        {"name": "modelYear", "required": False,
         "description": "Model year, which vPIC documents as improving decode accuracy."},
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        vin = params.get("vin")
        vin = js_trim(vin) if isinstance(vin, str) else ""
        if not vin:
            raise TemplateError(
                'nhtsa-vin requires a "vin" parameter: the VIN to decode. A partial VIN is allowed — '
                'vPIC accepts "*" for unknown positions, as in 5UXWX7C5*BA.'
            )
        pairs = [("format", "json")]
        model_year = params.get("modelYear")
        if model_year is not None and model_year != "":
            pairs.append(("modelyear", js_string(model_year)))
        return with_query(f"{VPIC_BASE}/DecodeVinValues/{encode_uri_component(vin)}", pairs)

    def resolve_url(self, url: str) -> str:
        """Any decode endpoint (all default to XML; two are a nested shape) -> flat DecodeVinValues JSON."""
        parsed, match = path_match(url, _DECODE_PATH)
        if not match:
            return url
        parsed.pathname = f"{match[1]}DecodeVinValues/{match[2]}"
        return with_query(parsed, [("format", "json")])

    def extract_raw(self, body: str | bytes, url: str | None = None) -> dict:
        payload = parse_json(
            body, TemplateRejectedError(f"Not a vPIC decode response: {url} did not return JSON. {_VPIC_API}")
        )
        results = field(payload, "Results")
        result = results[0] if isinstance(results, list) and results else None
        # ErrorCode marks the flat shape; vPIC's JSON 404 and the nested DecodeVin shape lack it
        if not isinstance(result, dict) or "ErrorCode" not in result:
            message = field(payload, "message")
            reason = message if isinstance(message, str) else "JSON without a decoded vehicle"
            raise TemplateRejectedError(f"Not a vPIC decode response: {url} returned {reason}. {_VPIC_API}")
        raw = {key: _vin_value(value) for key, value in result.items()}
        vehicle = {name: raw.get(variable) for name, variable in _VEHICLE_FIELDS.items()}
        # a wrong check digit still decodes; invalid characters do not: the caller must see which
        vehicle["decode_errors"] = {
            "codes": _error_codes(raw.get("ErrorCode")),
            "text": raw.get("ErrorText"),
            "additional_text": raw.get("AdditionalErrorText"),
            "suggested_vin": raw.get("SuggestedVIN"),
        }
        vehicle["raw"] = raw
        return vehicle


# --- NPPES NPI Registry ----------------------------------------------------------------------

NPI_ENDPOINT = "https://npiregistry.cms.hhs.gov/api/"
NPI_VERSION = "2.1"  # 1.0, 2.0 and the unversioned endpoint are retired
NPI_DEFAULT_LIMIT = 10
# The registry silently caps `skip` at 1000 instead of failing: checked, and paging stops there.
NPI_MAX_SKIP = 1000
NPI_SEARCH_FIELDS = (
    "number", "enumeration_type", "taxonomy_description", "name_purpose", "first_name",
    "use_first_name_alias", "last_name", "organization_name", "address_purpose", "city",
    "state", "postal_code", "country_code",
)
_NPI_FIELD_HELP = {
    "number": "NPI number (10 digits).",
    "enumeration_type": "NPI-1 (individual) or NPI-2 (organisation); not a criterion on its own.",
    "taxonomy_description": 'Taxonomy (specialty) description, e.g. "Cardiology".',
    "name_purpose": "Which names first_name/last_name search: AO (authorized official) or Provider.",
    "first_name": 'Provider first name; a trailing "*" after two letters matches a prefix.',
    "use_first_name_alias": "true to also match first-name aliases (Robert/Bob).",
    "last_name": 'Provider last name; a trailing "*" after two letters matches a prefix.',
    "organization_name": 'Organisation name; a trailing "*" after two letters matches a prefix.',
    "address_purpose": "Which address city/state/postal_code search: LOCATION, MAILING, PRIMARY or SECONDARY.",
    "city": "City of the searched address.",
    "state": "Two-letter state of the searched address; not a criterion on its own.",
    "postal_code": 'Postal code; 5 or 9 digits, a trailing "*" matches a prefix.',
    "country_code": "Two-letter country code; alone only when not US.",
}
_NPI_API = "This connector reads the NPPES NPI Registry API."


def _given(value: Any) -> bool:
    """Present in the JS sense used here: not undefined, null or ""."""
    return value is not None and value != ""


def _npi_bound(name: str, value: Any, low: int, high: int) -> int:
    """The registry silently caps limit/skip instead of reporting it, so the bound is checked here."""
    number = js_to_number(value)
    if not (is_integer(number) and low <= number <= high):
        raise TemplateError(
            f'npi-provider "{name}" must be an integer between {low} and {high}. '
            f"The NPI registry silently caps anything larger instead of reporting it. Got: {js_string(value)}"
        )
    return int(number)


def _npi_paging(url: Any) -> tuple[int, int]:
    """limit and skip as requested (the response echoes neither); the registry's defaults otherwise."""
    parsed = safe_url(url)
    params = URLSearchParams(parsed.search if parsed is not None else "")
    limit = js_parse_int(params.get("limit")) if params.has("limit") else None
    skip = js_parse_int(params.get("skip")) if params.has("skip") else None
    return (NPI_DEFAULT_LIMIT if limit is None else limit), (0 if skip is None else skip)


def _name_part(value: Any) -> str | None:
    """The registry writes "--" for an absent name part (name_suffix); that reads as None."""
    text = js_trim("" if value is None else js_string(value))
    return text if text and text != "--" else None


def _either(record: dict, key: str, alias: str) -> Any:
    """``record[key] ?? record[alias]``: basic spells name_prefix, other_names spell prefix."""
    value = record.get(key)
    return record.get(alias) if value is None else value


def npi_name(record: dict) -> str | None:
    """Display name: the organisation's, else prefix, first, middle, last and suffix joined."""
    if js_truthy(record.get("organization_name")):
        return _name_part(record["organization_name"])
    parts = (
        _either(record, "name_prefix", "prefix"), record.get("first_name"), record.get("middle_name"),
        record.get("last_name"), _either(record, "name_suffix", "suffix"),
    )
    return " ".join(p for p in map(_name_part, parts) if p) or None


def _or_none(record: dict, key: str) -> Any:
    """JS ``record.key || null``."""
    return first_truthy(record.get(key), None)


def npi_address(address: Any) -> dict | None:
    """An address under named keys; the registry's "" for a missing part reads as None."""
    if not js_truthy(address):
        return None
    address = address if isinstance(address, dict) else {}
    names = (
        ("purpose", "address_purpose"), ("line1", "address_1"), ("line2", "address_2"), ("city", "city"),
        ("state", "state"), ("postal_code", "postal_code"),  # ZIP+4 unhyphenated, as the registry writes it
        ("country_code", "country_code"), ("country_name", "country_name"),
        ("telephone", "telephone_number"), ("fax", "fax_number"),
    )
    return {name: _or_none(address, key) for name, key in names}


def _taxonomy(entry: Any) -> dict:
    entry = entry if isinstance(entry, dict) else {}
    return {
        "code": _or_none(entry, "code"),
        "description": _or_none(entry, "desc"),
        "primary": entry.get("primary") is True,
        "license": _or_none(entry, "license"),
        "state": _or_none(entry, "state"),
        "group": _or_none(entry, "taxonomy_group"),
    }


def _yes_no(value: Any) -> bool | None:
    """sole_proprietor is "YES"/"NO" on individuals and absent on organisations."""
    return {"YES": True, "NO": False}.get(value) if isinstance(value, str) else None


def _address_for(addresses: list, purpose: str) -> dict | None:
    """Chosen by purpose, never by index: half the captured records list MAILING first."""
    return next((a for a in addresses if field(a, "address_purpose") == purpose), None)


def npi_record(record: Any) -> dict:
    """One registry record as published; ``sex`` and ``authorized_official_*`` are never read."""
    record = record if isinstance(record, dict) else {}
    basic = record.get("basic")
    basic = basic if isinstance(basic, dict) else {}
    addresses = as_list(record.get("addresses"))
    taxonomies = [_taxonomy(t) for t in as_list(record.get("taxonomies"))]
    return {
        "npi": _or_none(record, "number"),
        "enumeration_type": _or_none(record, "enumeration_type"),
        "name": npi_name(basic),
        "first_name": _name_part(basic.get("first_name")),
        "last_name": _name_part(basic.get("last_name")),
        "organization_name": _name_part(basic.get("organization_name")),
        "credential": _name_part(basic.get("credential")),
        "sole_proprietor": _yes_no(basic.get("sole_proprietor")),
        "status": _or_none(basic, "status"),
        "enumeration_date": _or_none(basic, "enumeration_date"),
        "last_updated": _or_none(basic, "last_updated"),
        # a taxonomy search matches any of a provider's taxonomies, not the primary one
        "primary_taxonomy": next((t["description"] for t in taxonomies if t["primary"]), None),
        "taxonomies": taxonomies,
        "addresses": {
            "location": npi_address(_address_for(addresses, "LOCATION")),
            "mailing": npi_address(_address_for(addresses, "MAILING")),
        },
        "practice_locations": [npi_address(a) for a in as_list(record.get("practiceLocations"))],
        "other_names": [
            {"type": _or_none(o if isinstance(o, dict) else {}, "type"),
             "name": npi_name(o if isinstance(o, dict) else {})}
            for o in as_list(record.get("other_names"))
        ],
    }


def _npi_errors(errors: list) -> str:
    """Every error the registry returned, as ``field: description`` joined by "; "."""
    parts = ([field(e, "field"), field(e, "description")] for e in errors)
    return "; ".join(": ".join(js_string(p) for p in pair if js_truthy(p)) for pair in parts)


class NpiProvider(Template):
    """NPPES NPI Registry search: records passed through as published, the API's errors surfaced."""

    id = "npi-provider"
    name = "NPI Provider Registry"
    description = (
        "Search the NPPES NPI Registry, the public US health care provider registry CMS publishes, "
        "by NPI number, name, organisation, taxonomy/specialty or location. Returns registry "
        "records as the registry publishes them: NPI, individual-or-organisation type, credential, "
        "status, taxonomies with the primary one flagged, and practice and mailing addresses kept "
        "apart. Free and keyless; a registry lookup, not a people-search."
    )
    target_pattern = re.compile(r"npiregistry\.cms\.hhs\.gov/api", re.IGNORECASE)
    params = [
        *({"name": name, "required": False, "description": _NPI_FIELD_HELP[name]} for name in NPI_SEARCH_FIELDS),
        {"name": "limit", "required": False, "description": "Records per page, 1-200 (registry default 10)."},
        {"name": "skip", "required": False, "description": "Records to skip, 0-1000."},
    ]

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        pairs = [("version", NPI_VERSION)]
        pairs += [(f, js_string(params[f])) for f in NPI_SEARCH_FIELDS if _given(params.get(f))]
        if len(pairs) == 1:
            raise TemplateError(
                "npi-provider requires at least one search criterion. Accepted: "
                f"{', '.join(NPI_SEARCH_FIELDS)}. The registry answers a bare query with HTTP 200 and "
                '{"Errors":[{"description":"No valid search criteria provided"}]}.'
            )
        # the registry's own rules (state alone, ...) are left to it; extract_list names its answer
        for name, low, high in (("limit", 1, 200), ("skip", 0, NPI_MAX_SKIP)):
            if _given(params.get(name)):
                pairs.append((name, str(_npi_bound(name, params[name], low, high))))
        return with_query(NPI_ENDPOINT, pairs)

    def extract_list(self, body: str | bytes, url: str | None = None, params: dict | None = None) -> dict:
        payload = parse_json(
            body, TemplateRejectedError(f"Not an NPI registry response: {url} did not return JSON. {_NPI_API}")
        )
        errors = field(payload, "Errors")
        # every registry error is HTTP 200 with an Errors array; left alone it reads as "no such provider"
        if isinstance(errors, list) and errors:
            raise TemplateError(f"NPI registry rejected the query for {url}: {_npi_errors(errors)}.")
        results = field(payload, "results")
        if not isinstance(results, list):
            raise TemplateRejectedError(
                f"Not an NPI registry response: {url} returned JSON without a results array. {_NPI_API}"
            )
        items = [npi_record(record) for record in results]
        limit, skip = _npi_paging(url)
        # no total: result_count is this page's size; a full page is the only "maybe more" signal
        return {"items": items, "count": len(items), "limit": limit, "skip": skip,
                "more_possible": len(items) == limit}

    def next_page_url(self, url: str, data: dict) -> str | None:
        """The next ``skip`` while pages come back full, up to the registry's cap."""
        if not data.get("more_possible"):
            return None
        skip = data["skip"] + data["limit"]
        return with_query(url, [("skip", skip)]) if skip <= NPI_MAX_SKIP else None


GOV_TEMPLATES = [NhtsaVin(), NpiProvider()]
