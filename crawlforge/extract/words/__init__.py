"""Vocabulary the extractors match, one plain file per concept, languages side by side (``# de``
headers only group them): the product readers' buy buttons, price marks and code labels, the
main-content cleanup's boilerplate lines, credits, date words and class names. Adding a
language or a site's wording touches no code.

A phrase of a ``pattern`` file is matched case-blind, a blank as any run of blanks, a ``*``
word as any one word, and as written it may end mid-word (``subscri`` meets ``subscribe``). A
last character of ``>`` ends it at a word's end (``read more>`` is not ``read moreover``), ``:``
wants a colon after it, blanks allowed (``tags:`` meets ``Tags :``), ``$`` wants nothing after it.
"""

from __future__ import annotations

import functools
import re
from importlib.resources import files

_ENDS = {">": r"\b", ":": r"\s*:", "$": r"\s*$"}


@functools.lru_cache(maxsize=None)
def phrases(name: str) -> tuple:
    """The non-blank, non-comment lines of ``<name>.txt``, lower-cased."""
    lines = files(__name__).joinpath(f"{name}.txt").read_text(encoding="utf-8").splitlines()  # an egg too (scrapyd)
    return tuple(line.strip().lower() for line in lines if line.strip() and not line.lstrip().startswith("#"))


@functools.lru_cache(maxsize=None)
def pattern(name: str) -> re.Pattern:
    """One case-blind regex of the file's phrases. Written as a trie
    (``ad(?:\\s+(?:id|number))?``): an alternation of dozens of phrases tried at every
    position of a page is many times slower; letters as ``[aA]`` classes, not ``re.I`` (a third
    faster over a page's text); and, when every phrase starts with a character, a lookahead of
    the first ones: one set test where a position starts no phrase (twice as fast again)."""
    trie: dict = {}
    for phrase in phrases(name):
        node = trie
        for atom in _atoms(phrase):
            node = node.setdefault(atom, {})
        node[""] = {}
    firsts = [atom for atom in trie if atom]
    if all(atom in _FIRST_CHARACTERS for atom in firsts):
        return re.compile(f"(?=[{''.join(_FIRST_CHARACTERS[atom] for atom in sorted(firsts))}]){_regex(trie)}")
    return re.compile(_regex(trie))


def _atoms(phrase: str) -> list:
    """The phrase as regex pieces: one per character, blank, wildcard word and end mark."""
    end = _ENDS.get(phrase[-1]) if len(phrase) > 1 else None
    words = (phrase[:-1] if end else phrase).split()
    atoms = []
    for word in words:
        if atoms:
            atoms.append(r"\s+")
        atoms += [r"\w+"] if word == "*" else [_either_case(char) for char in word]
    return atoms + [end] if end else atoms


_FIRST_CHARACTERS: dict[str, str] = {}  # an atom that is one character -> its cases, escaped


def _either_case(char: str) -> str:
    lower, upper = char.lower(), char.upper()
    atom = f"[{lower}{upper}]" if lower != upper and len(lower) == len(upper) == 1 else re.escape(char)
    _FIRST_CHARACTERS[atom] = re.escape(lower) + (re.escape(upper) if upper != lower else "")
    return atom


def _regex(node: dict) -> str:
    branches = [atom + _regex(child) for atom, child in node.items() if atom]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body
