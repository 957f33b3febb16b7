"""The product header of a product page's markdown: what a shopper reads first (the name as
the top heading, the price as shown, the stock, the key facts), above the description and
specification tables that main-content extraction keeps."""

from __future__ import annotations

import re

from crawlforge.extract.content.chrome import hidden_named

_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def product_header(record: dict) -> str:
    lines = [f"# {record['name']}"]
    shown = _price_line(record)
    if shown:
        lines.append(shown)
    facts = [(label, record.get(key)) for label, key in (("Brand", "brand"), ("SKU", "sku"), ("GTIN", "gtin"))]
    facts += [(name, ", ".join(choices)) for name, choices in _options(record.get("variants") or []).items()]
    bullets = [f"- {label}: {value}" for label, value in facts if value]
    return "\n\n".join(lines) + ("\n\n" + "\n".join(bullets) if bullets else "")


def _price_line(record: dict) -> str:
    parts = []
    if record.get("price"):
        parts.append(" ".join(filter(None, (_money(record["price"]), record.get("currency")))))
    if record.get("list_price"):
        parts.append(f"(list price {_money(record['list_price'])})")
    if record.get("availability"):
        parts.append("· " + re.sub(r"(?<=[a-z])(?=[A-Z])", " ", record["availability"]).capitalize())
    return "Price: " + " ".join(parts) if record.get("price") else " ".join(parts).removeprefix("· ")


def _money(amount: str) -> str:
    """Cents as shops print them: "115.0" -> "115.00"; whole amounts stay whole."""
    whole, point, fraction = str(amount).partition(".")
    return f"{whole}.{fraction.ljust(2, '0')}" if point else whole


def _options(variants: list) -> dict:
    """Option name -> its values in first-seen order, over every variant."""
    found: dict = {}
    for variant in variants:
        for name, value in (variant.get("options") or {}).items() if isinstance(variant, dict) else ():
            choices = found.setdefault(str(name).capitalize(), [])
            if str(value) not in choices:
                choices.append(str(value))
    return found


def without_name_heading(markdown: str, name: str) -> str:
    """Drops the page's own headings that say the product's name: the leading ones when
    either contains the other (spacing and case aside), later ones only when equal (a buy
    box repeats the title; "Reviews of NAME" stays)."""
    kept, leading = [], True
    for line in markdown.split("\n"):
        match = _HEADING.match(line)
        if match and same_name(match.group(1), name, exact=not leading):
            continue
        leading = leading and not match
        kept.append(line)
    return "\n".join(kept).strip() + "\n"


def same_name(heading: str, name: str, exact: bool = False) -> bool:
    """The heading says the name: either holds the other (or equal, `exact`), spacing and case aside."""
    a, b = (re.sub(r"\W+", "", t).casefold() for t in (heading, name))
    return bool(a and b) and (a == b if exact else a in b or b in a)


def shown_name(body, record: dict) -> dict:
    """The record with its name as the page shows it: a name read from a heading whose text
    holds a box hidden from sight (`<span class="visually-hidden">Details about</span>`) loses
    that box's words, which no shopper sees."""
    name = record.get("name")
    if body is None or not isinstance(name, str):
        return record
    for heading in body.css("h1"):
        if _squashed(heading.text(deep=True)) != _squashed(name):
            continue
        hidden = {node.mem_id for node in heading.css("*") if node.mem_id != heading.mem_id and hidden_named(node)}
        if not hidden:
            return record
        shown = " ".join(" ".join(text for text in _shown_texts(heading, hidden)).split())
        return {**record, "name": shown} if shown else record
    return record


def _shown_texts(node, hidden: set):
    for child in node.iter(include_text=True):
        if child.is_text_node:
            yield child.text_content or ""
        elif child.mem_id not in hidden:
            yield from _shown_texts(child, hidden)


def _squashed(text: str) -> str:
    return " ".join(text.split()).casefold()
