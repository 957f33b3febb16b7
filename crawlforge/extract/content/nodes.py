"""Small reads of a lexbor tree the content rules share: a node's class, its link density, what it
holds or sits in, and removing nodes that are not inside one another."""

import re

from crawlforge.extract.dom import tag_ids


def class_and_id(node) -> str:
    """The node's class and id, one blank between: two lookups of their own (``node.attributes``
    builds a dict of every attribute, on each of a page's thousand nodes with a class or id)."""
    return f"{class_of(node)} {node.id or ''}"


def class_of(node) -> str:
    """The node's class ("" for none): ``attrs["class"]``, where ``attrs.sget``, a Python-level
    call around that same lookup, costs more on each of a page's thousand nodes."""
    try:
        return node.attrs["class"] or ""
    except KeyError:
        return ""


HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
HEADING_TAGS = ", ".join(sorted(HEADINGS))


_STYLE_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def style_hides(node) -> bool:
    """Whether the element's own style hides it (``display:none``, ``visibility:hidden``), which
    the markdown converter then drops."""
    return _STYLE_HIDDEN.search(node.attrs.sget("style", "") or "") is not None


def link_density(node) -> float:
    """Share of the node's text that is link text (0 for a node with none)."""
    text = len(node.text(deep=True, strip=True, skip_empty=True))
    if not text:
        return 0.0
    return min(1.0, sum(len(a.text(deep=True, strip=True)) for a in node.css("a")) / text)


def holders(nodes) -> set:
    """mem_ids of the nodes that are or hold one of `nodes`, the matches of a selector
    (``node.css_first(selector)`` is not None), from one search: a search under each of a
    page's hundreds of doomed nodes costs a search each."""
    found = set()
    for node in nodes:
        while node is not None and node.mem_id not in found:
            found.add(node.mem_id)
            node = node.parent
    return found


def near_tags(root, tags: tuple) -> bool:
    """Whether `root` is, holds or sits in an element of `tags`: a descendant selector (`pre *`,
    `header p`) walks up from each node it tries, so a root with none of them near skips it."""
    if root.css_first(", ".join(tags)) is not None:  # the root itself too
        return True
    node = root.parent
    while node is not None and node.tag not in tags:
        node = node.parent
    return node is not None


def holds_any(node, ids: frozenset) -> bool:
    """Whether the node is or holds an element of `ids` (``tag_ids``), by a walk of its subtree: a
    ``css_first`` parses its selector and makes its memory before it looks at a node, more than
    the walk of a link's or an empty box's few nodes."""
    for inner in node.traverse():
        if inner.tag_id in ids:
            return True
    return False


def holds_link(node) -> bool:
    """Whether the node is or holds a link with an address (`a[href]`), by a walk of its subtree
    (as ``holds_any``)."""
    for inner in node.traverse():
        if inner.tag_id == LINK_ID and "href" in inner.attrs:
            return True
    return False


[LINK_ID] = tag_ids(("a",))


def remove_outermost(nodes) -> None:
    """Decomposes nodes, skipping those inside another doomed node (lexbor frees the subtree)."""
    for node in outermost(nodes):
        node.decompose()


def held_by(nodes, ids: frozenset) -> set:
    """mem_ids of the `nodes` that an element of `ids` (``tag_ids``) holds, each ancestor read
    once, for the first node below it: nodes of one page share most of their ancestors."""
    inside = {}  # mem_id -> the element is of `ids` or sits in one
    found = set()
    for node in nodes:
        path, parent, held = [], node.parent, False
        while parent is not None:
            mem_id = parent.mem_id
            held = inside.get(mem_id)
            if held is not None:
                break
            path.append(mem_id)
            if parent.tag_id in ids:
                held = True
                break
            parent = parent.parent
        else:
            held = False
        for mem_id in path:
            inside[mem_id] = held
        if held:
            found.add(node.mem_id)
    return found


def outermost(nodes) -> list:
    """The nodes not inside another of them."""
    nodes = list(nodes)
    clear = dict.fromkeys((node.mem_id for node in nodes), False)  # mem_id -> none of them at or above it
    found = []
    for node in nodes:
        path, parent, outer = [], node.parent, True  # each ancestor walked once, for the first node below it
        while parent is not None:
            outer = clear.get(parent.mem_id)
            if outer is not None:
                break
            path.append(parent.mem_id)
            parent = parent.parent
        else:
            outer = True
        for mem_id in path:
            clear[mem_id] = outer
        if outer:
            found.append(node)
    return found

BLOCK_TAGS = frozenset("""address article aside blockquote body center dd details dialog div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main nav ol p pre
section summary table tbody td tfoot th thead tr ul""".split())
"""Tags that end a run of inline text: a text block is the text up to its nearest one."""


def holding_any(nodes) -> set:
    """mem_ids of `nodes` (a list, or None) and of their ancestors."""
    return set().union(*(with_ancestors(node) for node in nodes or ()))


def with_ancestors(node) -> set:
    ids = set()
    while node is not None:
        ids.add(node.mem_id)
        node = node.parent
    return ids


def root_of(node, root_ids):
    """The content root holding `node` (a node counted in `sums` always has one)."""
    while node.mem_id not in root_ids:
        node = node.parent
    return node


def styled_hidden(node) -> bool:
    """Whether the node or an ancestor is hidden by its style (``style_hides``)."""
    while node is not None:
        if node.is_element_node and style_hides(node):
            return True
        node = node.parent
    return False


def holds(nodes: list, node) -> bool:
    """One of `nodes` is `node` or an ancestor of it."""
    around = with_ancestors(node)
    return any(candidate.mem_id in around for candidate in nodes)
