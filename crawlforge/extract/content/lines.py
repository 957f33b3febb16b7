"""Lines and blocks no reader reads inside content: datelines, button and credit lines, counts,
copies of earlier blocks, repeated labels, menu trees."""

import re

from crawlforge.extract.content.chrome import AD_LABEL, UI_LINE
from crawlforge.extract.content.nodes import BLOCK_TAGS, class_of, HEADINGS, styled_hidden
from crawlforge.extract.content.policy import LIMITS
from crawlforge.extract.words import pattern, phrases


_CREDIT = re.compile(rf"[(\[]?\s*(?:{pattern('credit_lines').pattern})", re.IGNORECASE)


_DATE_WORDS = frozenset(phrases("date_words"))
_TOKEN = re.compile(r"[^\W\d_]+|\d+")
_DATE = re.compile(r"\d{1,2}\.\s?\d{1,2}\.\s?\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|"
                   r"\b\d{1,2}:\d{2}\b|"
                   r"\d{1,2}\.?\s+[^\W\d_]{3,}\.?,?\s+\d{4}|[^\W\d_]{3,}\.?\s+\d{1,2},?\s+\d{4}")
_DATE_HINT = re.compile(r"\d(?:[-./:]\s?\d|\d\d\d)").search
"""What each of those dates holds (digits around a separator, or four digits): one fast scan
spares most lines the date pattern, slow on words, and so do the tests of their words."""


def is_dateline(text: str) -> bool:
    """A line that is only a date or time, with the words that announce one (`Erstellt am
    Dienstag 6. Mai 2014`, `Updated: 12.12.2022, 08:30 Uhr`). The hint, digits and separators
    only, is the same before lower-casing: most lines are spared that too."""
    if not _DATE_HINT(text):
        return False
    text = text.lower()
    if _TOKEN.sub("", text).strip(" .,:/|()+-–") \
            or not all(token.isdigit() or token in _DATE_WORDS for token in _TOKEN.findall(text)):
        return False
    return _DATE.search(text) is not None  # the slow test last


def is_bare_line(text: str, counts: bool = False) -> bool:
    """A date line or a line of button words: nothing a reader reads; in a thread a bare count
    too (a post's votes or number: `#12`, `1,024`, `3k`) and a poster's profile figures."""
    return is_dateline(text) or UI_LINE.fullmatch(text) is not None or counts and (
        _COUNT.fullmatch(text) is not None
        or len(text) < LIMITS.member_stat_line and _MEMBER_STAT.match(text) is not None)


_COUNT = re.compile(r"[#(]?\s*\d[\d.,]*\s*[kKmM]?\)?")
_MEMBER_STAT = re.compile(rf"[\W\d.,kK]*(?:{pattern('member_stats').pattern})", re.IGNORECASE)


def is_credit(node, size: int, text_of) -> bool:
    """A short line that credits a photo, names a source, titles a contact or labels an ad
    (`Foto: dpa`, `(Photo: AP)`, `©`, `Quelle: dpa`, `Kontakt:`, `Anzeige`)."""
    if size >= LIMITS.credit_line:
        return False
    text = text_of(node)
    # the block's own text is short, and all of it too
    return len(text) < LIMITS.credit_line and bool(_CREDIT.match(text) or AD_LABEL.match(text))


_NOT_REPEATS = HEADINGS | {"pre", "td", "th", "li"}
"""A listing's headings and items, code and table cells repeat by nature."""


def repeats(blocks: dict, within) -> list:
    """Blocks of the content (`within`: mem_ids) whose text an earlier block of it had, from
    the blocks of `LIMITS.repeat_text` characters of their own; a first copy hidden by its style (which the
    markdown converter drops) is not the one a reader saw. Only blocks whose text is as long
    as another's are read: a copy counts as many characters as its original."""
    sizes = {}
    for block in blocks.values():
        node, size = block.node, block.size
        if size >= LIMITS.repeat_text and node.tag not in _NOT_REPEATS and node.mem_id in within:
            sizes.setdefault(size, []).append(node)
    found = []
    for nodes in sizes.values():
        seen = {}
        for node in nodes if len(nodes) > 1 else ():
            first = seen.setdefault(_own_text(node), node)
            if first is not node and not styled_hidden(first):
                found.append(node)
    return found


_CELLS_AND_CODE = frozenset({"td", "th", "pre"})


def labels(blocks: dict, within) -> list:
    """Short lines that the content repeats `LIMITS.labels` times or more in boxes of one kind (tag
    and class) always saying the same (`Pros`, `Get started`, `Read case study`): the labels and
    buttons of a page's boxes, read as none of its text. Boxes of a kind whose lines vary are
    the fields of items (a card's colour, its seller), and a table's cells and code repeat by nature.
    Sentences holding half of the content's text are what it says, not labels around it: a
    page's only text is never boilerplate (a button's words, however many, are no sentence)."""
    kinds, total = {}, 0
    for block in blocks.values():
        node, size = block.node, block.size
        if node.mem_id in within:
            total += size
            if size < LIMITS.label_text and node.tag not in _CELLS_AND_CODE:
                kinds.setdefault((node.tag, class_of(node)), []).append((node, size))
    found = []
    for nodes in kinds.values():
        lines = {node.text(deep=True, strip=True).lower() for node, _ in nodes}
        if len(nodes) >= LIMITS.labels and len(lines) == 1 \
                and not (2 * sum(size for _, size in nodes) >= total and _sentence(lines.pop())):
            found += [node for node, _ in nodes]
    return found


def _sentence(line: str) -> bool:
    """Words ending in a full stop, a question or an exclamation mark: prose, not a label."""
    return len(line.split()) >= LIMITS.sentence_words and line.endswith((".", "!", "?"))


def _own_text(node) -> str:
    """The block's text outside the blocks nested in it, blanks collapsed: a quote's copy of a
    post's paragraph, whatever follows the paragraph in the post."""
    parts = []
    for child in node.iter(include_text=True):
        if child.tag == "-text":
            parts.append(child.text_content or "")
        elif child.tag not in BLOCK_TAGS:
            parts.append(child.text(deep=True))
    return " ".join("".join(parts).split())


def bare_lines(blocks: dict, within, root) -> list:
    """The short blocks under `root` (`within`: mem_ids) that are only a date or button words
    (`Quick shop`, `Choose options`): they go from a page kept whole as from an article."""
    return [block.node for block in blocks.values() if block.size < LIMITS.line and block.node.mem_id in within
            and block.node.mem_id != root.mem_id and is_bare_line(block.node.text(deep=True, strip=True))]


def menu_trees(root, within) -> list:
    """Lists of lists of links under `root` (`within`: its subtree's text sums): a site's menu
    tree (sections, their pages, their sub-pages), which a page kept whole holds apart from its
    content. A listing's cards and a hub's link lists are no nested lists."""
    found = {}
    for inner in root.css("li > ul, li > ol"):
        node, outer = inner.parent, None
        while node is not None and node.mem_id != root.mem_id:
            if node.tag in ("ul", "ol"):
                outer = node
            node = node.parent
        if outer is not None:
            found[outer.mem_id] = outer
    return [node for mem_id, node in found.items()
            if (sums := within.get(mem_id)) and sums.size and sums.links >= LIMITS.menu_links * sums.size]
