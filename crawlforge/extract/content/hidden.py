"""Hidden nodes: which a reader never sees (styles, `hidden`, ARIA), and which the page only
folds or streams into place (tab panels, FAQ answers, server-streamed chunks) and so are shown."""

import re
from typing import NamedTuple

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.content.nodes import link_density, outermost, style_hides
from crawlforge.extract.content.policy import LIMITS
from crawlforge.extract.words import phrases


def swallowed(iframe) -> None:
    """The page an unclosed `<iframe>` swallowed, parsed again in its place: its content is raw
    text to the end of the document, and a tag manager's `<noscript><iframe ... /></noscript>`
    (`/>` closes nothing in HTML) puts the whole page there. Only that rest is parsed again."""
    rest = LexborHTMLParser(iframe.text(deep=True)).body
    if rest is not None:
        for node in rest.iter(include_text=True):
            iframe.insert_before(node)  # lexbor inserts a copy
    iframe.decompose()


_HIDDEN_STYLES = ("display:none", "display: none", "visibility:hidden", "visibility: hidden")
"""Styles a browser does not show (as ``hidden``): the converter drops them, so they take no part
in the scoring either."""
_MAYBE_HIDDEN = '[hidden], [style*="none" i], [style*="hidden" i]'


def _hidden_nodes(body) -> list:
    """The nodes ``hidden`` or hidden by a style of `_HIDDEN_STYLES`, each listed once for each of
    those five it has, as a search for the five lists them, from a search for three: each
    attribute test is made on every node of the page, and few styles say none or hidden."""
    found, last = [], None
    for node in body.css(_MAYBE_HIDDEN):  # a node matching several comes as often, in a row
        if node.mem_id == last:
            continue
        last, attrs = node.mem_id, node.attrs
        style = (attrs.sget("style", "") or "").lower()  # the selectors' `i`
        found += [node] * (("hidden" in attrs) + sum(part in style for part in _HIDDEN_STYLES))
    return found


def revealed(body, total: int | None) -> list:
    """Shows hidden nodes that hold the page, and returns the other nodes hidden by their style
    (``hidden`` ones go with the ARIA roles). A page rendered on the server in streamed chunks
    holds its content in hidden children of ``<body>`` that a script moves into place (React's
    ``<div hidden id="S:1">``); a page faded in by script wraps it in a ``display:none`` box:
    hidden as they are, they hold most of its text. Folded tab panels and accordion sections are
    shown too. `total` is the readable text's length, None when not measured yet."""
    hidden = outermost(_hidden_nodes(body))
    if not hidden:
        return []
    sizes = [len(node.text(deep=True, strip=True, skip_empty=True)) for node in hidden]
    if total is None:
        total = len(body.text(deep=True, strip=True, skip_empty=True))
    chunks = [(node, size) for node, size in zip(hidden, sizes) if size and node.parent.mem_id == body.mem_id]
    shown = [node for node, size in zip(hidden, sizes)
             if size * 2 >= total or size and (folded(node) or _answer(node))]
    if sum(size for _, size in chunks) * 2 >= total:
        shown += [node for node, _ in chunks]
    for node in shown:
        unhide(node)
    shown_ids = {node.mem_id for node in shown}
    return [node for node in hidden if node.mem_id not in shown_ids and "hidden" not in node.attrs]


def _answer(node) -> bool:
    """A hidden box right after a question (a line ending in `?`, `？`, `؟`): a FAQ's answer, folded."""
    question = node.prev
    while question is not None and not question.is_element_node:
        question = question.prev
    if question is None:
        return False
    text = question.text(deep=True, strip=True)
    return 0 < len(text) < LIMITS.question and text.endswith(_QUESTION_MARKS)


_QUESTION_MARKS = phrases("question_marks")


_NUMBERED = re.compile(r"(.*[^0-9A-Za-z])([0-9a-f]{1,6})|(\D*)([0-9]+)")
"""An id's prefix and number: after its last separator (React's hex `S:2e`), else its last digits."""


