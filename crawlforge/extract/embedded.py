"""Find the state a JS app already ships in its own HTML.

Next.js (`__NEXT_DATA__`, RSC flight chunks), Nuxt, Apollo, Redux, SvelteKit,
Inertia and Shopify pages serialise the data their UI renders into the
document; reading it gives the site's own values. Raw HTML in (not a
script-stripped document), named payloads out; one regex pass per source, no
DOM, never eval, never truncated. See docs/templates.md §5.3 for the order of sources.
"""

import os
import re
from json import JSONDecodeError
from json.decoder import scanstring

from crawlforge.extract.dom import ParsedPage, as_page, folded_html, utf8_html
from crawlforge.extract.state import carriers
from crawlforge.extract.state.carriers import (
    ScannedPage, read_attribute, read_bracketed_literal, read_js_bracketed_literal,
)
from crawlforge.extract.state.flight import flight_data_rows, parse_flight_rows, sized_flight_rows
from crawlforge.extract.state.framework_data import decode_nuxt_data, sveltekit_data
from crawlforge.extract.state.jsjson import JsonTooDeepError, byte_size, loads, loads_at, unwrapped
from crawlforge.extract.state.jsliteral import evaluate_literal_source
from crawlforge.extract.state.jsonpath import JsonPathError, parse_json_path, select_json_path

__all__ = [
    "JsonPathError", "embedded_state_of", "extract_apollo_transport", "extract_embedded_state",
    "parse_json_path", "select_json_path",
]

# (data key, global variable), in report order; a key already filled is skipped.
STATE_VARIABLES = (
    ("nuxt", "__NUXT__"),
    ("apollo_state", "__APOLLO_STATE__"),
    ("initial_state", "__INITIAL_STATE__"),
    ("initial_state", "___INITIAL_STATE___"),
    ("preloaded_state", "__PRELOADED_STATE__"),
    ("preloaded_data", "__preloadedData"),
    ("yt_initial_data", "ytInitialData"),
    ("yt_initial_player_response", "ytInitialPlayerResponse"),
    ("remix_context", "__remixContext"),
    ("tgt_data", "__TGT_DATA__"),
    ("pws_data", "__PWS_DATA__"),
    ("server_data", "__SERVER_DATA__"),
    ("app_state", "__APP_STATE__"),
    ("state", "__STATE__"),
    ("global_data", "__data__"),
    # Beyond templates.md: older Next.js inlines `__NEXT_DATA__={...}` in a plain
    # script; read only when no `<script id="__NEXT_DATA__">` block filled it.
    ("next_data", "__NEXT_DATA__"),
)

# Each variable as it reads in a page's folded bytes (``ScannedPage.folded``), and those that
# start with "__" in one search (the engine skips to the literal "__"), with the flight and the
# SvelteKit markers; longest first, so a name that were a prefix of another would still be seen.
_FOLDED_VARIABLES = tuple((variable, variable.lower().encode()) for _, variable in STATE_VARIABLES)
_FLIGHT_MARK, _SVELTEKIT_MARK = b"__next_f.push(", b"__sveltekit_"
_UNDERSCORED_RE = re.compile(b"__(?:%s)" % b"|".join(sorted(
    {re.escape(folded[2:]) for _, folded in _FOLDED_VARIABLES if folded.startswith(b"__")}
    | {re.escape(_FLIGHT_MARK[2:]), re.escape(_SVELTEKIT_MARK[2:])}, key=len, reverse=True)))
# The others' common start ("ytinitial"): one search rules them all out.
_OTHERS_PREFIX = os.path.commonprefix([folded for _, folded in _FOLDED_VARIABLES if not folded.startswith(b"__")])
_NEXT_F_PUSH_RE = re.compile(r"self\.__next_f\.push\(\s*\[\s*1\s*,\s*")
_APOLLO_TRANSPORT_RE = re.compile(
    r"""Symbol\.for\(\s*["']ApolloSSRDataTransport["']\s*\)\s*\]\s*\?\?=\s*\[\s*\]\s*\)\s*\.push\(\s*"""
)
# A bare `undefined` in value position; the word inside a string is left alone.
_BARE_UNDEFINED_RE = re.compile(r"(?<=[:,\[])\s*undefined\s*(?=[,}\]])")
_JSON_SCRIPT_TYPES = ("application/json", "text/json")
_NUXT_DATA_NOTE = "Nuxt 3 devalue payload, decoded; raw:true also keeps the undecoded array in json_scripts"


