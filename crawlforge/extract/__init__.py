"""Pure extraction: bytes or str in, plain data out; no Scrapy, no network.

The helper functions of the upstream library are importable from here (``from crawlforge.extract
import flatten_text``). Each is loaded from its module on first use, so importing this package
stays cheap for code that needs only one helper.
"""

from importlib import import_module

_HOMES = {
    "charset": ("BodyTooLargeError", "DEFAULT_MAX_BODY_BYTES", "decode_body", "detect_charset"),
    "structure": ("structural_similarity", "structure_signature"),
    "embedded": ("extract_embedded_state",),
    "state.flight": ("flight_data_rows", "parse_flight_rows", "resolve_flight_rows"),
    "state.jsliteral": ("evaluate_literal_node", "evaluate_literal_source"),
    "state.framework_data": ("decode_nuxt_data",),
    "state.jsonpath": ("JsonPathError", "parse_json_path", "select_json_path"),
    "pagehelpers.jsonfind": ("find_json_paths",),
    "shopify": ("shopify_product_from_jsonld",),
    "verdict": ("detect_challenge_page", "document_verdict"),
    "units": ("rank_units", "segment_units"),
    "pagehelpers.pagetext": ("flatten_text",),
    "pagehelpers.tables": ("grid_tables",),
    "pagehelpers.links": ("absolute_urls", "extract_link_records"),
    "state.jsutil": ("safe_href",),
    "pagehelpers.pii": ("DEFAULT_REPLACE_STYLE", "MODEL_ONLY_ENTITIES", "REGEX_ENTITIES", "redact_pii"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
