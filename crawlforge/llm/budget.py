"""Fit a page to the model it is sent to. The page's budget is the model's context less the
prompt around the page, the answer and a retry. The frontmatter goes first (the page's own
structured data), its long values trimmed before any content is left out; then the markdown.
What does not fit is left out whole units at a time (a sentence, a table row, a code block),
the units least relevant to the schema first, the rest kept in document order."""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field

from pydantic import BaseModel

from crawlforge.extract.frontmatter import FENCE, dump_yaml, parse_document
from crawlforge.extract.units import rank_units, segment_units

# Without the server's tokenizer: two UTF-8 bytes a token. Exact counts over the 84
# product-visible documents gave 2.05 to 4.35 bytes a token (median 2.9), so this never
# undercounts them; four bytes a token undercounted most of them.
BYTES_PER_TOKEN = 2
# frontmatter trimming, gentlest first: (longest string kept, items kept of a list or mapping)
# (240 chars: a product's or an article's name is never cut, a description is)
TRIM_STEPS = ((1000, 20), (500, 10), (240, 5))
ELLIPSIS = "…"
# a gap between two kept neighbours longer than this (an image wall, a link list) is left out
MAX_GAP_CHARS = 200
_HEADING_LINE = re.compile(r"#{1,6}[ \t]")
_FENCE = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_LINE_MARKERS = re.compile(r"[ \t>*+\-|0-9.)]*")
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s)")


def estimate_tokens(text: str) -> int:
    return (len(text.encode("utf-8", "surrogatepass")) + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN


@dataclass
class PageInput:
    """What is sent of a page: ``pieces`` (one unless a list schema's page is split),
    the page's tokens sent in them and the tokens left out."""

    pieces: list[str] = field(default_factory=list)
    tokens_sent: int = 0
    tokens_dropped: int = 0

    def summary(self) -> dict:
        return {"tokens_sent": self.tokens_sent, "tokens_dropped": self.tokens_dropped, "pieces": len(self.pieces)}


def schema_query(schema: type[BaseModel]) -> str:
    """The words a relevant unit shares with the schema: its fields' names and descriptions,
    of nested models too (a list's item model); a model's own docstring says what it is for,
    not what a page says, so it is left out."""
    words: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for name, value in (node.get("properties") or {}).items():
                words.append(name.replace("_", " "))
                if isinstance(value, dict) and isinstance(value.get("description"), str):
                    words.append(value["description"])
            for key, value in node.items():
                if key != "description":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema.model_json_schema())
    return " ".join(dict.fromkeys(words))


def fit_page(text: str, query: str, budget: int, count, split: bool = False) -> PageInput:
    """``text`` (a document: frontmatter and markdown, or markdown alone) within ``budget``
    tokens as ``count`` counts them. ``split``: a list schema's page becomes several pieces,
    each within budget, instead of losing its less relevant units."""
    total = count(text)
    if total <= budget:
        return PageInput([text], total, 0)
    frontmatter, body = parse_document(text)
    head = text[: len(text) - len(body)]
    if frontmatter:
        # a piece of a split page needs room for content beside the frontmatter, not all of it
        room = budget // 2 if split else budget - count(body)
        head = _fit_frontmatter(frontmatter, head, room, budget, count)
    head_tokens = count(head) if head else 0
    units = segment_units(body)
    if head_tokens + count(body) <= budget:
        pieces = [head + body]
    elif split:
        pieces = _pieces(body, units, head, budget, head_tokens, count)
    else:
        pieces = [head + _select(body, units, query, budget - head_tokens, count)]
    sent = sum(count(piece) for piece in pieces)
    return PageInput(pieces, sent, max(0, total - sent))