def streamed_into_place(body) -> None:
    """Moves the chunks of a page streamed from the server into their placeholders, shown. Such a
    page sends its late parts as hidden children of ``<body>`` that a script swaps for the empty
    placeholder numbered alike (React's ``<div hidden id="S:3">`` for ``<template id="B:3">`` or
    ``id="P:3"``): in place, a part of the sidebar is pruned with the sidebar, and the main part
    is scored in the main column. A chunk with no placeholder or several stays where it is."""
    chunks = {}  # number -> (its id, the chunk)
    node = body.child
    while node is not None:
        if node.is_element_node and node.id and ("hidden" in node.attrs or style_hides(node)):
            numbered = _numbered(node.id)
            if numbered:
                chunks[numbered.number] = (numbered, node)
        node = node.next
    if not chunks:
        return
    slots = {}
    for slot in body.css("[id]"):
        numbered = _numbered(slot.id or "")
        if numbered and numbered.number in chunks and numbered.prefix != chunks[numbered.number][0].prefix \
                and slot.parent.mem_id != body.mem_id and not slot.text(deep=True, strip=True):
            slots.setdefault(numbered.number, []).append(slot)
    placed = {number: found[0] for number, found in slots.items() if len(found) == 1}
    owners = {chunk.mem_id: number for number, (_, chunk) in chunks.items() if number in placed}
    inside: dict = {}  # chunk number -> numbers of the slots it holds: filled before it moves
    for number, slot in placed.items():
        node = slot
        while node.parent is not None and node.parent.mem_id != body.mem_id:
            node = node.parent
        if owners.get(node.mem_id) != number:  # a slot inside its own chunk stays empty
            inside.setdefault(owners.get(node.mem_id), []).append(number)
    for number in _filled_first(inside, None):
        slot, chunk = placed[number], chunks[number][1]
        slot.insert_before(chunk)  # a copy
        unhide(slot.prev)  # the copy
        slot.decompose()
        chunk.decompose()


def _filled_first(inside: dict, owner) -> list:
    """The chunk numbers held by `owner` (None: the page), each after those it holds."""
    order = []
    for number in inside.get(owner, ()):
        order += _filled_first(inside, number) + [number]
    return order


class Numbered(NamedTuple):
    """An id read as a prefix and a number (`S:` and `2e` of `S:2e`)."""

    prefix: str
    number: str


def _numbered(name: str) -> Numbered | None:
    found = _NUMBERED.fullmatch(name)
    if found is None:
        return None
    return Numbered(found.group(1), found.group(2)) if found.group(2) else Numbered(found.group(3), found.group(4))


def unhide(node) -> None:
    """Content kept although hidden is shown: the markdown converter drops what is hidden."""
    if "hidden" in node.attrs:
        del node.attrs["hidden"]
    if style_hides(node):
        del node.attrs["style"]


def repeated_link(node) -> bool:
    """A link kept from screen readers and the tab order (``aria-hidden`` and ``tabindex=-1``)
    because another link of its card goes to the same page: its text, a teaser, is on screen."""
    return node.tag == "a" and node.attributes.get("tabindex") == "-1" and node.attributes.get("aria-hidden") == "true"


def folded(node, panels: set | None = None) -> bool:
    """A hidden tab panel or accordion section (`role=tabpanel`, a `role=region` a header
    labels): the page's content, folded until a reader opens it. `panels`: mem_ids of the
    nodes that are or hold a panel (`holders`), when searched already: a node of none holds no
    panel, and a page's hundreds of hidden icons are not searched one by one."""
    role = node.attributes.get("role")
    if role == "tabpanel" or role == "region" and node.attributes.get("aria-labelledby") is not None:
        return True
    if panels is not None and node.mem_id not in panels:
        return False
    panel = node.css_first(PANELS)  # a collapse box around its panel, hidden in its place
    return panel is not None and panel.mem_id != node.mem_id \
        and len(panel.text(deep=True, strip=True)) == len(node.text(deep=True, strip=True))


PANELS = "[role=tabpanel], [role=region][aria-labelledby]"


def disclosed(controls: list) -> set:
    """Ids of the panels a folded control opens (`aria-expanded="false"` and `aria-controls`,
    or a button's `aria-controls` alone): an accordion's or a FAQ's answers, hidden until the
    reader opens them. `controls`: the page's nodes with `aria-controls`, one attribute
    searched on every node (not three)."""
    return {name for control in controls
            if control.tag == "button" or control.attrs.get("aria-expanded") == "false"
            for name in (control.attrs.sget("aria-controls", "") or "").split()}


def opened_panel(node, opened: set) -> bool:
    """A panel a folded control opens (`disclosed`) that reads as text, not as a menu of links."""
    if not opened or not node.is_element_node or node.id not in opened:
        return False
    return bool(node.text(deep=True, strip=True, skip_empty=True)) and link_density(node) < LIMITS.opened_links
