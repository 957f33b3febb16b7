"""Page HTML to clean markdown: main content only, absolute links, no tracking, no data: images.

One lexbor parse per page: `maincontent` prunes and picks the content nodes on that tree, links
and images are rewritten in place, and only the chosen HTML goes through html-to-markdown.
"""

from functools import lru_cache
from typing import NamedTuple

from html_to_markdown import (CodeBlockStyle, ConversionOptions, HeadingStyle, HiddenContent, HighlightStyle,
                              InlineDataMedia, LinkStyle, ListIndentType, NewlineStyle, OutputFormat,
                              PreprocessingOptions, TierStrategy, UrlEscapeStyle, WhitespaceMode, convert)

from crawlforge.extract.content.chrome import NON_CONTENT_TAGS
from crawlforge.extract.content.nodes import LINK_ID, near_tags
from crawlforge.extract.content.maincontent import main_content as find_main_content
from crawlforge.extract.content.memo import Memo
from crawlforge.extract.content.pagetype import declared_type
from crawlforge.extract.content.product_header import product_header, shown_name, without_name_heading
from crawlforge.extract.content.urls import TRACKING_PARAMS, clean_url, document_base
from crawlforge.extract.dom import KEEP_MAX_CHARS, ParsedPage, as_page, tag_ids, utf8_html
from crawlforge.extract.product import page_product

DEFAULT_MAX_BYTES = KEEP_MAX_CHARS  # larger pages skip main-content scoring
_SCRIPTS = ("sub", "sup")  # sub- and superscripts touch their base (`H<sub>2</sub>O`)
FRAGMENT_CHARS = 1 << 20
SPLIT_DEPTH = 12  # containers cut open, at most, on the way down to pieces that fit
_SPLITTABLE = frozenset("body main article section div form center header footer aside".split())
[_IMG_ID] = tag_ids(("img",))
_LAZY_SRC = ("data-src", "data-lazy-src", "data-original", "data-url", "data-lazy", "src")


@lru_cache(maxsize=4)
def _options(include_images: bool) -> ConversionOptions:
    """The converter's options. Every choice is given as the binding's own enum value, its
    defaults included: a name given as a string is looked up again on each call (~85 us)."""
    return ConversionOptions(
        extract_metadata=False, autolinks=False, skip_images=not include_images,
        inline_data_media=InlineDataMedia.DROP_ELEMENT, preprocessing=PreprocessingOptions(enabled=False),
        include_blockquote_citations=False, expand_abbreviations=False, bullets="-", escape_asterisks=True,
        hidden_content=HiddenContent.DROP, compact_tables=True, escape_misc=False,
        heading_style=HeadingStyle.ATX, list_indent_type=ListIndentType.SPACES,
        highlight_style=HighlightStyle.DOUBLE_EQUAL, whitespace_mode=WhitespaceMode.NORMALIZED,
        newline_style=NewlineStyle.SPACES, code_block_style=CodeBlockStyle.BACKTICKS,
        url_escape_style=UrlEscapeStyle.ANGLE, link_style=LinkStyle.INLINE, output_format=OutputFormat.MARKDOWN,
        tier_strategy=TierStrategy.AUTO,
    )


class PageContent(NamedTuple):
    markdown: str
    page_type: str
    """One of `pagetype.PAGE_TYPES`: what kind of page the markdown was cut from."""


def html_to_markdown(html: str, url: str, **options) -> str:
    """Markdown of the page's main content (or the whole body when `main_content` is false);
    options as `page_content`."""
    return page_content(html, url, **options).markdown


def page_content(html: str, url: str, *, main_content: bool = True, include_images: bool = True,
                 include_links: bool = True, max_bytes: int | None = DEFAULT_MAX_BYTES,
                 tracking_params: tuple = TRACKING_PARAMS) -> PageContent:
    """The page's markdown and its kind: the str form of ``parsed_page_content``, on a page of
    its own, whose tree it then prunes itself (``html`` may be the page itself: its tree is left
    as it was). Never raises on malformed input."""
    page = as_page(html)
    return parsed_page_content(page, url, main_content=main_content, include_images=include_images,
                               include_links=include_links, max_bytes=max_bytes, tracking_params=tracking_params,
                               take=page is not html)


def parsed_page_content(page: ParsedPage, url: str, *, main_content: bool = True, include_images: bool = True,
                        include_links: bool = True, max_bytes: int | None = DEFAULT_MAX_BYTES,
                        tracking_params: tuple = TRACKING_PARAMS, take: bool = False) -> PageContent:
    """``page_content`` of a page: its tree is left as it was (the pruning works on a copy), or,
    with ``take``, pruned itself (``ParsedPage.take``: for the tree's last reader).

    Pages over `max_bytes` (of UTF-8) are converted whole, without scoring, so that a huge page
    costs one linear pass, and a page too big to hold as one tree is converted piece by piece
    (``ParsedPage.whole``); their kind is only what their data declares.
    """
    if not page.html:
        return PageContent("", "other")
    if not main_content or page_over_bytes(page, max_bytes):
        return _whole_body(page, url, include_images, include_links, tracking_params, take)
    record = single_product(page, url)  # before the tree is taken: the record's readers may read it
    return _markdown(page.take() if take else page.copy(), record, url, include_images, include_links,
                     tracking_params)