def _fit_frontmatter(frontmatter: dict, head: str, room: int, budget: int, count) -> str:
    """The gentlest trim that brings the frontmatter within ``room`` tokens; past the last
    step, whole YAML lines from the end until it takes at most half the budget."""
    for chars, items in TRIM_STEPS:
        head = f"{FENCE}\n{dump_yaml(_trim(frontmatter, chars, items))}{FENCE}\n\n"
        if count(head) <= room:
            return head
    lines = head.splitlines(keepends=True)[1:-2]  # the YAML between the fences
    while lines and count("".join(lines)) > budget // 2:
        lines = lines[: max(1, len(lines) * 3 // 4)] if len(lines) > 1 else []
    return f"{FENCE}\n{''.join(lines)}{FENCE}\n\n" if lines else ""


def _trim(value, chars: int, items: int):
    """Strings past ``chars`` cut at a sentence or word end; lists and mappings past
    ``items`` entries cut (a mapping keeps three times as many: its keys name things)."""
    if isinstance(value, str):
        return _shorten(value, chars)
    if isinstance(value, list):
        return [_trim(item, chars, items) for item in value[:items]]
    if isinstance(value, dict):
        kept = list(value.items())[: items * 3]
        return {key: _trim(item, chars, items) for key, item in kept}
    return value


def _shorten(text: str, chars: int) -> str:
    if len(text) <= chars:
        return text
    cut = text[:chars]
    ends = [m.end() for m in _SENTENCE_END.finditer(cut)]
    if ends and ends[-1] > chars // 2:
        return cut[: ends[-1]] + ELLIPSIS
    space = cut.rfind(" ")
    return (cut[:space] if space > chars // 2 else cut).rstrip() + ELLIPSIS


def _select(body: str, units: list[dict], query: str, budget: int, count) -> str:
    """The units most relevant to ``query`` that fit, in document order; units that share
    nothing with it come after, page order first. Costs are estimated from the body's own
    tokens per character, and the choice is redone on a smaller budget while the exact count
    of the result is over."""
    if budget <= 0 or not units:
        return ""
    ranked = rank_units(units, query, max_units=len(units)) if query else []
    order = {unit["offset"]: rank for rank, unit in enumerate(ranked)}
    priority = sorted(range(len(units)), key=lambda i: (order.get(units[i]["offset"], len(order)), i))
    per_char = count(body) / max(1, len(body))
    target = budget
    for _ in range(6):
        kept, spent = set(), 0
        for index in priority:
            cost = math.ceil((units[index]["length"] + 4) * per_char)
            if spent + cost <= target:
                kept.add(index)
                spent += cost
        text = _render(body, units, sorted(kept))
        over = count(text) - budget
        if over <= 0:
            return text
        target -= over + budget // 20
    return ""


def _pieces(body: str, units: list[dict], head: str, budget: int, head_tokens: int, count) -> list[str]:
    """Consecutive units packed into pieces of at most ``budget`` tokens, the frontmatter at the
    head of the first. A section (a heading and its units) that fits in a piece of its own
    starts one rather than being cut, so a list's entries stay with their heading and
    neighbours; a unit too long for a piece of its own is left out."""
    per_char = count(body) / max(1, len(body))
    costs = [math.ceil((unit["length"] + 4) * per_char) for unit in units]
    starts = [offset for offset, _ in _headings(body)]
    sections = [bisect.bisect_right(starts, unit["offset"]) for unit in units]
    section_costs: dict[int, int] = {}
    for index, section in enumerate(sections):
        section_costs[section] = section_costs.get(section, 0) + costs[index]
    pending = [index for index in range(len(units)) if costs[index] <= budget]
    texts: list[str] = []
    while pending:
        prefix = "" if texts else head
        spent, take = (0 if texts else head_tokens), []
        for index in pending:
            section = sections[index]
            opens = take and sections[take[-1]] != section
            if take and (spent + costs[index] > budget or (
                    opens and spent + section_costs[section] > budget >= section_costs[section])):
                break
            take.append(index)
            spent += costs[index]
        text = prefix + _render(body, units, take)
        while len(take) > 1 and count(text) > budget:  # the estimate was short: the tail waits
            take = take[: len(take) * 9 // 10] if len(take) > 9 else take[:-1]
            text = prefix + _render(body, units, take)
        if count(text) > budget:
            if prefix:  # the frontmatter goes alone, the unit starts the next piece
                texts.append(prefix)
            else:
                pending = pending[1:]
            continue
        texts.append(text)
        pending = pending[len(take):]
    return texts or [head]


def _render(body: str, units: list[dict], kept: list[int]) -> str:
    """The kept units as markdown: verbatim with what lies between neighbours; across a gap,
    the heading above a unit when it changed and the unit's list, quote or table marker; a
    code block keeps its fences; the page's title (a first heading of level one) always leads."""
    headings = _headings(body)
    starts = [offset for offset, _ in headings]
    out: list[str] = []
    shown_heading = None
    if headings and headings[0][1].startswith("# ") and (not kept or headings[0][0] < units[kept[0]]["offset"]):
        out.append(headings[0][1])
        shown_heading = headings[0][0]
    previous = None
    for index in kept:
        unit = units[index]
        start, end = unit["offset"], unit["offset"] + unit["length"]
        position = bisect.bisect_left(starts, start)
        above = headings[position - 1] if position else None
        code = unit["kind"] == "code_block" or (previous is not None and units[previous]["kind"] == "code_block")
        if (previous is not None and index == previous + 1 and not code
                and start - _end(units[previous]) <= MAX_GAP_CHARS):
            out.append(body[_end(units[previous]) : start])
        else:
            if out:
                out.append("\n\n")
            if above and above[0] != shown_heading:
                out.append(above[1] + "\n\n")
            line_start = body.rfind("\n", 0, start) + 1
            if unit["kind"] != "code_block" and _LINE_MARKERS.fullmatch(body, line_start, start):
                out.append(body[line_start:start])
        if above:
            shown_heading = above[0]
        out.append(f"```\n{body[start:end]}\n```" if unit["kind"] == "code_block" else body[start:end])
        previous = index
    return "".join(out).strip("\n") + "\n" if out else ""


def _headings(body: str) -> list[tuple[int, str]]:
    """``(offset, line)`` of each ATX heading outside fenced code."""
    found, fence, offset = [], None, 0
    for line in body.splitlines(keepends=True):
        if match := _FENCE.match(line):
            if fence is None:
                fence = match.group(1)
            elif match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
        elif fence is None and _HEADING_LINE.match(line):
            found.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    return found


def _end(unit: dict) -> int:
    return unit["offset"] + unit["length"]
