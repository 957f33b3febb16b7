"""Phrase lists the product readers match, one plain file per concept, languages side by side
(``# de`` headers only group them). Adding a language or a shop's wording touches no code."""

from __future__ import annotations

import functools
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=None)
def phrases(name: str) -> tuple:
    """The non-blank, non-comment lines of ``<name>.txt``, lower-cased."""
    lines = (HERE / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return tuple(line.strip().lower() for line in lines if line.strip() and not line.lstrip().startswith("#"))


@functools.lru_cache(maxsize=None)
def pattern(name: str) -> re.Pattern:
    """One case-blind regex of the file's phrases, blanks as any space. Written as a trie
    (``ad(?:\\s+(?:id|number))?``): an alternation of dozens of phrases tried at every
    position of a page is many times slower; letters as ``[aA]`` classes, not ``re.I`` (a third
    faster over a page's text); and a lookahead of the first letters, one set test where a
    position starts no phrase (twice as fast again)."""
    trie: dict = {}
    for phrase in phrases(name):
        node = trie
        for char in " ".join(phrase.split()):
            node = node.setdefault(char, {})
        node[""] = {}
    first = "".join(re.escape(c) for c in sorted({c for char in trie for c in (char.lower(), char.upper())}))
    return re.compile(f"(?=[{first}]){_regex(trie)}")


def _regex(node: dict) -> str:
    branches = [(r"\s+" if char == " " else _either_case(char)) + _regex(child) for char, child in node.items() if char]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


def _either_case(char: str) -> str:
    lower, upper = char.lower(), char.upper()
    return f"[{lower}{upper}]" if lower != upper and len(lower) == len(upper) == 1 else re.escape(char)
