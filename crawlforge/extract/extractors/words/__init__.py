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
    """One case-blind alternation of the file's phrases, longest first, blanks as any space."""
    ordered = sorted(phrases(name), key=len, reverse=True)
    return re.compile("|".join(r"\s+".join(map(re.escape, p.split())) for p in ordered), re.I)
