"""JSON a page ships outside script variables: Inertia's page object, Shopify's
analytics meta and product JSON, and big JSON objects parked in data-* attributes.

One regex pass per carrier over raw HTML, no DOM. Input is page content: nothing
here raises on malformed markup, and a carrier that is present but unreadable
is a warning, never a guessed value.
"""

import bisect
import html
import html.entities
import json
import re
from functools import cached_property

from crawlforge.extract.state.jsjson import loads

_SCRIPT_OPEN_RE = re.compile(r"<script\b([^>]*)>", re.I)
_SCRIPT_CLOSE_RE = re.compile(r"</script\s*>", re.I)
# A data-* attribute and its quoted value, in the folded bytes (any case: ``re.I | re.A`` in the
# text) and in the text (only "data-" in lower case); a tag's name.
_DATA_ATTR_RE = re.compile(rb"""\s(data-[\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_LOWER_DATA_ATTR_RE = re.compile(r"""\s(data-[\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.A)
_TAG_NAME_RE = re.compile(r"<([a-zA-Z][\w:-]*)", re.A)
_TAG_ATTR_RE = re.compile(r"""\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")
_BRACKET_TOKEN_RE = re.compile(r"""[{}\[\]]|"[^"\\]*(?:\\[\s\S][^"\\]*)*"?|'[^'\\]*(?:\\[\s\S][^'\\]*)*'?""")
_JSON_END = json.JSONDecoder().raw_decode  # (value, end) of the JSON value at an index
# What ``\s`` of a str pattern matches (Unicode whitespace), in UTF-8: byte patterns that read a
# page's folded bytes as the str patterns read its text.
_SPACE = rb"(?:[\t\n\v\f\r\x1c-\x1f ]|\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80)"
_CLOSE_TAIL = re.compile(_SPACE + rb"*>")  # what closes a `</script` (``_SCRIPT_CLOSE_RE``)
_JSON_TYPES = (b"application/json", b"text/json")  # a JSON script's types, each ending "/json"
# A case-blind str pattern reads İ and ı (C4 B0, C4 B1) as i, and ſ (C5 BF) as s: a `<script` or
# `</script` written with one holds one of these (plain searches, far faster than one regex; a
# search for one byte, the fastest, rules most pages out).
_CASE_TWINS = ((b"\xc5", b"\xc5\xbfcr"), (b"\xc4", b"cr\xc4"))
_ENTITY_RE = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z0-9]+;?)")
# Entities ``_ENTITY_RE`` reads whole wherever they stand (none is the start of another), with what
# they decode to; "&amp;" last, so that no "&" it gives is read again.
_PLAIN_ENTITIES = tuple((name, html.unescape(name)) for name in ("&quot;", "&#39;", "&#039;", "&lt;", "&gt;", "&amp;"))

MAX_JSON_ATTRIBUTES = 50
MAX_ATTRIBUTE_CHARS = 5 * 1024 * 1024
MAX_PRODUCT_JSON_BLOCKS = 50

_META_COPY_RE = re.compile(r"ShopifyAnalytics\.meta\[\s*attr\s*\]\s*=\s*meta\[\s*attr\s*\]")
_META_VAR_RE = re.compile(r"\bvar\s+meta\s*=\s*", re.A)
_META_ASSIGN_RE = re.compile(r"ShopifyAnalytics\.meta\s*=\s*(?=\{)")
_META_CURRENCY_RE = re.compile(r"""ShopifyAnalytics\.meta\.currency\s*=\s*(["'])([A-Za-z]{3})\1""")
_ATTR_PATTERNS = {}
# `data-page` as a whole attribute name (not `data-page-type`), in the page's folded bytes.
_INERTIA_NAME = re.compile(rb"data-page(?![\w.:-])")
# What an attribute worth reading must look like (a value of at least {min} characters opening
# with "{"): one search rules out most pages before the scan of every tag. Anchored at the "=",
# not at a "data-" name: a page has far fewer "=" followed by a quote and a "{" to look past.
_JSON_ATTRIBUTE_GATE = r"""=\s*(?:"(?=\s*\{{)(?=[^"]{{{min}}})|'(?=\s*\{{)(?=[^']{{{min}}}))"""
_FOLDED_GATES = {}  # min_bytes -> ``_folded_gate``
_ANY_SPACE = r"[\t-\r\x1c-\x20\x80-\xff]"  # ASCII whitespace of a str pattern, or any byte of a non-ASCII character


def iter_scripts(html_text):
    """(attributes, body) of each `<script ...>body</script>`, in document order.

    A body ends at the first `</script` (as in every HTML parser). Two plain
    searches per script instead of one lazy regex, which crawls on 10 MB bodies.
    """
    position = 0
    while True:
        opening = _SCRIPT_OPEN_RE.search(html_text, position)
        if not opening:
            return
        closing = _SCRIPT_CLOSE_RE.search(html_text, opening.end())
        if not closing:
            return
        yield opening.group(1), html_text[opening.end():closing.start()]
        position = closing.end()


class ScannedPage:
    """A page as the carrier readers take it: comments dropped, then its scripts and its
    ASCII-folded UTF-8 made once for all of them (each is a pass over the whole page).

    The page is read as UTF-8 bytes, lower-cased for the readers' case-blind tests (``has``):
    comments are found there (lower() moves no byte) and dropped from both, and its scripts are
    found there too; the text without comments (``doc``) is decoded only for a reader that needs
    it. ``folded`` and ``utf8`` may be given: the UTF-8 of ``html_text`` itself and its lower-cased
    copy, made once for the page's other readers. ``html_text`` None: the text of ``utf8``."""

    def __init__(self, html_text, folded=None, utf8=None):
        if utf8 is None:
            utf8 = html_text.encode("utf-8", "surrogatepass")
        if folded is None:
            folded = utf8.lower()
        spans, unclosed = _comment_spans(folded)
        if spans:  # the UTF-8 without them is made for the first reader of its text (``utf8``)
            folded, html_text = _without(folded, spans), None
        self.folded, self._text, self._utf8, self._spans = folded, html_text, utf8, spans
        # Whether the doc still has a `<!--`: an unclosed one, or one the dropping joined (``again``).
        self.comments_left = unclosed or any(folded.find(b"<!--", max(0, joint - 3), joint + 3) >= 0
                                             for joint in _joints(spans))

    @cached_property
    def utf8(self):
        return _without(self._utf8, self._spans) if self._spans else self._utf8

    @cached_property
    def doc(self):
        return self._text if self._text is not None else self.utf8.decode("utf-8", "surrogatepass")

    def again(self):
        """This page with the comments dropping its comments joined (``<!<!-- -->-- -->``) dropped too."""
        return ScannedPage(self.__dict__.get("doc", self._text), self.folded, self.utf8)

    @cached_property
    def _twinned(self):
        """Whether a letter of the page reads as one of "script" to a case-blind str pattern
        (``_CASE_TWINS``): its scripts are then found by that pattern."""
        folded = self.folded
        return not folded.isascii() and any(lead in folded and twin in folded for lead, twin in _CASE_TWINS)

    @cached_property
    def _script_spans(self):
        """((attributes start, end), (body start, end)) of each script, in byte offsets; None when
        the page is ``_twinned``."""
        return None if self._twinned else _script_spans(self.folded)

    @cached_property
    def scripts(self):
        spans = self._script_spans
        if spans is None:
            return list(iter_scripts(self.doc))
        return [(self.text_at(attrs), self.text_at(body)) for attrs, body in spans]

    @cached_property
    def json_typed_scripts(self):
        """The ``scripts`` whose attributes can give a JSON type, in order: they say
        "application/json" or "text/json" in some ASCII case (no other letter lower-cases to one of
        theirs), which JSON-LD blocks do not (none on a page without "/json" anywhere)."""
        if self._twinned:
            return self.scripts
        folded = self.folded
        if not _json_type_in_tag(folded):  # in no script's attributes either: their scan is not needed
            return []
        return [(self.text_at(attrs), self.text_at(body)) for attrs, body in self._script_spans
                if folded.find(b"/json", *attrs) >= 0
                and (folded.find(b"application/json", *attrs) >= 0 or folded.find(b"text/json", *attrs) >= 0)]

    def text_at(self, span):
        """The text of a span of byte offsets."""
        return self.utf8[span[0]:span[1]].decode("utf-8", "surrogatepass")

    def has(self, word):
        """Whether ASCII ``word`` is in the page in any ASCII case, as an ``re.I | re.A`` regex
        finds it (plain re.I also matches i, k, s to Unicode twins); bytes.lower() is 4x faster
        than str's."""
        return word.lower().encode() in self.folded


def _json_type_in_tag(folded):
    """Whether "application/json" or "text/json" stands where a script's attributes can hold it:
    after a `<script` with no ">" between. Most pages that say "/json" say it in code or a link
    only; found from each "/json" (one search for both), with no scan of every script."""
    index = folded.find(b"/json")
    while index >= 0:
        for json_type in _JSON_TYPES:
            start = index + 5 - len(json_type)
            if start >= 0 and folded.startswith(json_type, start) and folded.find(
                    b"<script", folded.rfind(b">", 0, start) + 1, start) >= 0:
                return True
        index = folded.find(b"/json", index + 5)
    return False


def _comment_spans(folded):
    """(start, end) of each comment, and whether a `<!--` is left unclosed. A script inside a comment
    is not one the page runs. A comment ends at the first ``-->`` after its ``<!--`` (as a lazy
    regex ``<!--.*?-->`` with DOTALL), found with plain searches."""
    spans, start = [], _comment_start(folded, 0)
    while start >= 0:
        end = folded.find(b"-->", start + 4)
        if end < 0:
            return spans, True
        spans.append((start, end + 3))
        start = _comment_start(folded, end + 3)
    return spans, False


def _comment_start(folded, position):
    """``folded.find(b"<!--", position)``, found from each "!": a search for one byte (memchr) is
    several times faster than one for four, and a page has some 130 "!" in all (dev pages: a
    third of the time)."""
    bang = folded.find(b"!", position + 1)
    while bang >= 0:
        if folded.startswith(b"<!--", bang - 1):
            return bang - 1
        bang = folded.find(b"!", bang + 1)
    return -1


def _joints(spans):
    """Where the text on either side of each dropped span meets, in the text without them."""
    dropped = 0
    for start, end in spans:
        yield start - dropped
        dropped += end - start


def _without(data, spans):
    parts, kept = [], 0
    for start, end in spans:
        parts.append(data[kept:start])
        kept = end
    parts.append(data[kept:])
    return b"".join(parts)


def _script_spans(folded):
    """``iter_scripts`` in byte offsets, found in the folded bytes with plain searches: a `<script`
    that ends a word (``\\b`` of a str pattern: a letter of any script goes on with it), the attributes
    up to the first ">", the body up to the first `</script` closed by ">" after str whitespace."""
    spans, position = [], 0
    while True:
        start = folded.find(b"<script", position)
        while start >= 0 and not _word_ends(folded, start + 7):
            start = folded.find(b"<script", start + 1)
        if start < 0:
            return spans
        attrs_end = folded.find(b">", start + 7)
        if attrs_end < 0:
            return spans
        close = folded.find(b"</script", attrs_end + 1)
        while close >= 0 and not (tail := _CLOSE_TAIL.match(folded, close + 8)):
            close = folded.find(b"</script", close + 1)
        if close < 0:
            return spans
        spans.append(((start + 7, attrs_end), (attrs_end + 1, close)))
        position = tail.end()


def _word_ends(folded, index):
    """Whether a word ends before byte ``index`` (a char boundary) as ``\\b`` of a str pattern sees it
    (lower-casing moves no byte of a non-ASCII character: the folded bytes hold it as it is)."""
    if index >= len(folded):
        return True
    byte = folded[index]
    if byte < 0x80:
        return not (byte == 0x5F or chr(byte).isalnum())
    char = folded[index:index + (2 if byte < 0xE0 else 3 if byte < 0xF0 else 4)].decode("utf-8", "surrogatepass")
    return not char.isalnum()


def read_attribute(attrs, name, bare=None):
    """Attribute `name` (ci) of a raw attribute string; `bare` for a valueless one."""
    pattern = _ATTR_PATTERNS.get(name)
    if pattern is None:
        pattern = _ATTR_PATTERNS[name] = re.compile(
            r"""(?:^|\s)%s(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))|(?=[\s/]|$))""" % re.escape(name),
            re.I,
        )
    match = pattern.search(attrs)
    if not match:
        return None
    value = next((group for group in match.groups() if group is not None), None)
    return bare if value is None else value


def decode_attribute(raw):
    """HTML attribute-value entity decoding (legacy names without `;` included)."""
    if "&" not in raw:
        return raw
    if raw.count("&") == sum(raw.count(name) for name, _ in _PLAIN_ENTITIES):
        for name, char in _PLAIN_ENTITIES:  # each "&" opens one of them: a replace each, no call per entity
            raw = raw.replace(name, char)
        return raw
    return _ENTITY_RE.sub(lambda match: _decode_entity(match, raw), raw)


def _decode_entity(match, raw):
    text = match.group()
    if text.startswith("&#") or text.endswith(";"):
        return html.unescape(text)
    following = raw[match.end():match.end() + 1]
    if text[1:] in html.entities.html5 and following != "=":
        return html.unescape(text)
    return text


def _parse_json(text):
    try:
        return loads(text)
    except ValueError:
        return None


def read_bracketed_literal(text, start):
    """The balanced `{...}`/`[...]` at `start`, or None if it never closes.

    Quoted strings (either quote, backslash escapes) are skipped so a brace in
    a string does not end the literal; only the opening bracket kind is counted.
    A literal that is JSON ends where the C decoder finds its end (a single quote
    is then only ever inside a string): the same place, ten times sooner than
    the walk of its tokens, which is for JavaScript literals.
    """
    if text[start:start + 1] not in ("{", "["):
        return None
    try:
        return text[start:_JSON_END(text, start)[1]]
    except (ValueError, RecursionError):
        pass
    return read_js_bracketed_literal(text, start)


def read_js_bracketed_literal(text, start):
    """``read_bracketed_literal`` by the walk of its tokens alone: for a literal at `start` whose
    reading as JSON failed already (a syntax error there is one for the C decoder too)."""
    opener = text[start:start + 1]
    if opener not in ("{", "["):
        return None
    closer = "}" if opener == "{" else "]"
    depth = 0
    for token in _BRACKET_TOKEN_RE.finditer(text, start):
        char = token.group()
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return text[start:token.end()]
    return None


def is_inertia_page_script(attrs):
    """`<script data-page="app" type="application/json">`, Inertia's script carrier."""
    if not isinstance(attrs, str):
        return False
    script_type = (read_attribute(attrs, "type", "") or "").lower()
    return script_type == "application/json" and read_attribute(attrs, "data-page", "") is not None


def read_inertia_page(html_text):
    """Inertia's page object, from its script carrier or a `data-page="{...}"` attribute.

    Returns None without a carrier; value None plus a warning when the carrier
    is not a JSON object.
    """
    if not isinstance(html_text, str):
        return None
    return inertia_page(ScannedPage(html_text))


def inertia_page(page):
    """``read_inertia_page`` of a scanned page."""
    if not page.has("data-page") or not _INERTIA_NAME.search(page.folded):  # both carriers are named so
        return None
    for attrs, body in page.json_typed_scripts:
        if is_inertia_page_script(attrs):
            parsed = _parse_json(body)
            if isinstance(parsed, dict):
                return {"value": parsed, "warnings": []}
            return {"value": None, "warnings": [
                'An Inertia <script data-page type="application/json"> block is present '
                "but is not a JSON object; not parsed."
            ]}
    for match in _data_attributes(page.folded, _DATA_ATTR_RE, b"data-"):
        if match.group(1) != b"data-page":
            continue
        decoded = decode_attribute(page.text_at(match.span(2) if match.group(2) is not None else match.span(3)))
        if not decoded.lstrip().startswith("{"):
            continue
        parsed = _parse_json(decoded)
        if isinstance(parsed, dict):
            return {"value": parsed, "warnings": []}
        return {"value": None, "warnings": [
            "An Inertia data-page attribute is present but its value is not a JSON object; not parsed."
        ]}
    return None


def is_shopify_product_json_script(attrs):
    """A theme's product JSON: `data-product-json` or an id starting `ProductJson-`."""
    if not isinstance(attrs, str):
        return False
    if (read_attribute(attrs, "type", "") or "").lower() != "application/json":
        return False
    if read_attribute(attrs, "data-product-json", "") is not None:
        return True
    return (read_attribute(attrs, "id", "") or "").startswith("ProductJson-")


def _read_shopify_meta(doc):
    """ShopifyAnalytics.meta (the `var meta` copied into it, then a direct assignment)."""
    literals = []
    copy = _META_COPY_RE.search(doc)
    if copy:
        last = None
        for match in _META_VAR_RE.finditer(doc, 0, copy.start()):
            last = match.end()
        if last is not None:
            literals.append(read_bracketed_literal(doc, last))
    assign = _META_ASSIGN_RE.search(doc)
    if assign:
        literals.append(read_bracketed_literal(doc, assign.end()))
    meta, unreadable = {}, False
    for literal in literals:
        parsed = None if literal is None else _parse_json(literal)
        if isinstance(parsed, dict):
            meta.update(parsed)
        else:
            unreadable = True
    currency = _META_CURRENCY_RE.search(doc)
    if meta and currency and "currency" not in meta:
        meta["currency"] = currency.group(2)
    warning = "ShopifyAnalytics.meta is assigned a value that is not a JSON literal; not parsed."
    return meta, (warning if unreadable else None)


def read_shopify(html_text):
    """Shopify's page JSON: `{meta?, product_json?}` and warnings, or None.

    meta prices are integers in minor units (10500 = 105.00 in meta.currency).
    """
    if not isinstance(html_text, str):
        return None
    return shopify(ScannedPage(html_text))


def shopify(page):
    """``read_shopify`` of a scanned page."""
    has_meta = page.has("ShopifyAnalytics.meta") and "ShopifyAnalytics.meta" in page.doc
    if not has_meta and not page.json_typed_scripts:
        return None  # neither the meta assignment nor a product JSON block can be here
    value, warnings = {}, []
    meta, warning = _read_shopify_meta(page.doc) if has_meta else ({}, None)
    if meta:
        value["meta"] = meta
    if warning:
        warnings.append(warning)
    product_json, blocks = [], 0
    for attrs, body in page.json_typed_scripts:
        if not is_shopify_product_json_script(attrs):
            continue
        blocks += 1
        if len(product_json) >= MAX_PRODUCT_JSON_BLOCKS:
            continue
        parsed = _parse_json(body)
        if isinstance(parsed, (dict, list)):
            product_json.append(parsed)
        else:
            warnings.append("A Shopify product JSON <script> block is not valid JSON; skipped.")
    if blocks > MAX_PRODUCT_JSON_BLOCKS:
        warnings.append(
            f"{blocks} Shopify product JSON blocks found; only the first {MAX_PRODUCT_JSON_BLOCKS} were read."
        )
    if product_json:
        value["product_json"] = product_json
    if not meta and blocks == 0 and not warnings:
        return None
    return {"value": value, "warnings": warnings}


def _tag_id(doc, tag_start, name_length):
    """The id attribute of the start tag at `tag_start` (entity-decoded)."""
    index = tag_start + 1 + name_length
    size = len(doc)
    while index < size and doc[index] != ">":
        match = _TAG_ATTR_RE.match(doc, index)
        if not match or match.end() == index:
            index += 1
            continue
        if match.group(1).lower() == "id":
            if match.group(2) is not None:
                return decode_attribute(match.group(2))
            if match.group(3) is not None:
                return decode_attribute(match.group(3))
            return match.group(4) or ""
        index = match.end()
    return None


def read_json_attributes(html_text, min_bytes=2048):
    """data-* attributes holding a JSON object of at least `min_bytes` (max 50).

    Each entry is {tag, attribute, id, data}; `data-page` belongs to Inertia.
    """
    if not isinstance(html_text, str):
        return []
    return json_attributes(ScannedPage(html_text), min_bytes)


def json_attributes(page, min_bytes=2048):
    """``read_json_attributes`` of a scanned page: each attribute in the tag whose name comes last
    before it, as one scan of the text for tag names and data-* attributes reads them (a tag name
    inside an attribute's value is none)."""
    out = []
    if not _folded_gate(min_bytes).search(page.folded):
        return out
    doc = page.doc
    if not re.search(_JSON_ATTRIBUTE_GATE.format(min=min_bytes), doc):
        return out
    starts, ends = [], []  # the attributes read so far
    for match in _data_attributes(doc, _LOWER_DATA_ATTR_RE, "data-"):
        if len(out) >= MAX_JSON_ATTRIBUTES:
            break
        starts.append(match.start())
        ends.append(match.end())
        entry = _json_attribute(match, min_bytes)
        if entry is not None:
            tag = _tag_before(doc, match.start(), starts, ends)
            entry["tag"] = None if tag is None else tag.group(1).lower()
            entry["id"] = None if tag is None else _tag_id(doc, tag.start(), len(tag.group(1)))
            out.append({key: entry[key] for key in ("tag", "attribute", "id", "data")})
    return out


def _data_attributes(text, pattern, marker):
    """``pattern.finditer(text)`` for a pattern of one whitespace then ``marker`` (a data-* attribute),
    found from plain searches for ``marker``: a regex scan tries every whitespace of the page, ten
    times slower. An occurrence inside the value of the one before is none, as in that scan."""
    end, position = 0, text.find(marker, 1)
    while position >= 0:
        match = pattern.match(text, position - 1) if position > end else None
        if match:
            yield match
            end = match.end()
            position = text.find(marker, end + 1)
        else:
            position = text.find(marker, position + 1)


def _tag_before(doc, start, starts, ends):
    """The last tag name (``_TAG_NAME_RE``) before ``start`` that is not in the value of an attribute
    read (``starts``, ``ends``), or None."""
    index = doc.rfind("<", 0, start)
    while index >= 0:
        inside = bisect.bisect_right(starts, index) - 1
        if inside >= 0 and index < ends[inside]:
            index = doc.rfind("<", 0, starts[inside])
            continue
        match = _TAG_NAME_RE.match(doc, index)
        if match:
            return match
        index = doc.rfind("<", 0, index)
    return None


def _folded_gate(min_bytes):
    """``_JSON_ATTRIBUTE_GATE`` for the folded bytes: it finds at least what that one finds in the
    text (its whitespace is str whitespace; a character is one byte or more), with no decoding."""
    gate = _FOLDED_GATES.get(min_bytes)
    if gate is None:
        gate = _FOLDED_GATES[min_bytes] = re.compile(_JSON_ATTRIBUTE_GATE.replace(r"\s", _ANY_SPACE).format(
            min=min_bytes).encode("latin-1"))
    return gate


def _json_attribute(match, min_bytes):
    attribute = match.group(1).lower()
    raw = match.group(2) if match.group(2) is not None else match.group(3)
    if attribute == "data-page" or not min_bytes <= len(raw) <= MAX_ATTRIBUTE_CHARS:
        return None
    if not (raw.lstrip().startswith("{") and raw.rstrip().endswith("}")):
        return None
    decoded = decode_attribute(raw)
    if len(decoded) < min_bytes and len(decoded.encode("utf-8", "surrogatepass")) < min_bytes:
        return None
    data = _parse_json(decoded)
    return {"attribute": attribute, "data": data} if isinstance(data, dict) else None