_BRACKET_PREFIX_RE = re.compile(r"""(?:window|self|globalThis)\s*\[\s*(['"])\Z""")
_EQUALS_RE = re.compile(r"\s*=(?!=)\s*")
_CLOSE_BRACKET_RE = re.compile(r"\s*\]")
_WORD_CHAR_RE = re.compile(r"[A-Za-z0-9_]")


def _assignments(html, variable):
    """Where each assignment to `variable` puts its value, in document order.

    `window|self|globalThis["name"] =`, or `[window.]name =` at a word boundary
    (so `MY__INITIAL_STATE__` does not count); `==` comparisons are skipped.
    Found from each occurrence of the name, which is far faster than one
    alternation regex over a megabyte page.
    """
    start = html.find(variable)
    while start >= 0:
        end = start + len(variable)
        equals = _bracket_assignment(html, start, end)
        if equals is None and (start == 0 or not _WORD_CHAR_RE.match(html, start - 1)):
            equals = _EQUALS_RE.match(html, end)
        if equals:
            yield equals.end()
        start = html.find(variable, end)


def _underscored(folded):
    """What ``_UNDERSCORED_RE`` finds in a page's folded bytes. An occurrence that search steps over
    overlaps an earlier name, so it follows a word character: it is no assignment, and no SvelteKit
    global (read at a word boundary)."""
    return set(_UNDERSCORED_RE.findall(folded))


def _present_variables(folded, found):
    """The variables of STATE_VARIABLES that can be assigned in the page, and maybe more, from
    its folded bytes and what ``_underscored`` found there (a variable is then looked for in the
    page's text).

    A name starting with "__" counts when the one search for them all found it; the others, each
    with a find once their common start is there.
    """
    others = _OTHERS_PREFIX in folded
    if not (found or others):  # most pages: no name is there to test
        return set()
    return {variable for variable, name in _FOLDED_VARIABLES
            if (any(name in match for match in found) if name.startswith(b"__") else others and name in folded)}


def _bracket_assignment(html, start, end):
    bracket = _BRACKET_PREFIX_RE.search(html, max(0, start - 200), start)
    if not bracket or not html.startswith(bracket.group(1), end):
        return None
    closing = _CLOSE_BRACKET_RE.match(html, end + 1)
    return _EQUALS_RE.match(html, closing.end()) if closing else None


def _parse_healing_undefined(literal, as_it_stands=True):
    """(value, healed count) of a JSON literal with bare `undefined` read as null.

    Returns (None, -1) when it is not JSON even after healing. ``as_it_stands`` False: the literal
    is known not to be JSON as it stands.
    """
    if as_it_stands:
        try:
            return loads(literal), 0
        except ValueError:
            pass
    literal, healed = _BARE_UNDEFINED_RE.subn("null", literal)
    if not healed:
        return None, -1
    try:
        return loads(literal), healed
    except ValueError:
        return None, -1


def _healed_literal_at(html, start):
    """(end, value, healed count) of the bracketed literal at `start` read by
    ``_parse_healing_undefined``, or None when no literal closes there. JSON is read once, where it
    stands; a literal whose JSON has a syntax error is not read as it stands again (nor is its end
    looked for by the decoder: the error is found again at the same place)."""
    if not html.startswith(("{", "["), start):
        return None
    try:
        value, end = loads_at(html, start)
        return end, value, 0
    except JSONDecodeError:
        literal, as_it_stands = read_js_bracketed_literal(html, start), False
    except ValueError:
        literal, as_it_stands = read_bracketed_literal(html, start), True
    if literal is None:
        return None
    return (start + len(literal), *_parse_healing_undefined(literal, as_it_stands))


def extract_apollo_transport(html):
    """Apollo streaming-SSR pushes (`window[Symbol.for("ApolloSSRDataTransport")]`), in order."""
    pushes, position = [], 0
    while True:
        match = _APOLLO_TRANSPORT_RE.search(html, position)
        if not match:
            return pushes
        position = match.end()
        read = _healed_literal_at(html, position)
        if read is None:
            continue
        position, value, healed = read
        if healed >= 0:
            pushes.append(value)


def _read_flight_stream(html):
    """Every `self.__next_f.push([1,"..."])` string, concatenated in document order. A string is
    read where it stands by the JSON decoder's own scanner: what ``loads`` makes of the string
    literal there, without first finding where it ends."""
    parts, position = [], 0
    while True:
        match = _NEXT_F_PUSH_RE.search(html, position)
        if not match:
            return len(parts), "".join(parts)
        position = match.end()
        if not html.startswith('"', position):
            continue
        try:
            part, end = scanstring(html, position + 1)
        except ValueError:
            continue
        parts.append(part)
        position = end


