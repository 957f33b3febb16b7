"""Words into lines and lines into text: what the layout and the structure tree both need."""

from __future__ import annotations

import re

LINE_END_HYPHEN = re.compile(r"[^\W\d_][-\u00ad\u2010]$")
SOFT_HYPHEN = "\u00ad"


def group_lines(words: list[dict]) -> list[list[dict]]:
    """Words whose tops are within half a word's height of each other share a line; each line
    runs left to right, the lines top to bottom."""
    lines: list[list[dict]] = []
    for word in sorted(words, key=lambda w: (w["top"], w["x0"])):
        line = lines[-1] if lines else None
        if line and abs(word["top"] - line[0]["top"]) <= (word["bottom"] - word["top"]) / 2:
            line.append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w["x0"]) for line in lines]


def line_text(line: list[dict]) -> str:
    return " ".join(word["text"] for word in line)


def join_lines(texts: list[str]) -> str:
    """One paragraph of its lines: a word broken by a hyphen at a line's end is made whole
    again when the next line goes on in lower case (a compound, "Soekarno-Hatta", keeps its
    hyphen); other lines meet with a space."""
    joined = ""
    for text in texts:
        text = text.strip()
        if not text:
            continue
        if joined and LINE_END_HYPHEN.search(joined):
            joined = (joined[:-1] if text[:1].islower() else joined) + text
        else:
            joined = f"{joined} {text}" if joined else text
    return joined.replace(SOFT_HYPHEN, "")
