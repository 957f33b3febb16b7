"""The page object every stage is given (``ParsedPage``), and the DOM helpers that take a tree.

A crawled page is made a ``ParsedPage`` once and handed from stage to stage as an argument: the
verdict, structured data, embedded state, links, markdown and structure signature read its one
tree, and what a stage makes of it that another reads is kept on the page (``shared``), never in
a module. Each stage's str function (``extract_structured_data(html, url)``...) makes a page of
its own and calls the stage's page form, as extruct's ``extract`` parses and calls
``extract_items(tree)``. Helpers take HTML (``str``, or UTF-8 ``bytes``) or a
``LexborHTMLParser`` the caller already holds.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import cached_property
from itertools import accumulate, islice

from selectolax.lexbor import LexborHTMLParser, LexborNode, SelectolaxError

from crawlforge.extract import segments

Document = str | bytes | LexborHTMLParser

MAX_NESTING = 800  # element depth kept; html-to-markdown stops at 1024
# A tree costs 5 to 25 times its page: past this many characters a page is never held as one
# tree (``ParsedPage``, ``segments``), and past as many bytes its markdown is not scored
# (``markdown.DEFAULT_MAX_BYTES``, ``CRAWLFORGE_MARKDOWN_MAX_BYTES``).
KEEP_MAX_CHARS = 5 * 1024 * 1024  # 5 MiB
_TAG_FULL = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# One depth step per tag: "/" for an end tag (void ones too), "" for a start tag that is not void.
_DEPTH_STEP = re.compile(r"<(/)?(?(1)[a-zA-Z]|(?!(?ai:%s)(?![a-zA-Z0-9]))[a-zA-Z])" % "|".join(sorted(_VOID)))
_STEP = {"": 1, "/": -1, b"": 1, b"/": -1}
# The same with void tags counted as opening: half the cost, and never under the real estimate.
_DEPTH_BOUND = re.compile(r"<(/?)[a-zA-Z]")
_DEPTH_BOUND_UTF8 = re.compile(rb"<(/?)[a-zA-Z]")
MAX_ATTRIBUTES = 256  # attributes kept on one tag; real pages stay under fifty
# One attribute as the HTML tokenizer reads it: separators (whitespace or "/"; none after a
# quoted value), a name (which may start with "="), an optional value. Atomic and possessive:
# read one way only, so a search never backtracks into it.
_ATTRIBUTE = r"""(?>(?:[\s/]++|(?<=["']))[^\s/>][^\s/>=]*+(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>]*+))?)"""
# A tag with more attributes than that, tried from every tag opening (in text, a comment or a
# script alike), so the real one is found wherever it is. A name holding "<" and a letter is
# tried from that "<" too: the name stops there, and no run of "<a<a<a" is read twice.
# Reading attributes is the cost, so they are read only after a tag opening that may start such
# a tag (``_MAY_CROWD``): its text up to the next ">" holds two characters an attribute (its
# name's first and the separator or closing quote before it), or that ">" is inside a quoted
# value, which needs the last quote before it to open a value ("=", maybe spaces, then the
# quote; a single space after a word is a value's own end).
_MAY_CROWD = (r"(?=/?[a-zA-Z](?:[^>]{%d}|(?>[^>]*\")(?<=[=\s]\")(?<!\w\s\")|(?>[^>]*')(?<=[=\s]')(?<!\w\s')))"
              % (2 * (MAX_ATTRIBUTES + 1)))
_CROWDED_TAG = re.compile(r"<%s/?[a-zA-Z][^\s/><]*+(?:<(?![a-zA-Z/])[^\s/><]*+)*+%s{%d}"
                          % (_MAY_CROWD, _ATTRIBUTE, MAX_ATTRIBUTES + 1))
# The tokens of the exact pass: comments, bogus comments, then tags with their attributes.
_TOKEN = re.compile(r"<!--(?:-?>|.*?(?:--!?>|\Z))|<[!?][^>]*+>?|<(?P<end>/?)(?P<name>[a-zA-Z][^\s/>]*+)"
                    r"(?P<attrs>%s*+)" % _ATTRIBUTE, re.S)
_ONE_ATTRIBUTE = re.compile(_ATTRIBUTE)
_RAW_TEXT = frozenset("script style textarea title xmp iframe noembed noframes noscript".split())
_RAW_END = {name: re.compile(r"</%s(?=[\s/>])" % name, re.I) for name in _RAW_TEXT}
# The run of tokens the exact pass leaves as they are, read in one call: text, comments, and tags
# within the bound that do not start raw text. It stops at a tag the pass itself reads.
_PLAIN_RUN = re.compile(
    r"(?:[^<]++|<(?!(?i:%s)(?![^\s/>]))[a-zA-Z]{name}|</[a-zA-Z]{name}|<!--(?:-?>|.*?(?:--!?>|\Z))"
    r"|<[!?][^>]*+>?|<(?![!?a-zA-Z]|/[a-zA-Z]))*+".replace("{name}", r"[^\s/>]*+%s{0,%d}+(?!%s)")
    % ("|".join(sorted(_RAW_TEXT | {"plaintext"})), _ATTRIBUTE, MAX_ATTRIBUTES, _ATTRIBUTE,
       _ATTRIBUTE, MAX_ATTRIBUTES, _ATTRIBUTE), re.S)


def as_document(doc: Document) -> LexborHTMLParser:
    """The parser itself, or an HTML5 parse of the markup as cheerio's parse5 makes it.

    Scripting is on, as in cheerio (and a browser that runs scripts): ``<noscript>`` content is
    one text node, so a tracking ``<img>`` in a ``<noscript>`` in ``<head>`` does not end the head.
    """
    if isinstance(doc, LexborHTMLParser):
        return doc
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8", errors="replace")
    if not isinstance(doc, str):
        raise TypeError(f"expected HTML or a LexborHTMLParser, not {type(doc).__name__}")
    return LexborHTMLParser(doc, scripting=True)


def node_text(node: LexborNode | None) -> str:
    """cheerio ``.text()``: every descendant text node, script and style included ("" for no node,
    as cheerio's empty selection)."""
    return node.text(deep=True, separator="", strip=False) if node is not None else ""


def tag_ids(tags) -> frozenset:
    """lexbor's ids of ``tags`` (the same in every document; an unknown tag's is its own): a walk
    compares ``node.tag_id`` ints, no tag name decoded."""
    parser = LexborHTMLParser("")
    return frozenset(parser.create_node(tag).tag_id for tag in tags)


def cap_nesting(html: str, cap: int = MAX_NESTING, utf8: bytes | None = None) -> str:
    """Drops start tags (and as many end tags) nested deeper than `cap`, keeping all text.

    Lexbor's parse time grows with the square of nesting depth (50k nested divs: seconds) and
    so would any walk up the tree; real pages stay under a few hundred. Depth is estimated from
    the tag stream alone (unclosed `<p>`/`<li>` count as open), which overestimates: harmless.
    ``utf8``: the text as UTF-8, where the estimate is read faster (its tags are the same bytes).
    """
    if _shallow(html if utf8 is None else utf8, 2 * cap) or _deepest(_DEPTH_STEP, html) <= 2 * cap:
        return html
    parts, last, depth, dropped = [], 0, 0, 0
    for match in _TAG_FULL.finditer(html):
        closing, name = match.group(1), match.group(2).lower()
        if name in _VOID:
            continue
        if closing and dropped:
            dropped -= 1
        elif closing:
            depth -= 1
            continue
        elif depth < cap:
            depth += 1
            continue
        else:
            dropped += 1
        parts.append(html[last:match.start()])
        last = match.end()
    parts.append(html[last:])
    return "".join(parts)


def _shallow(text: str | bytes, bound: int) -> bool:
    """Whether no tag is nested deeper than ``bound``, void tags counted as opening (half the cost
    of the real estimate, and never under it). Most pages open fewer tags than that in all, which
    counts show first on nine pages in ten: every "<" but those of "</" opens at most one tag (two
    counts cost less than half the tag scan, whose every match allocates)."""
    lt, end = ("<", "</") if isinstance(text, str) else (b"<", b"</")
    opened = text.count(lt)
    if opened <= bound or opened - text.count(end) <= bound:
        return True
    steps = (_DEPTH_BOUND if isinstance(text, str) else _DEPTH_BOUND_UTF8).findall(text)
    closing = "/" if isinstance(text, str) else b"/"
    if len(steps) - steps.count(closing) <= bound or _depth_bound(steps, closing) <= bound:
        return True
    return max(accumulate(map(_STEP.__getitem__, steps)), default=0) <= bound


def _depth_bound(steps: list, closing) -> int:
    """A bound of the deepest step, never under it, from runs of ``DEPTH_RUN`` steps: each run
    reaches at most the depth before it plus its openings. Counting a run's closings is one C
    call; walking every step in Python to the exact depth costs ten times as much."""
    depth = deepest = 0
    for start in range(0, len(steps), DEPTH_RUN):
        run = steps[start:start + DEPTH_RUN]
        closings = run.count(closing)
        deepest = max(deepest, depth + len(run) - closings)
        depth += len(run) - 2 * closings
    return deepest


DEPTH_RUN = 256


def _deepest(steps: re.Pattern, html: str) -> int:
    return max(accumulate(map(_STEP.__getitem__, steps.findall(html))), default=0)


def cap_attributes(html: str) -> str:
    """Drops the attributes of a tag past its first ``MAX_ATTRIBUTES``.

    Lexbor's parse time grows with the square of one element's distinct attributes (60,000 on
    one div: seconds on the reactor thread). One search finds whether any tag may have that
    many; only then are the tags read as the tokenizer reads them (comments, raw text skipped).
    """
    if _CROWDED_TAG.search(html) is None:
        return html
    parts, last, pos = [], 0, 0
    while (pos := _PLAIN_RUN.match(html, pos).end()) < len(html):
        match = _TOKEN.match(html, pos)  # a tag: past the bound, or raw text's start
        pos, name, attrs = match.end(), match.group("name").lower(), match.group("attrs")
        if len(attrs) > MAX_ATTRIBUTES:
            kept = list(islice(_ONE_ATTRIBUTE.finditer(attrs), MAX_ATTRIBUTES + 1))
            if len(kept) > MAX_ATTRIBUTES:
                parts.append(html[last:match.start("attrs") + kept[-2].end()])
                last = match.end("attrs")
        if match.group("end") or name not in _RAW_TEXT and name != "plaintext":
            continue
        if name == "plaintext":  # the rest of the page is its text
            break
        end = _RAW_END[name].search(html, pos)
        pos = end.start() if end else len(html)
    if not parts:  # the search's tag was in a script or a comment
        return html
    parts.append(html[last:])
    return "".join(parts)


def parse_page(html: str, utf8: bytes | None = None) -> LexborHTMLParser:
    """The lexbor parse of ``html`` with its nesting capped (``cap_nesting``) and each tag's
    attributes (``cap_attributes``). ``utf8``: the text as UTF-8 already, which lexbor then reads
    as it is instead of encoding the text again."""
    capped = cap_attributes(cap_nesting(html, utf8=utf8))
    if utf8 is not None and capped is html:
        return LexborHTMLParser(utf8)
    html = capped
    try:
        return LexborHTMLParser(html)
    except UnicodeEncodeError:  # lone surrogates from a bad decode
        return LexborHTMLParser(html.encode("utf-8", errors="replace").decode("utf-8"))


class ParsedPage:
    """One page, made once per response and passed to every stage: its HTML, its one parse
    (``tree``, made when a stage first reads it) and what its stages made of it (``shared``).

    ``tree`` is read, never changed. A stage that prunes or rewrites nodes says so and works on
    ``copy()`` (half the cost of a parse), or, when it is the tree's last reader, on ``take()``:
    the tree itself, no longer the page's (a later reader parses the page again). In a crawl the
    markdown is that last reader (the order is written in ``crawlforge.parsed``).
    A page over ``KEEP_MAX_CHARS`` is never held as one tree: its ``tree`` is its outline (the
    head, the top of the body and every script: ``segments.outline``), which is all the verdict,
    structured data and structure signature read, and what reads the whole page reads
    ``whole()``, its pieces parsed one at a time.
    ``utf8``: the page as UTF-8 byte for byte when the caller holds it (the body it was decoded
    from: ``charset.utf8_body``), which the parse then reads instead of encoding the text again.
    ``runs`` counts the values each maker made on this page: a stage made twice shows there.
    """

    def __init__(self, html: str, utf8: bytes | None = None):
        self.html = html
        self._shared = {utf8_html: utf8} if utf8 is not None and len(html) <= KEEP_MAX_CHARS else {}
        self.runs: Counter = Counter()

    @cached_property
    def huge(self) -> bool:
        return len(self.html) > KEEP_MAX_CHARS

    @cached_property
    def pieces(self) -> list[segments.Piece]:
        return segments.pieces(self.html)

    @cached_property
    def outline(self) -> str:
        """The page, or a huge page's outline: what is read of it without its whole text."""
        return segments.outline(self.html, self.pieces) if self.huge else self.html

    @cached_property
    def tree(self) -> LexborHTMLParser:
        return parse_page(self.outline, self.shared(utf8_html))

    @property
    def has_tree(self) -> bool:
        """Whether the page holds its tree now (a reader made it, none took it)."""
        return "tree" in self.__dict__

    def release(self) -> None:
        """Frees the tree and the ``shared`` values now (a later reader makes them again): the holder
        of this page may live on until the garbage collector runs, and trees freed late leave the
        heap fragmented."""
        self.__dict__.pop("tree", None)
        self._shared.clear()

    def copy(self) -> LexborHTMLParser:
        """A tree of the whole page for the caller to change (a huge page's whole tree too)."""
        if self.huge:
            return parse_page(self.html)
        if not self.has_tree:  # nothing to clone
            return parse_page(self.html, self.shared(utf8_html))
        try:
            return self.tree.clone()
        except SelectolaxError:  # selectolax cannot clone some doctypes (`<!DOCTYPE html SYSTEM "x">`)
            return parse_page(self.html, self.shared(utf8_html))

    def take(self) -> LexborHTMLParser:
        """``copy()`` for the last reader of the tree, which changes it: the tree itself when one was
        made (no copy), no longer the page's, so that a later reader parses the page again."""
        tree = None if self.huge else self.__dict__.pop("tree", None)
        return self.copy() if tree is None else tree

    def whole(self, changed: bool = False, take: bool = False) -> Iterator[LexborHTMLParser]:
        """Trees that together hold the whole page, in order: the tree (a copy when the caller
        changes it, the tree itself when it ``take``s it), or a huge page's pieces, each parsed when
        it is reached and the caller's."""
        if not self.huge:
            yield self.take() if take else self.copy() if changed else self.tree
            return
        for piece in self.pieces:
            yield parse_page(segments.piece_html(self.html, piece))

    def shared(self, make, *args):
        """``make(page, *args)``, made once for every reader of this page, which reads and never
        changes it: a stage's result that a later stage reads again (the structured data the
        product record reads, the signature made before the markdown takes the tree)."""
        key = (make, *args) if args else make
        try:
            return self._shared[key]
        except KeyError:
            value = self._shared[key] = self._make(make, args)
            return value

    def made(self, make, *args):
        """The ``shared`` value of ``make`` when a reader made it already, else None (made by none)."""
        return self._shared.get((make, *args) if args else make)

    def handed(self, make, *args):
        """``make(page, *args)`` (never None) for a caller that keeps it as its own: the ``shared``
        one when a reader made it already (then forgotten here: a later reader makes another),
        else a new one."""
        value = self._shared.pop((make, *args) if args else make, None)
        return self._make(make, args) if value is None else value

    def _make(self, make, args: tuple):
        self.runs[make.__name__] += 1
        return make(self, *args)


def as_page(html) -> ParsedPage:
    """What a str function is given, as a page: the ``ParsedPage`` itself, else a page of its own
    of the HTML (UTF-8 bytes decoded, bad bytes replaced; anything else is an empty page)."""
    if isinstance(html, ParsedPage):
        return html
    if isinstance(html, (bytes, bytearray)):
        html = bytes(html).decode("utf-8", "replace")
    return ParsedPage(html if isinstance(html, str) else "")


def utf8_html(page: ParsedPage) -> bytes | None:
    """The page as UTF-8 (a huge page's outline: what its tree holds), for ``page.shared``: what
    lexbor parses (the tree keeps it) and what the case-folded text is made from. None for a text
    with lone surrogates (a bad decode)."""
    try:
        return page.outline.encode("utf-8")
    except UnicodeEncodeError:
        return None


def folded_html(page: ParsedPage) -> bytes:
    """The page's UTF-8 with ASCII letters lower-cased, for ``page.shared``: the readers' case-blind
    tests for a word (bytes.lower() is 4x faster than str.lower(), and a re.I search slower still)."""
    utf8 = page.shared(utf8_html)
    return (page.outline.encode("utf-8", "surrogatepass") if utf8 is None else utf8).lower()