class _State:
    """The result being built: data, found entries, warnings, json_scripts."""

    def __init__(self):
        self.data, self.found, self.warnings, self.json_scripts = {}, [], [], []

    def add(self, name, variable, value, note=None, size=None):
        """``size``: the value's ``byte_size``, when known already."""
        self.data[name] = value
        entry = {"name": name, "variable": variable, "bytes": byte_size(value) if size is None else size}
        if note is not None:
            entry["note"] = note
        self.found.append(entry)

    def result(self):
        return {"data": self.data, "found": self.found, "warnings": self.warnings}


NOT_JSON = "not valid JSON"


def is_not_json_script(warning: str) -> bool:
    """Whether a warning is of a JSON ``<script>`` block that is not JSON: a page's own data,
    common and harmless, which a crawl counts rather than reports page by page."""
    return warning.startswith("A <script type=") and warning.endswith(f"> block is {NOT_JSON}; skipped.")


def _json_scripts(state, page, raw):
    for attrs, body in page.json_typed_scripts:
        script_type = (read_attribute(attrs, "type") or "").lower()
        if script_type not in _JSON_SCRIPT_TYPES:
            continue
        if carriers.is_inertia_page_script(attrs) or carriers.is_shopify_product_json_script(attrs):
            continue
        script_id = read_attribute(attrs, "id")
        try:
            parsed = loads(unwrapped(body))
        except ValueError as exc:
            id_part = f' id="{script_id}"' if script_id else ""
            what = str(exc) if isinstance(exc, JsonTooDeepError) else NOT_JSON
            state.warnings.append(f'A <script type="{script_type}"{id_part}> block is {what}; skipped.')
            continue
        _json_script(state, parsed, script_id, attrs, raw)


def _json_script(state, parsed, script_id, attrs, raw):
    block = {"id": script_id or None, "data": parsed}
    if script_id == "__NEXT_DATA__":
        state.add("next_data", "__NEXT_DATA__", parsed)
        return
    is_nuxt = script_id == "__NUXT_DATA__" or read_attribute(attrs, "data-nuxt-data") is not None
    if not is_nuxt or "nuxt_data" in state.data:
        state.json_scripts.append(block)
        return
    decoded = decode_nuxt_data(parsed)
    state.warnings.extend(decoded["warnings"])
    if decoded["value"] is None:
        state.json_scripts.append(block)
        return
    state.add("nuxt_data", "__NUXT_DATA__", decoded["value"], _NUXT_DATA_NOTE)
    if raw:
        state.json_scripts.append(block)


def _flight(state, html):
    chunks, stream = _read_flight_stream(html)
    if not chunks:
        return
    resolved, sizes, size = sized_flight_rows(parse_flight_rows(stream))
    rows = resolved["rows"]
    note = (
        f"{chunks} RSC flight chunks concatenated into {len(rows)} rows, keyed by row id; "
        f'{resolved["resolved"]} "$<id>" reference(s) between rows resolved in place'
    )
    if resolved["over_budget"]:
        note += f', {resolved["over_budget"]} left as strings to keep the payload under twice its size'
    state.add("next_f", "self.__next_f", rows, note, size)
    data_rows = flight_data_rows(rows, sizes)
    if data_rows:
        state.add("data_rows", "self.__next_f", data_rows,
                  f"index of the {len(data_rows)} next_f row(s) carrying data rather than markup, "
                  'largest first; read one with path "next_f.<id>"')


def _read_assigned_value(html, start):
    """(value, note) of the literal assigned at `start`, or (None, None).

    JSON first (bare `undefined` healed); otherwise the text up to `</script`
    read as one JS expression, evaluated statically. Only objects/arrays count.
    """
    read = _healed_literal_at(html, start)
    if read is not None and read[2] >= 0:
        healed = read[2]
        return read[1], (f"{healed} bare undefined value(s) read as null" if healed else None)
    script_end = html.find("</script", start)
    result = evaluate_literal_source(html[start:] if script_end < 0 else html[start:script_end], first_reason=False)
    if result["ok"] and isinstance(result["value"], (dict, list)):
        return result["value"], "read as a JavaScript literal (evaluated statically, no code run)"
    return None, None