def page_markdown(page: ParsedPage, url: str, **options) -> str:
    """``html_to_markdown`` of a page."""
    return parsed_page_content(page, url, **options).markdown


def _markdown(tree, record: dict | None, url: str, include_images: bool, include_links: bool,
              tracking_params: tuple) -> PageContent:
    if tree.body is None:
        return PageContent("", "other")
    record = shown_name(tree.body, record) if record is not None else None  # before pruning takes its hidden boxes
    kind, nodes = find_main_content(tree, url, record)
    markdown = _convert(nodes, document_base(tree, url), include_images, include_links, tracking_params)
    if record is None:
        return PageContent(_tidy(markdown), kind)
    return PageContent(_tidy(with_product_header(markdown, record)), "product")  # it opens with its facts


def _whole_body(page: ParsedPage, url: str, include_images: bool, include_links: bool,
                tracking_params: tuple, take: bool = False) -> PageContent:
    """The whole body without scoring, a tree at a time (a huge page's pieces: ``ParsedPage.whole``);
    its kind is only what its data declares."""
    record = single_product(page, url)  # before the tree is taken: the record's readers may read it
    parts, kind, base = [], "other", url
    for index, tree in enumerate(page.whole(changed=True, take=take)):
        if index == 0:
            kind, base = declared_type(tree) or "other", document_base(tree, url)
        if tree.body is not None:
            tree.strip_tags(NON_CONTENT_TAGS)
            if page.huge:
                _unwrap_plain_spans(tree.body)
            part = _convert([tree.body], base, include_images, include_links, tracking_params).strip("\n")
            if part.strip():
                parts.append(part)
    if parts:  # tidy at both ends already: a huge page's markdown is joined once, not copied again
        parts[-1] = parts[-1].rstrip() + "\n"
        parts[0] = parts[0].lstrip()
    markdown = "\n\n".join(parts)
    if record is None:
        return PageContent(markdown, kind)
    return PageContent(_tidy(with_product_header(markdown, record)), "product")


def _unwrap_plain_spans(root) -> None:
    """A huge page's spans give way to their text: html-to-markdown's time grows with the square
    of the spans in one block (a paragraph of 24 MB of spans: minutes). Spans that may hide their
    text (``hidden``, a style naming none or hidden) stay, for the converter to drop."""
    for span in root.css("span"):
        attributes = span.attributes
        style = (attributes.get("style") or "").lower()
        if "hidden" not in attributes and "none" not in style and "hidden" not in style:
            span.unwrap()


def _convert(nodes: list, base: str, include_images: bool, include_links: bool, tracking_params: tuple) -> str:
    """The nodes' markdown, their links and images made absolute and clean first."""
    tracking_params = tuple(tracking_params)
    resolved = Memo(lambda href: clean_url(href, base, tracking_params))  # a page repeats its menus' links
    for node in nodes:
        _unwrap_code_tables(node)
        elements = node.css("*")  # one walk for the passes below, each taking its elements before any goes
        links = [element for element in elements if element.tag_id == LINK_ID]
        images = [element for element in elements if element.tag_id == _IMG_ID] if include_images else ()
        _separate_touching(node, elements)
        _fix_images(images, resolved)  # first: a link to nowhere goes with the pictures it holds
        _fix_links(node, links, include_links, resolved)
    try:
        pieces = [convert(fragment, _options(include_images)).content or "" for fragment in _fragments(nodes)]
    except Exception:  # noqa: BLE001 - the converter's own limits; fall back to the text
        return "\n\n".join(node.text(separator=" ", strip=True) for node in nodes)
    return pieces[0] if len(pieces) == 1 else "\n\n".join(filter(None, (p.strip("\n") for p in pieces)))


def _fragments(nodes: list):
    """The nodes' HTML in pieces of about `FRAGMENT_CHARS`, cut only between the children of
    block containers: the converter's own tree costs about ten times its input, so a huge page
    is converted piece by piece. A page of ordinary size is one piece."""
    pieces, size = [], 0
    for html in _pieces(nodes, SPLIT_DEPTH):
        if pieces and size + len(html) > FRAGMENT_CHARS:
            yield "".join(pieces)
            pieces, size = [], 0
        pieces.append(html)
        size += len(html)
    if pieces:
        yield "".join(pieces)


def _pieces(nodes, depth: int):
    for node in nodes:
        html = node.html or ""
        if len(html) > FRAGMENT_CHARS and depth and node.tag in _SPLITTABLE:
            yield from _pieces(node.iter(include_text=True), depth - 1)
        else:
            yield html


