"""The extractor interface: one small class per source of page data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from extruct.utils import parse_html
from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.dom import ParsedPage, folded_html, utf8_html

CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_BODY_TAG = re.compile(r"<body\b[^>]*>")
_CLASS_ATTR = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)


def parse_tree(html: str):
    """The lxml tree extruct expects. Bytes, so an XML declaration is no error; None
    for a blank page. Raises what lxml raises on input it cannot take."""
    if not html.strip():
        return None
    return parse_html(html.encode("utf-8", "surrogatepass"), encoding="utf-8")


@dataclass
class Page:
    """One run of the extractors over a page (``parsed_page``, the ``dom.ParsedPage`` every
    stage is given): what only the extractors read of it, the warnings of the run and what the
    readers ranked higher found so far. It lives as long as the run; the page lives on.

    Parsing is most of the cost of reading a page. Script blocks (JSON-LD) and the visible
    page are read from ``dom``, the page's one lexbor parse, the head tags from ``head_tree``
    (the text up to ``</head>``: a fifth of an lxml parse of it); lxml parses the whole page
    only for the readers that need its tree (extruct's microdata, platform markup), and only on
    a page with their markup. Extractors check a cheap text marker before touching ``tree``.
    """

    parsed_page: ParsedPage
    url: str
    warnings: list = field(default_factory=list)
    # The fields the readers ranked higher found already (the merge so far): a last-resort
    # reader skips work that cannot change the result.
    found: dict = field(default_factory=dict)
    _held: dict = field(default_factory=dict, repr=False)  # text -> whether the page holds it
    html: str = field(init=False, repr=False)  # the page's HTML (``parsed_page.html``)

    def __post_init__(self):
        self.html = self.parsed_page.html

    @property
    def dom(self) -> LexborHTMLParser:
        """The page's lexbor parse (``ParsedPage.tree``), read, never changed."""
        return self.parsed_page.tree

    def script_texts(self, script_type: str) -> list[str]:
        """The text of every ``<script type="script_type">`` (the exact value), in document order."""
        return [node.text(deep=True) for node in self.dom.css(f'script[type="{script_type}"]')  # the exact value:
                if node.attributes.get("type") == script_type]  # a selector may take it in any case

    @property
    def outline(self) -> str:
        """The page's HTML, or a huge page's outline: what its trees hold (``ParsedPage.outline``)."""
        return self.parsed_page.outline

    @cached_property
    def tree(self):
        """The lxml tree of the whole page (of a huge page's outline, as the lexbor tree); None when
        blank or unparseable."""
        return self._parse(self.outline)

    @cached_property
    def head_tree(self) -> LexborHTMLParser | None:
        """The tree the head readers read: ``dom`` when no ``<noscript>`` comes before ``</head>``
        (its head is then a browser's), else a lexbor parse of the text before ``</head>`` (the
        page, or a huge page's outline, when there is none) with scripting on, as in a browser,
        so a tracking ``<img>`` in a ``<noscript>`` does not end the head (the shared parse has
        it off). None when blank. Its UTF-8 is cut from the page's when the shared parse made
        that already."""
        text = self.html[: self.head_end] if self.head_end < len(self.html) else self.outline
        if not text or text.isspace():
            return None
        page = self.parsed_page
        folded = page.shared(folded_html)
        if folded.find(b"<noscript", 0, head_end(folded)) == -1:
            return self.dom
        utf8 = page.made(utf8_html) if not page.huge else None
        utf8 = utf8[: head_end(utf8)] if utf8 is not None else text.encode("utf-8", "surrogatepass")
        return LexborHTMLParser(utf8, scripting=True)

    @cached_property
    def head_end(self) -> int:
        return head_end(self.html)

    def worth_parsing(self, *markers: str) -> bool:
        """Whether an extractor should read the whole tree: it is parsed already (an
        XPath over it is cheaper than a text scan), or the text has a marker."""
        return "tree" in self.__dict__ or any(self.holds(marker) for marker in markers)

    def holds(self, text: str) -> bool:
        """Whether the page's HTML holds ``text``, found once for all the readers that ask (a scan
        of a large page costs ~0.2 ms)."""
        held = self._held.get(text)
        if held is None:
            held = self._held[text] = text in self.html
        return held

    def worth_parsing_for(self, selector: str, *markers: str) -> bool:
        """``worth_parsing``, by an element that ``selector`` matches in the page's lexbor parse:
        one walk of that tree costs less than a scan of the text for a marker that is not there."""
        if "tree" in self.__dict__:
            return self.worth_parsing(*markers)
        return self.dom.css_first(selector) is not None

    def in_head(self, marker: str) -> bool:
        return self.html.find(marker, 0, self.head_end) != -1

    @cached_property
    def body_classes(self) -> set:
        """Classes of the <body> start tag, read from the text (no parse needed)."""
        start = self.html.find("<body", self.head_end if self.head_end < len(self.html) else 0)
        body = _BODY_TAG.match(self.html, start) if start != -1 else None
        attribute = _CLASS_ATTR.search(body.group()) if body else None
        return set(next(filter(None, attribute.groups()), "").split()) if attribute else set()

    def _parse(self, text: str):
        try:
            return parse_tree(text)
        except Exception as exc:  # noqa: BLE001 - lxml raises several types on garbage
            self.warnings.append(f"HTML not parsed: {exc}")
            return None


def head_end(html: str | bytes) -> int:
    """Offset of the first ``</head>`` outside a script (a script can write one into a popup
    document); the whole text when there is none. Of the page's UTF-8 too: the same tag, at
    its offset in the bytes."""
    close, opening, closing = ("</head>", "<script", "</script") if isinstance(html, str) else \
        (b"</head>", b"<script", b"</script")
    end = html.find(close)
    while end != -1 and (opened := html.rfind(opening, 0, end)) != -1 and html.find(closing, opened, end) == -1:
        end = html.find(close, end + 1)
    return len(html) if end == -1 else end


@dataclass
class Finding:
    """What one extractor read: values for each frontmatter section, plus warnings."""

    meta: dict = field(default_factory=dict)
    structured_data: dict = field(default_factory=dict)
    platform_data: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    source: str | None = None  # the provenance label, when more precise than the reader's name

    def is_empty(self) -> bool:
        return not (self.meta or self.structured_data or self.platform_data)


class Extractor:
    """Base class: ``name`` is the provenance label, ``priority`` decides conflicts
    (higher wins; ties keep the registry order). ``extract`` may raise: the
    orchestrator isolates each extractor and records the failure."""

    name = "extractor"
    priority = 0

    def extract(self, page: Page) -> Finding | None:
        raise NotImplementedError