def _global_assignments(state, page, underscored):
    present = _present_variables(page.folded, underscored)
    for name, variable in STATE_VARIABLES:
        if name in state.data or variable not in present:
            continue
        html = page.doc
        assigned, value, note = False, None, None
        for value_start in _assignments(html, variable):
            assigned = True
            value, note = _read_assigned_value(html, value_start)
            if value is not None:
                break
        if not assigned:
            continue
        if value is None:
            state.warnings.append(
                f"{variable} is present but its value is not a JSON or JavaScript literal "
                "(it calls code or reads other variables); not parsed."
            )
            continue
        if not value:
            kind = "array" if isinstance(value, list) else "object"
            state.warnings.append(
                f"{variable} is present but assigned an empty {kind}; the page fills it in "
                "from a later statement this tool does not evaluate."
            )
        state.add(name, variable, value, note)


def _carriers(state, page, sveltekit_marked):
    sveltekit = sveltekit_data(page) if sveltekit_marked else None
    if sveltekit:
        state.warnings.extend(sveltekit["warnings"])
        if sveltekit["value"] is not None:
            state.add("sveltekit_data", "kit.start(app, element, { data })", sveltekit["value"],
                      "one entry per route node, root layout first; read as a JavaScript literal")
    inertia = carriers.inertia_page(page)
    if inertia:
        state.warnings.extend(inertia["warnings"])
        if inertia["value"] is not None:
            state.add("inertia_page", "[data-page]", inertia["value"])
    shopify = carriers.shopify(page)
    if shopify:
        state.warnings.extend(shopify["warnings"])
        if shopify["value"]:
            state.add("shopify", "ShopifyAnalytics.meta, script[data-product-json]", shopify["value"],
                      "meta prices are integers in minor units (10500 = 105.00 in meta.currency)")


def extract_embedded_state(html, raw=False):
    """Every embedded state payload in raw HTML: `{data, found, warnings}`.

    `found` entries are `{name, variable, bytes[, note]}`, bytes being the UTF-8
    size of the value's JSON. A source present but unreadable is a warning, not
    a guess. `raw=True` also keeps the undecoded `__NUXT_DATA__` array in
    json_scripts. Never raises on page content. The str form of ``embedded_state_of`` (``html``
    may be the page itself).
    """
    return embedded_state_of(as_page(html), raw)


def embedded_state_of(page: ParsedPage, raw: bool = False) -> dict:
    """``extract_embedded_state`` of a page, the caller's to keep: what the page's product
    readers read already (``page_state``) is handed over, not read again."""
    if raw:
        return _read(page.shared(scanned_page), True)
    return page.handed(page_state)


def page_state(page: ParsedPage) -> dict:
    """``extract_embedded_state`` of a parsed page, for ``page.shared``: the product readers and
    the embedded-state step of one page read it once."""
    return _read(page.shared(scanned_page), False)


def scanned_page(page: ParsedPage) -> ScannedPage:
    """``ScannedPage(page.html)``, for ``page.shared``: the state readers and the Shopify reader
    scan the page once."""
    if page.huge:  # its shared bytes are of its outline
        return ScannedPage(page.html)
    return ScannedPage(page.html, page.shared(folded_html), page.shared(utf8_html))


def _read(page, raw):
    state = _State()
    _json_scripts(state, page, raw)
    underscored = _underscored(page.folded)
    if _FLIGHT_MARK in underscored and page.has("self.__next_f.push("):  # each reader looks only where its marker is
        _flight(state, page.doc)
    pushes = extract_apollo_transport(page.doc) if page.has("ApolloSSRDataTransport") else []
    if pushes:
        state.add("apollo_ssr_transport", 'window[Symbol.for("ApolloSSRDataTransport")]', pushes,
                  f"{len(pushes)} streaming-SSR push(es), in document order")
    _global_assignments(state, page, underscored)
    # The carrier readers drop comments again (which can join new ones: `<!<!-- -->-- -->`).
    carrier_page = page.again() if page.comments_left else page
    _carriers(state, carrier_page, carrier_page is not page or _SVELTEKIT_MARK in underscored)
    if state.json_scripts:
        state.add("json_scripts", 'script[type="application/json"]', state.json_scripts,
                  f"{len(state.json_scripts)} block(s), each {{ id, data }}")
    attributes = carriers.json_attributes(carrier_page)
    if attributes:
        state.add("json_attributes", "data-* attributes", attributes,
                  f"{len(attributes)} attribute(s) holding a JSON object of 2 KB or more, "
                  "each { tag, attribute, id, data }")
    return state.result()