def with_product_header(markdown: str, record: dict) -> str:
    """``markdown`` of a single-product page (``single_product``) with its product header on top;
    the page's own first heading goes when it names the product (no doubled name)."""
    return product_header(record) + "\n\n" + without_name_heading(markdown, record["name"])


def single_product(page: ParsedPage, url: str) -> dict | None:
    """The product record of a single-product page (``is_product``: a page that shows its
    product but does not mark it up counts too), else None; read once per page, for its main
    content and its header."""
    record = page_product(page, url)
    return record if record["is_product"] else None


def page_over_bytes(page: ParsedPage, max_bytes: int | None) -> bool:
    """``over_bytes`` of a parsed page, the length of the UTF-8 its parse holds when one was made
    (a page of megabytes is not encoded again to be measured)."""
    utf8 = None if max_bytes is None or page.huge else page.made(utf8_html)
    return over_bytes(page.html, max_bytes) if utf8 is None else len(utf8) > max_bytes


def over_bytes(html: str, max_bytes: int | None) -> bool:
    """Whether ``html`` takes more than ``max_bytes`` as UTF-8; encoded only when its length
    in characters (1 to 4 bytes each) cannot tell."""
    if max_bytes is None or len(html) * 4 <= max_bytes:
        return False
    return len(html) > max_bytes or len(html.encode("utf-8", "surrogatepass")) > max_bytes


def _unwrap_code_tables(root) -> None:
    """Code highlighters lay code out as a table (line numbers | code): keep only the code.

    As a table it would become one GFM cell with its lines run together.
    """
    tables = [table for table in root.css("table") if table.mem_id != root.mem_id
              and table.css_first("pre") is not None and len(table.css("tr")) <= 2]
    ids = {table.mem_id for table in tables}
    for table in [table for table in tables if not _inside(table, ids)]:  # decompose frees inner ones
        for pre in table.css("pre"):
            if not pre.text(deep=True).replace("\n", "").strip().isdigit():  # not a gutter
                table.insert_before(pre)
        table.decompose()


def _separate_touching(root, elements: list) -> None:
    """A space between sibling elements whose words touch (`<span>feeling.</span><span>The</span>`).

    Pages lay such runs out as blocks with CSS; converted inline, sentences and fields (name and
    size, label and value) would run together. Code, sub- and superscripts keep their layout.
    `elements`: ``root.css("*")``.
    """
    in_code = {node.mem_id for node in root.css("pre *, code *")} if near_tags(root, ("pre", "code")) else set()
    touching = [(prev, node) for node in elements  # most elements follow a blank, no element: tested first
                if (prev := node.prev) is not None and prev.is_element_node and node.mem_id not in in_code
                and node.tag not in _SCRIPTS and prev.tag not in _SCRIPTS]
    for prev, node in touching:
        before, after = prev.text(deep=True), node.text(deep=True)
        if before and after and _touch(before[-1], after[0]):
            node.insert_before(" ")


def _touch(last: str, first: str) -> bool:
    """End of one word and start of another: `feeling.|The`, `oak|235`, `MÖCKELBY|Table`."""
    if last in ".!?:;" and first.isalnum():
        return True
    return last.isalpha() and (first.isupper() or first.isdigit()) or last.isdigit() and first.isupper()


def _inside(node, ids: set) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.mem_id in ids:
            return True
        parent = parent.parent
    return False


def _fix_links(root, links: list, include_links: bool, resolved: dict) -> None:
    """Absolute, tracking-free hrefs; links that lead nowhere (or all links) keep only their text.
    `links`: the root's ``a``; `resolved`: the page's memo of ``clean_url``."""
    if not include_links:
        root.unwrap_tags(["a"])
        return
    dead, anchors = [], []
    for link in links:
        attrs = link.attrs  # not ``attributes``: a dict of them all, for two
        href = attrs.get("href")
        target = resolved[href] if href else None
        if target is None:
            (anchors if _is_permalink_mark(link) else dead).append(link)
            continue
        link.attrs["href"] = target
        if "title" in attrs:
            del link.attrs["title"]
    for link in dead:
        link.unwrap()
    for link in anchors:
        link.decompose()


def _is_permalink_mark(link) -> bool:
    """Heading anchors such as `#`, `¶` or `🔗`: no words, only a pointer to the page itself."""
    text = link.text(deep=True, strip=True)
    return len(text) <= 2 and not any(ch.isalnum() for ch in text)


def _fix_images(images: list, resolved: dict) -> None:
    """Absolute image URLs, taking lazy-loading attributes over placeholder or data: sources.
    `resolved`: the page's memo of ``clean_url``."""
    dead = []
    for image in images:
        attrs = image.attributes
        src = next((attrs[name] for name in _LAZY_SRC
                    if attrs.get(name) and not attrs[name].lstrip().startswith("data:")), None)
        target = resolved[src] if src else None
        if target is None:
            dead.append(image)
        else:
            image.attrs["src"] = target
    for image in dead:
        image.decompose()


def _tidy(markdown: str) -> str:
    markdown = markdown.strip()
    return markdown + "\n" if markdown else ""
